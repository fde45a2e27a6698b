// The embedded coder's accuracy and calibration, measured on two labelled sets:
// - test/fixtures/coding/labelled-rows.json: the occupancy and construction cells of the real
//   schedules of test/fixtures/schedules (hand-labelled against the pinned OED names, or labelled by
//   the file's own codes for 05-oed-location.csv), and rows in the words brokers use (issue 17's
//   "tilt-up", "frame", "RC", "unreinforced masonry", "strip mall", "cold store"…), hand-labelled.
//   Each row says where its label came from. The broker-word table was written with these rows in
//   view, so its figure is an in-sample one.
// - the Description column of the pinned OED OccupancyValues.csv and ConstructionValues.csv, each
//   labelled with its own row's code: prose the broker words were not written from (held out).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { CONFIDENCE, codeRow, type CodeProposal } from '../../../src/domain/coding/classifier.js';
import { OED_DIR, oedReference } from '../exposure/support.js';

interface Labelled { text: string; occupancy?: number[]; construction?: number[]; source: string }
const FIELDS = ['occupancy', 'construction'] as const;

const labelled = JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/coding/labelled-rows.json'), 'utf8')) as Labelled[];

/** The pinned tables' descriptions that say more than the name, each labelled with its own code. */
function descriptions(): Labelled[] {
  const out: Labelled[] = [];
  for (const [file, field] of [['OccupancyValues.csv', 'occupancy'], ['ConstructionValues.csv', 'construction']] as const) {
    const records = parse(readFileSync(join(OED_DIR, file), 'utf8'), { columns: true, bom: true }) as Array<Record<string, string>>;
    for (const r of records) {
      const description = (r.Description ?? '').trim();
      const name = (r.Name ?? '').trim().toLowerCase();
      const part = name.split(',').slice(1).join(',').trim();
      if (description === '' || description.toLowerCase() === name || description.toLowerCase() === part) continue;
      out.push({ text: description, [field]: [Number(r['OED Code'])], source: `oed-spec ${file} Description of ${r['OED Code']}` });
    }
  }
  return out;
}

interface Tally { right: number; all: number }
function measure(rows: Labelled[]): { overall: Tally; cleared: Tally; cells: Map<string, Tally & { confidence: number }> } {
  const overall = { right: 0, all: 0 };
  const cleared = { right: 0, all: 0 };
  const cells = new Map<string, Tally & { confidence: number }>();
  for (const row of rows) {
    const coded = codeRow(row.text, oedReference());
    for (const field of FIELDS) {
      const labels = row[field];
      if (!labels) continue;
      const p: CodeProposal = coded[field];
      const right = labels.includes(p.code) ? 1 : 0;
      overall.right += right; overall.all += 1;
      if (p.confidence >= 0.7) { cleared.right += right; cleared.all += 1; }
      const key = `${p.length}/${p.evidence}`;
      const cell = cells.get(key) ?? { right: 0, all: 0, confidence: p.confidence };
      cell.right += right; cell.all += 1;
      cells.set(key, cell);
    }
  }
  return { overall, cleared, cells };
}

const share = (t: Tally) => t.right / t.all;

test('every label names a code of the pinned tables and says where it came from', () => {
  const oed = oedReference();
  assert.ok(labelled.length >= 80, `${labelled.length} labelled rows`);
  for (const row of labelled) {
    assert.match(row.source, /^(schedule:|broker words)/, row.text);
    for (const code of row.occupancy ?? []) assert.ok(oed.occupancy.has(code), `${row.text}: occupancy ${code}`);
    for (const code of row.construction ?? []) assert.ok(oed.construction.has(code), `${row.text}: construction ${code}`);
  }
});

test('on schedule and broker rows the coder reads at least 90% of fields right (in-sample)', () => {
  const { overall } = measure(labelled);
  assert.ok(overall.all >= 170, `${overall.all} fields`);
  // Measured 172 of 174 (98.9%) when the table was written; the floor leaves room for new rows.
  assert.ok(share(overall) >= 0.9, `accuracy ${share(overall).toFixed(3)} (${overall.right}/${overall.all})`);
});

test('on the held-out OED descriptions, codes that clear the default gate (0.7) are right at least 45% of the time', () => {
  const { overall, cleared } = measure(descriptions());
  assert.ok(overall.all >= 380, `${overall.all} description fields`);
  // Prose defining a class mentions many classes: the coder is weak here (measured 25% overall,
  // 47% of the 55 above the gate), and its confidence says so (see the calibration test).
  assert.ok(share(cleared) >= 0.45, `above-gate accuracy ${share(cleared).toFixed(3)} (${cleared.right}/${cleared.all})`);
  assert.ok(share(overall) < 0.5, 'a figure this high would mean the description set no longer tests prose');
});

test('confidence is calibrated: within 0.1 of the share read right, in every cell of 20 fields or more', () => {
  const { cells } = measure([...labelled, ...descriptions()]);
  const checked: string[] = [];
  for (const [key, cell] of cells) {
    const [length, evidence] = key.split('/') as ['short' | 'long', keyof typeof CONFIDENCE.short];
    assert.equal(cell.confidence, CONFIDENCE[length][evidence]);
    if (cell.all < 20) continue;
    checked.push(key);
    assert.ok(Math.abs(share(cell) - cell.confidence) <= 0.1, `${key}: confidence ${cell.confidence}, read right ${share(cell).toFixed(3)} of ${cell.all}`);
  }
  assert.ok(checked.length >= 6, `cells checked: ${checked.join(', ')}`);
});

test('broker words: the longer phrase wins, the specific code beats the general one, the first of a mixed row leads', () => {
  const oed = oedReference();
  const read = (text: string) => { const c = codeRow(text, oed); return [c.occupancy.code, c.construction.code, c.occupancy.evidence, c.construction.evidence]; };
  assert.deepEqual(read('Cold store, unreinforced masonry').slice(0, 2), [1122, 5103]);
  assert.deepEqual(read('Tilt-up warehouse').slice(0, 2), [1122, 5155]);
  assert.deepEqual(read('R.C. frame office').slice(0, 2), [1104, 5150]);
  assert.deepEqual(read('Commercial office, masonry').slice(0, 3), [1104, 5100, 'word']);
  assert.deepEqual(read('Office over retail').slice(0, 3), [1104, 5000, 'mixed']);
  assert.deepEqual(read('Nothing known'), [1000, 5000, 'none', 'none']);
  // Every proposal is a code of the pinned table, with its name as the table spells it.
  const c = codeRow('Strip mall, frame', oed);
  assert.equal(c.occupancy.name, oed.occupancy.get(c.occupancy.code));
  assert.equal(c.construction.name, oed.construction.get(c.construction.code));
});
