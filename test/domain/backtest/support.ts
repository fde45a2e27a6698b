// Shared by the backtest tests: the pinned store, loading a structure's data the way the job will,
// and small raw-file helpers for the independent recomputations (which never call the engine).
import { FeedStore } from '../../../src/feeds/store.js';
import { dailySeries, eventCatalog, outageEvents, trackArchive } from '../../../src/feeds/readers.js';
import { feedClass } from '../../../src/feeds/catalog.js';
import { runBacktest, type BacktestArtifact } from '../../../src/domain/backtest/artifact.js';
import type { FeedRead } from '../../../src/domain/triggers/feed.js';
import { triggerData, type TriggerData } from '../../../src/domain/triggers/records.js';
import { faultAnswer, type StructureValidation } from '../../../src/domain/triggers/faults.js';
import { checkStructure, dataRequest, validateStructure } from '../../../src/domain/triggers/index.js';
import type { BacktestWindow } from '../../../src/domain/triggers/read.js';
import { refused, type Result } from '../../../src/kernel/result.js';
import { FEEDS_DIR, rawFile as rawBytes } from '../../support/feeds.js';

export { FEEDS_DIR };

let opened: Promise<FeedStore> | undefined;
export const store = (): Promise<FeedStore> => (opened ??= FeedStore.open(FEEDS_DIR));

export interface Loaded {
  readonly data: TriggerData;
  readonly feed: FeedRead;
  /** The terms as read once, against the snapshot loaded. */
  readonly validation: StructureValidation;
}

/** Loads the snapshot and data a structure reads, through the real readers. */
export async function load(terms: unknown): Promise<Loaded> {
  const v = validateStructure(terms);
  if (!v.structure) throw new Error(`shape faults: ${JSON.stringify(v.shape_faults)}`);
  const s = await store();
  const at = dataRequest(v.structure);
  const snap = s.get(at.feed_id, at.version ?? undefined);
  if (!snap) throw new Error(`${at.feed_id}/${at.version} not pinned`);
  const cls = feedClass(snap.manifest);
  const req = dataRequest(v.structure, cls);
  const read = req.reader === 'event_catalog' ? await eventCatalog(s, snap)
    : req.reader === 'track_archive' ? await trackArchive(s, snap)
    : req.reader === 'outage_events' ? await outageEvents(s, snap)
    : await dailySeries(s, snap, req.element ?? undefined);
  const feed: FeedRead = { feed_id: snap.feed_id, version: snap.version, sha256: snap.sha256, manifest: snap.manifest, class: cls };
  return { data: triggerData(read), feed, validation: checkStructure(v.structure, { feed }) };
}

/**
 * Terms read once against their feed and window, then replayed, as a job does: a fault in the terms
 * is refused with the backtest's answer before anything is replayed.
 */
export function replayTerms(terms: unknown, data: TriggerData, feed: FeedRead, window?: BacktestWindow | null): Result<BacktestArtifact> {
  const v = validateStructure(terms, { feed: { feed_id: feed.feed_id, version: feed.version, manifest: feed.manifest, ...(feed.class && { class: feed.class }) }, window: window ?? null });
  const fault = faultAnswer(v, 'backtest');
  if (fault) return refused(fault);
  return runBacktest(v.structure!, data, feed, window);
}

/** Runs a backtest over the real snapshot; fails the test on a refusal. */
export async function backtest(terms: unknown, window?: BacktestWindow): Promise<BacktestArtifact> {
  const { data, feed } = await load(terms);
  const out = replayTerms(terms, data, feed, window);
  if (!out.ok) throw new Error(`refused: ${JSON.stringify(out.refusal)}`);
  return out.value;
}

/** The raw text of a snapshot's data file (first file unless named). */
export function rawText(feedId: string, name?: string): string {
  return rawBytes(feedId, name).toString('utf8');
}

