// The ORD tables of a lab run: their headers against the ORD specification's own text, and their
// figures against an independent recomputation from a windstorm run over the real PiWind files
// pinned in the oasis-piwind feed (the run's event losses and occurrence_lt.csv read here row by
// row; no helper of the engine or the writers computes the reference figures).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FEEDS_DIR } from '../support/feeds.js';
import { parsePiwindModel } from '../../src/domain/lab/lanes/windstorm-piwind/piwind-model.js';
import { runWindstorm } from '../../src/domain/lab/lanes/windstorm-piwind/windstorm-lane.js';
import { ORD_COLUMNS, ORD_TABLES, ordCsv, YLT_COLUMNS } from '../../src/domain/exports/ord-tables.js';
import type { LabMetrics } from '../../src/domain/lab/engine/metrics.js';

// Schema/ORD_Data_Types.csv of OasisLMF/ODS_OpenResultsData at a7cc406 (tag 1.0.0), its first 20
// lines as published: each table's fields in order, tables side by side, three columns a table.
const ORD_DATA_TYPES = `MPLT,,,QPLT,,,SPLT,,,MELT,,,QELT,,,SELT,,,ALT,,,EPT,,,PSEPT,
Field,Data Type,,Field,Data Type,,Field,Data Type,,Field,Data Type,,Field,Data Type,,Field,Data Type,,Field,Data Type,,Field,Data Type,,Field,Data Type
Period,32-bit integer,,Period,32-bit integer,,Period,32-bit integer,,EventId,32-bit integer,,EventId,32-bit integer,,EventId,32-bit integer,,SummaryId,32-bit integer,,SummaryId,32-bit integer,,SummaryId,32-bit integer
PeriodWeight,float,,PeriodWeight,float,,PeriodWeight,float,,SummaryId,32-bit integer,,SummaryId,32-bit integer,,SummaryId,32-bit integer,,SampleType,32-bit integer,,EPCalc,32-bit integer,,SampleId,32-bit integer
EventId,32-bit integer,,EventId,32-bit integer,,EventId,32-bit integer,,SampleType,32-bit integer,,Quantile,float,,SampleId,32-bit integer,,MeanLoss,float,,EPType,32-bit integer,,EPType,32-bit integer
Year,32-bit integer,,Year,32-bit integer,,Year,32-bit integer,,EventRate,float,,Loss,float,,Loss,float,,SDLoss,float,,ReturnPeriod,float,,ReturnPeriod,float
Month,32-bit integer,,Month,32-bit integer,,Month,32-bit integer,,ChanceOfLoss,float,,,,,ImpactedExposure,float,,,,,Loss,float,,Loss,float
Day,32-bit integer,,Day,32-bit integer,,Day,32-bit integer,,MeanLoss,float,,,,,,,,,,,,,,,
Hour,32-bit integer,,Hour,32-bit integer,,Hour,32-bit integer,,SDLoss,float,,,,,,,,,,,,,,,
Minute,32-bit integer,,Minute,32-bit integer,,Minute,32-bit integer,,MaxLoss,float,,,,,,,,,,,,,,,
SummaryId,32-bit integer,,SummaryId,32-bit integer,,SummaryId,32-bit integer,,FootprintExposure,float,,,,,,,,,,,,,,,
SampleType,32-bit integer,,Quantile,float,,SampleId,32-bit integer,,MeanImpactedExposure,float,,,,,,,,,,,,,,,
ChanceOfLoss,float,,Loss,float,,Loss,float,,MaxImpactedExposure,float,,,,,,,,,,,,,,,
MeanLoss,float,,,,,ImpactedExposure,float,,,,,,,,,,,,,,,,,,
SDLoss,float,,,,,,,,,,,,,,,,,,,,,,,,
MaxLoss,float,,,,,,,,,,,,,,,,,,,,,,,,
FootprintExposure,float,,,,,,,,,,,,,,,,,,,,,,,,
MeanImpactedExposure,float,,,,,,,,,,,,,,,,,,,,,,,,
MaxImpactedExposure,float,,,,,,,,,,,,,,,,,,,,,,,,`;

/** Each table's fields as the spec lists them, read column block by column block. */
function specFields(): Record<string, string[]> {
  const lines = ORD_DATA_TYPES.split('\n').map((l) => l.split(','));
  const out: Record<string, string[]> = {};
  for (let c = 0; c < lines[0]!.length; c += 3) {
    const name = lines[0]![c]!.toLowerCase();
    out[name] = lines.slice(2).map((l) => l[c] ?? '').filter((f) => f !== '');
  }
  return out;
}

