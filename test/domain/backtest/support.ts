// Shared by the backtest tests: the pinned store, loading a structure's data the way the job will,
// and small raw-file helpers for the independent recomputations (which never call the engine).
import { FeedStore } from '../../../src/feeds/store.js';
import { dailySeries, eventCatalog, trackArchive } from '../../../src/feeds/readers.js';
import { backtestData, runBacktest, isBacktestFailure, type BacktestArtifact, type BacktestData, type FeedRead } from '../../../src/domain/backtest/artifact.js';
import { dataRequest, validateStructure, type BacktestWindow } from '../../../src/domain/backtest/structure.js';
import { FEEDS_DIR, rawFile as rawBytes } from '../../support/feeds.js';

export { FEEDS_DIR };

let opened: Promise<FeedStore> | undefined;
export const store = (): Promise<FeedStore> => (opened ??= FeedStore.open(FEEDS_DIR));

export interface Loaded {
  readonly data: BacktestData;
  readonly feed: FeedRead;
}

/** Loads the snapshot and data a structure reads, through the real readers. */
export async function load(terms: unknown): Promise<Loaded> {
  const v = validateStructure(terms);
  if (!v.structure) throw new Error(`shape faults: ${JSON.stringify(v.shape_faults)}`);
  const req = dataRequest(v.structure);
  const s = await store();
  const snap = s.get(req.feed_id, req.version ?? undefined);
  if (!snap) throw new Error(`${req.feed_id}/${req.version} not pinned`);
  const read = req.reader === 'event_catalog' ? await eventCatalog(s, snap)
    : req.reader === 'track_archive' ? await trackArchive(s, snap)
    : await dailySeries(s, snap, req.element ?? undefined);
  return { data: backtestData(read), feed: { feed_id: snap.feed_id, version: snap.version, sha256: snap.sha256, manifest: snap.manifest } };
}

/** Runs a backtest over the real snapshot; fails the test on a refusal. */
export async function backtest(terms: unknown, window?: BacktestWindow): Promise<BacktestArtifact> {
  const { data, feed } = await load(terms);
  const out = runBacktest(terms, data, feed, window);
  if (isBacktestFailure(out)) throw new Error(`refused: ${JSON.stringify(out.fault)}`);
  return out;
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
