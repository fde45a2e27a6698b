// Only the feed catalog (src/feeds/catalog.ts) reads meaning from a feed id: no other module checks
// an id's prefix, suffix or part, and no other module holds a fragment of a pinned feed id.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { FEEDS_DIR } from '../support/feeds.js';
import { LAB_LANES } from '../../src/app/lab-lanes.js';
import { HISTORICAL_EVENTS } from '../../src/domain/lab/lanes/earthquake/historical-lane.js';
import { INPUT_KINDS } from '../../src/domain/lab/user-inputs.js';

/** The lab's model identifiers and versions name models, as a whole pinned id names a snapshot: identities, not readings of a feed id. */
const LAB_MODEL_IDS = LAB_LANES.flatMap((m) => [m.id, m.version]);
/** SPEC's ten historical earthquake events (loma-prieta-1989, ...) name events, not pieces of a feed id. */
const HISTORICAL_EVENT_IDS: readonly string[] = HISTORICAL_EVENTS;
/** The kinds of input users bring (oq-exposure, climada-hazard, ...) name kinds of file, not pieces of a feed id. */
const INPUT_KIND_IDS: readonly string[] = Object.keys(INPUT_KINDS);

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const CATALOG = 'feeds/catalog.ts';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? sources(path) : e.name.endsWith('.ts') ? [path] : [];
  });
}

/** Code without comments and import/export-from lines (module paths name parsers, not feeds). */
function code(text: string): string {
  // An import or re-export may span lines (`} from './demo-source-model.js';`): the whole statement goes.
  return text.replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*(import|export)\b[^;'"`]*\bfrom\s*['"][^'"]*['"]/gm, '')
    .split('\n')
    .map((l) => l.replace(/(^|[^:'"`\\])\/\/.*$/, '$1')).join('\n');
}

/** Dash-bounded pieces of pinned ids that carry meaning: prefixes ('ghcnd-'), suffixes ('-prcp'), parts ('-hail-'). */
export function idFragments(ids: readonly string[]): string[] {
  const out = new Set<string>();
  for (const id of ids) {
    const parts = id.split('-');
    for (let i = 1; i < parts.length; i++) {
      out.add(`${parts.slice(0, i).join('-')}-`);
      out.add(`-${parts.slice(i).join('-')}`);
      for (let j = i + 1; j < parts.length; j++) out.add(`-${parts.slice(i, j).join('-')}-`);
    }
  }
  return [...out].filter((f) => /[a-z]{2}/.test(f));
}

/** Where a module reads meaning from an id string: a fragment opening or closing a literal, or a string test on an id. */
export function idReadings(text: string, fragments: readonly string[], ids: readonly string[] = []): string[] {
  // A whole pinned id names a snapshot (identity); only its pieces carry meaning.
  const whole = new Set(ids);
  const body = code(text).replace(/(['"`])([a-z0-9.-]+)\1/g, (all, _q, inner: string) => (whole.has(inner) ? '""' : all));
  const found: string[] = [];
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  for (const f of fragments) {
    const opens = f.endsWith('-') && !f.startsWith('-') ? new RegExp(`['"\`/^]\\^?${esc(f)}`) : null;
    const closes = f.startsWith('-') && !f.endsWith('-') ? new RegExp(`${esc(f)}\\$?['"\`/]`) : null;
    const within = f.startsWith('-') && f.endsWith('-') ? new RegExp(`['"\`/][^'"\`/\\n]*${esc(f)}[^'"\`/\\n]*['"\`/]`) : null;
    for (const r of [opens, closes, within]) if (r?.test(body)) found.push(`literal ${JSON.stringify(f)}`);
  }
  const tests = /\b(feed_?[iI]d|feedId)\b\)?\s*\.\s*(startsWith|endsWith|includes|match|split|slice|indexOf)\s*\(|\.test\(\s*[\w.]*\b(feed_?[iI]d|feedId)\b/g;
  for (const m of body.matchAll(tests)) found.push(`string test ${JSON.stringify(m[0])}`);
  return found;
}

/** The pinned feed ids: the feeds folder's subfolders, read when the test runs, so a missing folder fails it by name. */
function pinnedIds(): string[] {
  if (!existsSync(FEEDS_DIR)) {
    assert.fail(`no feeds folder at ${FEEDS_DIR}: this check reads the pinned feed ids from it; set CATRISK_FEEDS_DIR to the folder that holds the pinned snapshots`);
  }
  return readdirSync(FEEDS_DIR, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
}

test('no module but the feed catalog reads meaning from a feed id', () => {
  const pinned = pinnedIds();
  assert.ok(pinned.length > 50, `${pinned.length} pinned feeds under ${FEEDS_DIR} (CATRISK_FEEDS_DIR): the check needs the pinned snapshots`);
  const fragments = idFragments(pinned);
  const offences = sources(SRC).flatMap((file) => {
    const rel = relative(SRC, file).split('\\').join('/');
    if (rel === CATALOG) return [];
    return idReadings(readFileSync(file, 'utf8'), fragments, [...pinned, ...LAB_MODEL_IDS, ...HISTORICAL_EVENT_IDS, ...INPUT_KIND_IDS]).map((o) => `${rel}: ${o}`);
  });
  assert.deepEqual(offences, []);
});

test('the check sees each way an id was read (hand-made lines)', () => {
  const ids = ['ghcnd-usw00003870-prcp', 'noaa-spc-hail-denver', 'gema-county-outages-13031'];
  const fragments = idFragments(ids);
  assert.equal(idReadings(`if (s.feed_id.startsWith('x')) {}`, fragments).length, 1);
  assert.equal(idReadings(`const k = feedId.endsWith(suffix);`, fragments).length, 1);
  assert.equal(idReadings(`const e = id.endsWith('-prcp') ? 'PRCP' : null;`, fragments).length, 1);
  assert.equal(idReadings(`const r = /-hail-/.test(name);`, fragments).length, 1);
  assert.equal(idReadings(`const gema = x === 'gema-county-outages-13031' || y.startsWith(\`gema-\`);`, fragments, ids).length, 1);
  assert.equal(idReadings(`const r = /^noaa-spc-/.exec(s);`, fragments).length >= 1, true);
  assert.deepEqual(idReadings(`import { a } from './parsers/gema-outages.js'; // ghcnd- files\nconst ok = 'hail';`, fragments), []);
  assert.deepEqual(idReadings(`import {\n  a,\n  b,\n} from './parsers/gema-outages.js';`, fragments), []);
  assert.equal(idReadings(`import {\n  a,\n} from './x.js';\nconst k = '-hail-';`, fragments).length, 1);
});