test('every ORD-named table has exactly the fields ORD_Data_Types.csv lists, in its order', () => {
  const spec = specFields();
  for (const [table, columns] of Object.entries(ORD_COLUMNS)) assert.deepEqual([...columns], spec[table], table);
  // The tables served are ORD's (by their ORD names) and the year loss table, whose name is not ORD's.
  for (const t of ORD_TABLES) assert.ok(t === 'ylt' || spec[t] !== undefined, t);
  assert.equal(spec.ylt, undefined);
  assert.ok(YLT_COLUMNS.every((c) => !Object.values(spec).some((fields) => fields.includes(c))), 'the year loss table borrows no ORD field name');
});

// --- Figures, from a run over the real PiWind files ---
const DIR = path.join(FEEDS_DIR, 'oasis-piwind', '2026-07-30');
const FILES = ['events_p.csv', 'occurrence_lt.csv', 'footprint.csv', 'vulnerability.csv', 'damage_bin_dict.csv', 'intensity_bin_dict.csv',
  'areaperil_dict.csv', 'vulnerability_dict.csv', 'lookup_config.json', 'model_settings.json', 'ModelVersion.csv'];
const texts: Record<string, string> = {};
for (const f of FILES) texts[f] = readFileSync(path.join(DIR, f), 'utf8');
const model = parsePiwindModel(texts, { occurrenceBin: readFileSync(path.join(DIR, 'occurrence_lt.bin')) });
const rowsOf = (file: string) => {
  const lines = texts[file]!.trim().split(/\r?\n/);
  const head = lines[0]!.split(',').map((h) => h.trim().toLowerCase());
  return lines.slice(1).map((line) => Object.fromEntries(line.split(',').map((v, i) => [head[i]!, v.trim()])));
};
// Points at the centres of the first 40 wind cells (a plain exposure; the figures are the run's).
const points = rowsOf('areaperil_dict.csv').filter((r) => r.peril_id === 'WTC' && r.coverage_type === '1').slice(0, 40).map((r, i) => {
  const lats = [1, 2, 3, 4].map((k) => Number(r[`lat${k}`]));
  const lons = [1, 2, 3, 4].map((k) => Number(r[`lon${k}`]));
  return { lat: (Math.min(...lats) + Math.max(...lats)) / 2, lon: (Math.min(...lons) + Math.max(...lons)) / 2, value: 100_000 + 5_000 * i };
});
const metricsOf = (samples: number): LabMetrics => {
  const r = runWindstorm(model, { samples, exposure: { points } }, { modelData: { feed_id: 'oasis-piwind', version: '2026-07-30', sha256: 'test' } });
  assert.ok(r.ok);
  return r.value.metrics!;
};
const OCC = rowsOf('occurrence_lt.csv').map((r) => ({ event: Number(r.event_id), period: Number(r.period_no), year: Number(r.occ_year), month: Number(r.occ_month), day: Number(r.occ_day) }));

/** CSV text to rows of cells (no quoting occurs in these tables). */
const table = (csv: string | null) => {
  const lines = csv!.trimEnd().split('\r\n');
  return { header: lines[0]!.split(','), rows: lines.slice(1).map((l) => l.split(',')) };
};
const close = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

/** The reference: period losses from the run's event losses and the occurrence file, by a plain loop. */
function reference(m: LabMetrics) {
  const loss = new Map(m.elt.map((e) => [e.event_id, e.loss]));
  const periods = m.periods;
  const agg = new Array<number>(periods).fill(0);
  const max = new Array<number>(periods).fill(0);
  const count = new Map<number, number>();
  const plt: { period: number; event: number; year: number; month: number; day: number; loss: number }[] = [];
  for (const o of OCC) {
    const l = loss.get(o.event);
    if (l === undefined) continue;
    count.set(o.event, (count.get(o.event) ?? 0) + 1);
    agg[o.period - 1]! += l;
    max[o.period - 1] = Math.max(max[o.period - 1]!, l);
    plt.push({ ...o, loss: l });
  }
  plt.sort((a, b) => a.period - b.period || a.event - b.event);
  const mean = agg.reduce((s, x) => s + x, 0) / periods;
  const sd = Math.sqrt(agg.reduce((s, x) => s + (x - mean) ** 2, 0) / (periods - 1));
  // Loss at T: rank r = N/T from the largest, linear between ranks (DOMAIN: Exceedance metrics).
  const at = (values: number[], t: number) => {
    const v = [...values].sort((a, b) => b - a);
    const r = periods / t;
    const i = Math.floor(r);
    const f = r - i;
    return f === 0 ? v[i - 1]! : v[i - 1]! + f * (v[i]! - v[i - 1]!);
  };
  return { count, plt, mean, sd, at, agg, max };
}

