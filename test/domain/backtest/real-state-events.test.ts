// The grid_outage state event design over the pinned DOE OE-417 record: backtests replayed over
// 2002-2023 and checked year by year against a recount written here (its own state test on the
// published area text, its own clustering loop, ladder or linear function and annual cap), its
// price, and every fault of its terms.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backtest, closeMoney, load, replayTerms, store } from './support.js';
import { feedClass } from '../../../src/feeds/catalog.js';
import { technicalPrice } from '../../../src/domain/pricing/technical-price.js';
import { validateStructure } from '../../../src/domain/triggers/index.js';
import { STATE_EVENT_NOTES } from '../../../src/domain/triggers/state-event.js';
import type { OutageEvent } from '../../../src/domain/outages/records.js';
import { FLORIDA_OUTAGE } from '../../support/grid-outage.js';
import { measure } from '../../../src/domain/monitoring/measure.js';

const DAY = 86_400_000;

/** Texas weather events lasting a day or more, linear from 100,000 to 1,000,000 customers. */
const TEXAS_WEATHER = {
  ...FLORIDA_OUTAGE,
  trigger: {
    ...FLORIDA_OUTAGE.trigger,
    measurement: { variable: 'customers_affected', state: 'TX', cause: 'severe_weather', min_duration_hours: 24 },
    payout: { function: 'linear', attachment: 100000, exhaustion: 1000000 },
  },
  financial_structure: { currency: 'USD', limit: 2000000 },
};

interface Row { id: string; t: number; v: number }

/** The recount: rows clustered from each cluster's first row; peak = largest, earliest on ties. */
function clusters(rows: Row[], windowMs: number): { first: Row; peak: Row; members: Row[] }[] {
  const out: { first: Row; peak: Row; members: Row[] }[] = [];
  for (const r of [...rows].sort((a, b) => a.t - b.t || (a.id < b.id ? -1 : 1))) {
    const open = out[out.length - 1];
    if (open && r.t - open.first.t <= windowMs) {
      open.members.push(r);
      if (r.v > open.peak.v) open.peak = r;
    } else out.push({ first: r, peak: r, members: [r] });
  }
  return out;
}

/** Rows of a state by the published area text alone: its name or its capitals code as a word. */
function inState(e: OutageEvent, name: string, code: string): boolean {
  return new RegExp(`\\b${name}\\b(?! City| County)|\\b${code}\\b`, 'i').test(e.area.replace(/\s+/g, ' ')) && !/^(unknown)$/i.test(e.area);
}

async function recount(terms: typeof FLORIDA_OUTAGE, name: string, code: string, keep: (e: OutageEvent) => boolean, pays: (v: number) => number, floor: number) {
  const { data } = await load(terms);
  if (data.kind !== 'outage_events') throw new Error('outage events expected');
  const rows = data.events
    .filter((e) => e.epoch_ms !== null && e.customers !== null && e.customers >= floor && inState(e, name, code) && keep(e))
    .map((e) => ({ id: e.event_id, t: e.epoch_ms!, v: e.customers! }));
  const byYear = new Map<number, ReturnType<typeof clusters>>();
  for (const c of clusters(rows, 3 * DAY)) {
    const y = new Date(c.first.t).getUTCFullYear();
    byYear.set(y, [...(byYear.get(y) ?? []), c]);
  }
  return { byYear, pays };
}

