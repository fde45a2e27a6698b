// Monitoring's pure rules: the term in force, the measurement over the pinned California catalog
// checked against an independent recount of the raw CSV, what counts as a move, the retry waits,
// and the Standard Webhooks signature checked with the standardwebhooks package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { Webhook } from 'standardwebhooks';
import { currentTerm, inForceFault, markOf, measure, moveOf, termsInForce, type Measurement, type MeasurementMark } from '../../src/domain/monitoring/measure.js';
import { newSecret, signedHeaders } from '../../src/domain/monitoring/signature.js';
import { validateStructure } from '../../src/domain/triggers/index.js';
import { termRule, type TermRule } from '../../src/domain/triggers/term.js';
import type { FeedRead } from '../../src/domain/triggers/feed.js';
import { triggerData, type TriggerData } from '../../src/domain/triggers/records.js';
import { FeedStore } from '../../src/feeds/store.js';
import { dailySeries, eventCatalog } from '../../src/feeds/readers.js';
import { feedClass } from '../../src/feeds/catalog.js';
import { retryDelayMs } from '../../src/app/monitoring.js';
import { ACCEPTANCE_BODIES } from '../support/acceptance.js';
import { FEEDS_DIR, latestVersion, rawFile } from '../support/feeds.js';

const FEED = 'usgs-comcat-m6-california';
const rule = (start: string, end: string): TermRule => termRule({ start, end }) as TermRule;

test('the term in force: the structure\'s annual terms cut to the days in force; the current one has begun', () => {
  const season = rule('2027-06-01', '2027-11-30');
  // Three seasons in force, the first cut to its in-force start.
  const terms = termsInForce(season, { from: '2026-08-15', to: '2028-12-31' });
  assert.deepEqual(terms.map((t) => [t.year, t.from, t.to]), [[2026, '2026-08-15', '2026-11-30'], [2027, '2027-06-01', '2027-11-30'], [2028, '2028-06-01', '2028-11-30']]);
  assert.equal(currentTerm(season, { from: '2026-08-15', to: '2028-12-31' }, '2027-01-10').year, 2026, 'between seasons: the last begun');
  assert.equal(currentTerm(season, { from: '2026-08-15', to: '2028-12-31' }, '2027-06-01').year, 2027);
  assert.equal(currentTerm(season, { from: '2026-08-15', to: '2028-12-31' }, '2020-01-01').year, 2026, 'none begun: the first');
  // A term crossing New Year belongs to the year it starts in.
  const winter = rule('2026-12-01', '2027-02-28');
  assert.deepEqual(termsInForce(winter, { from: '2026-12-01', to: '2027-02-28' }).map((t) => [t.year, t.from, t.to]), [[2026, '2026-12-01', '2027-02-28']]);
  assert.deepEqual(inForceFault(season, { from: '2027-01-01', to: '2027-03-31' }), { kind: 'no_term', message: 'in_force 2027-01-01 to 2027-03-31 holds no day of the structure\'s term' });
  assert.match(inForceFault(season, { from: '2027-02-30', to: '2027-03-31' })?.message ?? '', /not a calendar date/);
  assert.equal(inForceFault(season, { from: '2027-05-01', to: '2027-03-31' })?.kind, 'dates');
  assert.equal(inForceFault(season, { from: '2027-07-01', to: '2027-07-31' }), null);
});

async function californiaRead(): Promise<{ feed: FeedRead; data: TriggerData }> {
  const store = await FeedStore.open(FEEDS_DIR, { feeds: [FEED] });
  const s = store.get(FEED)!;
  return { feed: { feed_id: s.feed_id, version: s.version, sha256: s.sha256, manifest: s.manifest, class: feedClass(s.manifest) }, data: triggerData(await eventCatalog(store, s)) };
}

function earthquakeStructure(start: string, end: string) {
  const body = ACCEPTANCE_BODIES.earthquake as any;
  const v = validateStructure({ ...body, period: { start, end } });
  assert.ok(v.structure, JSON.stringify(v.shape_faults));
  return v.structure;
}

/** Independent recount: rows of the raw CSV in the box, at most 70 km deep, of type earthquake, timed within [from, to]. */
function rawLargest(from: string, to: string): { mag: number; id: string } | null {
  const rows = parse(rawFile(FEED), { columns: true }) as Array<Record<string, string>>;
  let best: { mag: number; id: string } | null = null;
  for (const r of rows) {
    const lat = Number(r.latitude);
    const lon = Number(r.longitude);
    if (r.type !== 'earthquake' || r.depth === '' || Number(r.depth) > 70) continue;
    if (lat < 32 || lat > 36 || lon < -121 || lon > -114) continue;
    const day = r.time!.slice(0, 10);
    if (day < from || day > to) continue;
    if (!best || Number(r.mag) > best.mag) best = { mag: Number(r.mag), id: r.id! };
  }
  return best;
}