/** Lines of a text file, without line terminators (CRLF or LF), without a trailing empty line. */
export function lines(text: string): string[] {
  const out = text.replace(/^\uFEFF/, '').split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (out[out.length - 1] === '') out.pop();
  return out;
}

/** Splits one CSV line (double-quoted fields with "" escapes; no line breaks inside). */
export function splitCsv(line: string, delimiter = ','): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === delimiter) { out.push(field); field = ''; }
    else field += c;
  }
  out.push(field);
  return out;
}

/** Rows of a headed CSV as objects. */
export function csvRecords(text: string, delimiter = ','): Record<string, string>[] {
  const [head, ...rest] = lines(text);
  const header = splitCsv(head!, delimiter);
  return rest.filter((l) => l.trim() !== '').map((l) => {
    const values = splitCsv(l, delimiter);
    const r: Record<string, string> = {};
    header.forEach((h, i) => (r[h] = values[i] ?? ''));
    return r;
  });
}

export const DAY = 86_400_000;
export const utcDay = (y: number, m: number, d: number): number => Date.UTC(y, m - 1, d);
export const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Money comparison to the cent. */
export function closeMoney(actual: number | null, expected: number | null, what: string): void {
  if (actual === null || expected === null) {
    if (actual !== expected) throw new Error(`${what}: ${actual} vs ${expected}`);
    return;
  }
  if (Math.abs(actual - expected) > 0.011) throw new Error(`${what}: ${actual} vs ${expected}`);
}

/** Days of a term (YYYY-MM-DD, both included). */
export function termLength(term: { from: string; to: string }): number {
  return Math.round((Date.parse(term.to) - Date.parse(term.from)) / DAY) + 1;
}

/**
 * Partial by the stated rule, recomputed here: the term lacks more than floor(0.1 × term days) of
 * its days (`lacking` given, or the days outside the period of record).
 */
export function partialTerm(term: { from: string; to: string }, record: { from: string; to: string } | null, lacking?: number): boolean {
  const days = termLength(term);
  let missing = lacking ?? 0;
  if (lacking === undefined && record) {
    for (let t = Date.parse(term.from); t <= Date.parse(term.to); t += DAY) {
      const d = isoDate(t);
      if (d < record.from || d > record.to) missing++;
    }
  }
  return missing > Math.floor(0.1 * days + 1e-9);
}

/**
 * Checks a year's payout against the recount: a partial year shows what its days would have paid
 * (payout_on_partial_record) with a null payout, left out of n; any other year pays it.
 */
export function checkPaid(year: { year: number; payout: number | null; record: string; [k: string]: unknown }, expected: number | null, partial: boolean, what: string): void {
  if (partial) {
    if (year.record !== 'partial' || year.payout !== null) throw new Error(`${what}: a partial year is shown with a null payout (record ${year.record}, payout ${year.payout})`);
    closeMoney(year.payout_on_partial_record as number | null, expected, `${what} (partial record)`);
    return;
  }
  if (year.record === 'partial') throw new Error(`${what}: counted as partial, lacks at most 10% of its term`);
  closeMoney(year.payout, expected, what);
}

/** Daily fastest 5-second wind at Greenville-Spartanburg, whose 2010 record holds four gusts of 80-98 m/s. */
export const GREENVILLE_GUST = {
  peril: { code: 'weather_station' },
  trigger: {
    type: 'parametric_index', data_sources: [{ feed_id: 'ghcnd-usw00003870-wind', version: '2012-09-30' }],
    measurement: { variable: 'wind_speed', element: 'WSF5', aggregation: 'max', unit: 'm/s' }, aggregation_window: { duration: 'P1D' },
    payout: { function: 'ladder', levels: [{ at_least: 25, fraction: 0.25 }, { at_least: 60, fraction: 1 }] },
  },
  financial_structure: { currency: 'USD', limit: 1000000, attachment: 0 },
  period: { start: '2027-06-01', end: '2027-11-30' },
};