test('Florida state events, 2002-2023: every year\'s occurrences and payout match the recount; 2000-2001 disclosed as not read', async () => {
  const artifact = await backtest(FLORIDA_OUTAGE);
  const ladder = (v: number): number => 1_000_000 * (v >= 1e6 ? 1 : v >= 5e5 ? 0.5 : v >= 2.5e5 ? 0.25 : 0);
  const { byYear } = await recount(FLORIDA_OUTAGE, 'Florida', 'FL', () => true, ladder, 250000);
  assert.deepEqual(artifact.years.map((y) => y.year), Array.from({ length: 24 }, (_, i) => 2000 + i));
  let total = 0;
  for (const y of artifact.years) {
    if (y.year < 2002) {
      assert.equal(y.record, 'missing');
      assert.equal(y.payout, null);
      continue;
    }
    const cs = byYear.get(y.year) ?? [];
    const paid = Math.min(1_000_000, cs.reduce((a, c) => a + ladder(c.peak.v), 0));
    total += paid;
    closeMoney(y.payout, paid, `payout ${y.year}`);
    assert.deepEqual(y.occurrences.map((o) => o.event_id), cs.map((c) => c.peak.id), `peaks ${y.year}`);
    assert.deepEqual(y.occurrences.map((o) => o.event_ids), cs.map((c) => c.members.map((m) => m.id)), `members ${y.year}`);
  }
  assert.equal(artifact.statistics.years, 22);
  closeMoney(artifact.statistics.mean_annual_payout, total / 22, 'mean annual payout');
  assert.deepEqual(artifact.data_coverage.years_missing, [2000, 2001]);
  assert.match(JSON.stringify(artifact.data_coverage.years_missing_detail), /2000_Annual_Summary\.pdf\) is not read/);
  // Wilma is cited by its workbook row, with DOE's own cells.
  const wilma = artifact.years.find((y) => y.year === 2005)!.occurrences.find((o) => o.value === 3241437)!;
  assert.equal(wilma.event_id, '2005:Sheet1:107');
  assert.deepEqual(wilma.source, { file: '2005_Annual_Summary.xls', sheet: 'Sheet1', row: 107 });
  assert.equal(wilma.customers_as_published, 3241437);
});

test('Texas weather events of a day or more: cause and duration filters and the linear payout match the recount', async () => {
  const artifact = await backtest(TEXAS_WEATHER);
  const linear = (v: number): number => 2_000_000 * Math.min(1, Math.max(0, (v - 100000) / 900000));
  const { byYear } = await recount(TEXAS_WEATHER as never, 'Texas', 'TX',
    (e) => e.cause === 'severe_weather' && e.duration_hours !== null && e.duration_hours >= 24, linear, 100000);
  let paying = 0;
  for (const y of artifact.years.filter((x) => x.year >= 2002)) {
    const cs = byYear.get(y.year) ?? [];
    const paid = Math.min(2_000_000, cs.reduce((a, c) => a + linear(c.peak.v), 0));
    if (paid > 0) paying++;
    closeMoney(y.payout, Math.round(paid * 100) / 100, `payout ${y.year}`);
  }
  assert.ok(paying > 0, 'some year pays');
  const sel = artifact.selection as { excluded: Record<string, number> };
  assert.ok((sel.excluded.duration_unknown ?? 0) > 0, 'rows without a restoration are left out and counted');
  assert.ok((sel.excluded.other_cause ?? 0) > 0);
});

test('the Florida structure is priced over 22 counted years, burn and fitted view, every state-design assumption named', async () => {
  const { data, feed, validation } = await load(FLORIDA_OUTAGE);
  const artifact = await backtest(FLORIDA_OUTAGE);
  const doc = technicalPrice({ validation, artifact, data, manifest: feed.manifest, feed_class: feed.class });
  assert.ok(doc.ok, JSON.stringify((doc as { refusal?: unknown }).refusal));
  const p = doc.value;
  assert.equal(p.historical_burn.mean, artifact.statistics.mean_annual_payout);
  assert.equal(p.historical_burn.years_used, 22);
  assert.deepEqual(p.historical_burn.years_excluded.map((y) => y.year), [2000, 2001]);
  assert.equal(p.fitted_view.method, 'poisson_empirical_severity');
  assert.equal(p.fitted_view.available, true);
  for (const note of STATE_EVENT_NOTES) assert.ok(p.assumptions.includes(note), note);
  assert.ok(p.technical_premium.amount > 0 && p.technical_premium.amount < 1_000_000);
});