test('a term the record covers: the Ridgecrest sequence, as a recount of the raw catalog finds it', async () => {
  const { feed, data } = await californiaRead();
  const s = earthquakeStructure('2019-01-01', '2019-12-31');
  const m = measure(s, { from: '2019-01-01', to: '2019-12-31' }, '2026-03-01', feed, data) as Measurement;
  assert.equal(m.status, 'complete');
  assert.equal(m.as_of, feed.manifest.period_of_record!.to);
  assert.deepEqual(m.feed, { feed_id: FEED, version: latestVersion(FEED), sha256: feed.sha256 });
  const raw = rawLargest('2019-01-01', '2019-12-31')!;
  assert.deepEqual([m.index.value, m.index.event_id], [raw.mag, raw.id], 'largest in the box: exact');
  assert.equal(m.index.value, 7.1);
  // One occurrence, the M7.1; the M6.4 of 4 July lies below the lowest level and is left out
  // before clustering (the backtest's occurrence rule).
  assert.equal(m.occurrences.length, 1);
  assert.equal(m.occurrences[0]!.event_id, 'ci38457511');
  assert.deepEqual(m.occurrences[0]!.event_ids, ['ci38457511']);
  assert.equal(m.occurrences[0]!.payout_fraction, 0.5);
  // Ladder 6.5 / 7.0 / 7.5: the second level reached; fraction 0.5; distances in magnitude units.
  assert.deepEqual(m.level, { reached: 2, of: 3, at_least: 7.0 });
  assert.equal(m.payout_fraction, 0.5);
  assert.equal(m.distance_to_attachment, 0);
  assert.equal(m.distance_to_exhaustion, 0.4);
  // In force from 1 August only: the July sequence lies outside; the index is whatever else the box held.
  const late = measure(s, { from: '2019-08-01', to: '2019-12-31' }, '2026-03-01', feed, data) as Measurement;
  const rawLate = rawLargest('2019-08-01', '2019-12-31');
  assert.equal(late.index.value, rawLate?.mag ?? null);
  assert.equal(late.occurrences.length, 0);
  if (late.index.value === null) assert.equal(late.distance_to_attachment, null);
});

test('a term ahead of the record measures nothing and says so; a record cut mid-term measures so far', async () => {
  const { feed, data } = await californiaRead();
  const ahead = measure(earthquakeStructure('2027-01-01', '2027-12-31'), { from: '2027-01-01', to: '2027-12-31' }, '2027-03-01', feed, data) as Measurement;
  assert.equal(ahead.status, 'ahead_of_record');
  assert.match(ahead.reason!, /after the last day/);
  assert.deepEqual([ahead.index.value, ahead.level, ahead.payout_fraction, ahead.distance_to_attachment], [null, null, null, null], 'nothing, never a zero');
  // The same snapshot as if it ended on 5 July 2019 (hand-made here: the manifest's end moved and
  // later rows dropped): the M6.4 is the index so far, below the attachment by 0.1.
  const cut = { ...feed, manifest: { ...feed.manifest, period_of_record: { from: '1901-03-03', to: '2019-07-05' } } };
  const events = (data as Extract<TriggerData, { kind: 'quakes' }>).events.filter((e) => e.time < '2019-07-05T00:00:00Z' || e.time.slice(0, 10) === '2019-07-05');
  const soFar = measure(earthquakeStructure('2019-01-01', '2019-12-31'), { from: '2019-01-01', to: '2019-12-31' }, '2019-07-05', cut, { kind: 'quakes', events }) as Measurement;
  assert.equal(soFar.status, 'in_progress');
  assert.equal(soFar.as_of, '2019-07-05');
  assert.equal(soFar.index.value, 6.4);
  assert.equal(soFar.index.event_id, 'ci38443183');
  assert.equal(soFar.level, null);
  assert.equal(soFar.payout_fraction, 0);
  assert.ok(Math.abs(soFar.distance_to_attachment! - 0.1) < 1e-9, 'attachment 6.5 − 6.4');
  assert.deepEqual(soFar.occurrences, [], 'no occurrence reaches the lowest level yet');
  // Then the full record: the level is reached.
  assert.equal(moveOf(markOf(soFar), markOf(measure(earthquakeStructure('2019-01-01', '2019-12-31'), { from: '2019-01-01', to: '2019-12-31' }, '2026-03-01', feed, data) as Measurement)), 'monitoring.level_reached');
});