test('an analytical run: MELT, MPLT with the occurrence dates, ALT and EPT (EPCalc 1) recomputed from its losses', () => {
  const m = metricsOf(0);
  const ref = reference(m);
  assert.ok(m.elt.length > 10 && ref.plt.length >= m.elt.length);

  const melt = table(ordCsv(m, 'melt', false));
  assert.deepEqual(melt.header, [...ORD_COLUMNS.melt]);
  assert.equal(melt.rows.length, m.elt.length);
  for (const r of melt.rows) {
    const event = Number(r[0]);
    assert.deepEqual(r.slice(1, 3), ['1', '1']);
    close(Number(r[3]), ref.count.get(event)! / m.periods, `EventRate ${event}`);
    assert.deepEqual([r[4], r[6]], ['0', '0']); // ChanceOfLoss and SDLoss of an analytical row, as oasislmf writes them
    assert.equal(Number(r[5]), m.elt.find((e) => e.event_id === event)!.loss);
    assert.deepEqual(r.slice(7), ['', '', '', '']); // not held by the run
  }

  const mplt = table(ordCsv(m, 'mplt', false));
  assert.deepEqual(mplt.header, [...ORD_COLUMNS.mplt]);
  assert.deepEqual(mplt.rows.map((r) => r.slice(0, 10).map(Number)),
    ref.plt.map((o) => [o.period, 1 / m.periods, o.event, o.year, o.month, o.day, 0, 0, 1, 1]));
  assert.deepEqual(mplt.rows.map((r) => Number(r[11])), ref.plt.map((o) => o.loss));

  const alt = table(ordCsv(m, 'alt', false));
  assert.deepEqual(alt.header, [...ORD_COLUMNS.alt]);
  close(Number(alt.rows[0]![2]), ref.mean, 'AAL');
  close(Number(alt.rows[0]![3]), ref.sd, 'SDLoss');
  assert.deepEqual(alt.rows[0]!.slice(0, 2), ['1', '1']);

  const ept = table(ordCsv(m, 'ept', false));
  assert.deepEqual(ept.header, [...ORD_COLUMNS.ept]);
  const rps = m.exceedance.aep.map((p) => p.return_period);
  assert.ok(rps.length > 0);
  assert.deepEqual(ept.rows.map((r) => `${r[1]}:${r[2]}`), [1, 2, 3, 4].flatMap((t) => rps.map(() => `1:${t}`)));
  for (const r of ept.rows) {
    const [type, rp, loss] = [Number(r[2]), Number(r[3]), Number(r[4])];
    if (type === 1) close(loss, ref.at(ref.max, rp), `OEP ${rp}`);
    if (type === 3) close(loss, ref.at(ref.agg, rp), `AEP ${rp}`);
  }

  const ylt = table(ordCsv(m, 'ylt', false));
  assert.deepEqual(ylt.header, [...YLT_COLUMNS]);
  const withLoss = ref.agg.map((l, p) => [p + 1, l] as const).filter(([, l]) => l > 0);
  assert.deepEqual(ylt.rows.map((r) => Number(r[0])), withLoss.map(([p]) => p));
  ylt.rows.forEach((r, k) => close(Number(r[2]), withLoss[k]![1], `period ${r[0]}`));
});

test('a sampled run: SampleType 2, EPCalc 4 (sample mean), no spread it does not keep', () => {
  const m = metricsOf(10);
  const ref = reference(m);
  const melt = table(ordCsv(m, 'melt', true));
  assert.ok(melt.rows.every((r) => r[2] === '2' && r[4] === '' && r[6] === ''));
  const alt = table(ordCsv(m, 'alt', true));
  assert.deepEqual(alt.rows[0]!.map((c, i) => (i === 2 ? '' : c)), ['1', '2', '', '']);
  close(Number(alt.rows[0]![2]), ref.mean, 'AAL');
  const ept = table(ordCsv(m, 'ept', true));
  assert.ok(ept.rows.every((r) => r[1] === '4'));
  for (const r of ept.rows.filter((x) => x[2] === '3')) close(Number(r[4]), ref.at(ref.agg, Number(r[3])), `AEP ${r[3]}`);
  // The OEP of event means is ORD's sample-mean OEP only when no period has two events with a loss.
  const twoInAPeriod = m.ylt.some((y) => y.events > 1);
  assert.equal(ept.rows.some((r) => r[2] === '1' || r[2] === '2'), !twoInAPeriod);
  const single = { ...m, ylt: m.ylt.map((y) => ({ ...y, events: 1 })) };
  assert.ok(table(ordCsv(single, 'ept', true)).rows.some((r) => r[2] === '1'));
});

test('a run kept before its occurrences has no MPLT; its other tables are written', () => {
  const m = metricsOf(0);
  const { occurrences: _, ...old } = m;
  assert.equal(ordCsv(old as LabMetrics, 'mplt', false), null);
  assert.ok(ordCsv(old as LabMetrics, 'melt', false)!.startsWith('EventId,'));
});

test('an occurrence without a date: the year is its period (a lab period is one year), the rest empty', () => {
  const m = metricsOf(0);
  const undated = { ...m, occurrences: m.occurrences!.map((o) => ({ ...o, date: null })) };
  const first = table(ordCsv(undated, 'mplt', false)).rows[0]!;
  assert.deepEqual(first.slice(3, 8), [first[0], '', '', '', '']);
});