test('the state design\'s terms: every fault named, with its kind', async () => {
  const withMeasurement = (m: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    ({ ...FLORIDA_OUTAGE, trigger: { ...FLORIDA_OUTAGE.trigger, measurement: m, ...extra } });
  const faults = (terms: unknown) => validateStructure(terms).shape_faults.map((f) => `${f.fault} ${f.path}`);
  assert.deepEqual(faults(withMeasurement({ variable: 'customers_affected' })), ['state_missing trigger.measurement.state']);
  assert.deepEqual(faults(withMeasurement({ variable: 'customers_affected', state: 'Texas' })), ['state_unknown trigger.measurement.state']);
  assert.deepEqual(faults(withMeasurement({ variable: 'customers_affected', state: 'TX', cause: 'squirrels' })), ['cause_unknown trigger.measurement.cause']);
  assert.deepEqual(faults(withMeasurement({ variable: 'customers_affected', state: 'TX', min_duration_hours: 0 })), ['min_duration_hours_invalid trigger.measurement.min_duration_hours']);
  assert.deepEqual(faults(withMeasurement({ variable: 'customers_out', aggregation: 'max', state: 'TX' })), ['unknown_member trigger.measurement.state']);
  assert.deepEqual(faults(withMeasurement({ variable: 'customers_affected', state: 'TX' }, { aggregation_window: undefined })), ['aggregation_window_missing trigger.aggregation_window.duration']);
  assert.deepEqual(faults({ ...FLORIDA_OUTAGE, trigger: { ...FLORIDA_OUTAGE.trigger, payout: { ...FLORIDA_OUTAGE.trigger.payout, basis: 'term_maximum' } } }), ['payout_basis_unknown trigger.payout.basis']);

  // Data faults, against the pinned feeds: the Purdue table is not read; a county series is not a state record.
  const { feed } = await load(FLORIDA_OUTAGE);
  const onPurdue = { ...FLORIDA_OUTAGE, trigger: { ...FLORIDA_OUTAGE.trigger, data_sources: [{ feed_id: 'purdue-major-power-outages-us', version: '2016-07-23' }] } };
  const purdue = await load(onPurdue).catch((e: Error) => e);
  assert.ok(!(purdue instanceof Error));
  assert.deepEqual(purdue.validation.data_faults.map((f) => f.fault), ['outage_reading_not_read']);
  const onCounty = { ...FLORIDA_OUTAGE, trigger: { ...FLORIDA_OUTAGE.trigger, data_sources: [{ feed_id: 'gema-county-outages-13121', version: '2024-11-05' }] } };
  const county = (await store()).get('gema-county-outages-13121', '2024-11-05')!;
  const onCountyFaults = validateStructure(onCounty, { feed: { feed_id: county.feed_id, version: county.version, manifest: county.manifest, class: feedClass(county.manifest) } }).data_faults;
  assert.deepEqual(onCountyFaults.map((f) => f.fault), ['feed_kind_not_read']);
  const countyOnDoe = {
    ...FLORIDA_OUTAGE,
    trigger: { ...FLORIDA_OUTAGE.trigger, measurement: { variable: 'customers_out', aggregation: 'max' }, aggregation_window: { duration: 'P1D' }, payout: { function: 'linear', attachment: 1, exhaustion: 2 } },
  };
  const refused = replayTerms(countyOnDoe, (await load(FLORIDA_OUTAGE)).data, feed);
  assert.ok(!refused.ok);
  assert.equal(refused.refusal.status, 422);
  assert.equal(refused.refusal.code, 'unbacktestable_structure');
  assert.match(refused.refusal.message, /state outage event record/);
});

test('monitoring a Florida structure in force through 2017 reads Irma, the year\'s largest count, by its workbook row', async () => {
  const { data, feed, validation } = await load(FLORIDA_OUTAGE);
  const m = measure(validation.structure!, { from: '2017-01-01', to: '2017-12-31' }, '2017-12-31', feed, data);
  assert.ok(!('fault' in m));
  assert.equal(m.status, 'complete');
  assert.equal(m.index.value, 3500000);
  assert.equal(m.index.unit, 'customers');
  assert.equal(m.index.event_id, '2017:Sheet1:105');
  assert.equal(m.payout_fraction, 1);
  assert.deepEqual(m.occurrences.map((o) => o.event_id), ['2017:Sheet1:105']);
});