test('a daily index: the term maximum of 3-day mean discharge so far, as a recount of the raw NWIS file finds it', async () => {
  const feedId = 'usgs-nwis-04119000-discharge';
  const store = await FeedStore.open(FEEDS_DIR, { feeds: [feedId] });
  const snap = store.get(feedId)!;
  const cls = feedClass(snap.manifest);
  const feed: FeedRead = { feed_id: feedId, version: snap.version, sha256: snap.sha256, manifest: snap.manifest, class: cls };
  const data = triggerData(await dailySeries(store, snap));
  const body = ACCEPTANCE_BODIES.flood as any;
  const s = validateStructure({ ...body, period: { start: '2013-03-01', end: '2013-05-31' } }).structure!;
  const m = measure(s, { from: '2013-03-01', to: '2013-05-31' }, '2026-03-01', feed, data) as Measurement;
  // Recount: every 3 consecutive days inside the term, each with a value (all approved, "A", here), averaged.
  const rows = rawFile(feedId).toString('utf8').split('\n').slice(1).filter(Boolean).map((l) => l.split('\t'));
  const flow = new Map(rows.map((r) => [r[2]!, Number(r[3])]));
  let best = { value: -Infinity, to: '' };
  for (let t = Date.UTC(2013, 2, 3); t <= Date.UTC(2013, 4, 31); t += 86_400_000) {
    const days = [2, 1, 0].map((k) => new Date(t - k * 86_400_000).toISOString().slice(0, 10));
    const mean = days.reduce((a, d) => a + flow.get(d)!, 0) / 3;
    if (mean > best.value) best = { value: mean, to: days[2]! };
  }
  assert.equal(m.status, 'complete');
  assert.ok(Math.abs(m.index.value! - best.value) <= 1e-6, `${m.index.value} vs recount ${best.value}`);
  assert.equal(m.index.at, best.to);
  assert.deepEqual(m.index.window, { from: new Date(Date.parse(best.to) - 2 * 86_400_000).toISOString().slice(0, 10), to: best.to });
  // Linear 25,000 to 40,000 ft³/s: fraction and distances from the recount.
  const fraction = Math.min(1, Math.max(0, (best.value - 25000) / 15000));
  assert.ok(Math.abs(m.payout_fraction! - fraction) <= 1e-9);
  assert.ok(Math.abs(m.distance_to_attachment! - Math.max(0, 25000 - best.value)) <= 1e-6);
  assert.ok(Math.abs(m.distance_to_exhaustion! - Math.max(0, 40000 - best.value)) <= 1e-6);
  assert.deepEqual(m.occurrences, [], 'a daily index pays once from its term maximum: no occurrence list');
});

test('what moves: a level reached or left, the index value changed; a new vintage alone moves nothing', () => {
  const mark = (over: Partial<MeasurementMark>): MeasurementMark => ({
    feed_version: 'v1', sha256: 'a', status: 'in_progress', term: { from: '2019-01-01', to: '2019-12-31' }, index_value: 6.4, level: 0, distance_to_attachment: 0.1, ...over,
  });
  assert.equal(moveOf(mark({}), mark({ feed_version: 'v2', sha256: 'b' })), null);
  assert.equal(moveOf(mark({}), mark({ feed_version: 'v2', index_value: 6.45, distance_to_attachment: 0.05 })), 'monitoring.measurement_moved');
  assert.equal(moveOf(mark({ index_value: null, distance_to_attachment: null }), mark({})), 'monitoring.measurement_moved', 'a first value read');
  assert.equal(moveOf(mark({}), mark({ index_value: 7.1, level: 2 })), 'monitoring.level_reached');
  assert.equal(moveOf(mark({ index_value: 7.1, level: 2 }), mark({ index_value: 6.9, level: 1 })), 'monitoring.level_left');
  assert.equal(moveOf(mark({}), mark({ term: { from: '2020-01-01', to: '2020-12-31' }, index_value: null })), null, 'a new term starting is not a move');
});

test('retry waits follow the schedule with ±20% jitter, then stop', () => {
  const schedule = [5, 300, 1800, 7200, 18000, 36000, 86400];
  assert.equal(retryDelayMs(schedule, 1, 0.5), 5000);
  assert.equal(retryDelayMs(schedule, 1, 0), 4000);
  assert.equal(retryDelayMs(schedule, 7, 1), 86400 * 1000 * 1.2);
  assert.equal(retryDelayMs(schedule, 8, 0.5), null, 'seven retries, eight attempts in all');
});

test('a delivery\'s headers verify with the standardwebhooks package; a changed body does not', () => {
  const secret = newSecret();
  assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  const body = JSON.stringify({ type: 'monitoring.level_reached', timestamp: '2026-03-01T00:00:00.000Z', data: { index: { value: 7.1 } } });
  const headers = signedHeaders(secret, 'msg_1', new Date(), body);
  assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
  assert.throws(() => new Webhook(secret).verify(body.replace('7.1', '7.2'), headers), /signature/i);
  assert.throws(() => new Webhook(newSecret()).verify(body, headers), /signature/i);
});
