// feeds/LICENSES.md, written from the manifests: each pinned snapshot's licence and credit line, with
// the ones whose terms limit use marked, so a reader of the repository sees every term in one place.
import type { Manifest } from './manifest.js';

/** A licence that forbids commercial use (Creative Commons NC, or said in words). */
export function isNonCommercial(license: string | undefined): boolean {
  return license !== undefined && /\bBY-NC\b|-NC-|\bnon-?commercial\b/i.test(license);
}

const cell = (text: string | undefined): string => (text ?? '(not stated)').replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

/** The whole of feeds/LICENSES.md for these manifests (any order; written sorted by feed and version). */
export function licensesDocument(manifests: readonly Manifest[]): string {
  const sorted = [...manifests].sort((a, b) => (a.feed_id + '/' + a.version < b.feed_id + '/' + b.version ? -1 : 1));
  const rows = sorted.map((m) => {
    const marks = [
      ...(isNonCommercial(m.license) ? ['**non-commercial**'] : []),
      ...(m.content_servable === false ? ['**not servable**'] : []),
    ];
    return `| ${m.feed_id}/${m.version} | ${marks.join(', ') || 'none'} | ${cell(m.license)} | ${cell(m.credit_line)} |`;
  });
  const nonCommercial = sorted.filter((m) => isNonCommercial(m.license)).length;
  const notServable = sorted.filter((m) => m.content_servable === false).length;
  return [
    '# Licences of the pinned data',
    '',
    'Written by `npm run feeds:licenses` from each snapshot\'s MANIFEST.json; `npm run feeds:check` fails when it is out of date.',
    'The data in `feeds/` is not the project\'s: each snapshot keeps its publisher\'s licence, stated below',
    'as its manifest records it, and is credited with its credit line wherever it is shown.',
    '',
    `${sorted.length} snapshots. Marked **non-commercial** (${nonCommercial}): the licence forbids commercial use.`,
    `Marked **not servable** (${notServable}): the service reads it and serves figures made from it, never its rows or files.`,
    '',
    '| snapshot | marks | licence | credit line |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}
