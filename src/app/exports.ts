// The exports: a backtest's tables, a lab run's ORD tables, an event catalog page and an object's
// locations in the formats people load them in (CSV, GeoJSON, an OED location file). Each is
// written from the same stored document the JSON answer is, by the pure writers of
// domain/exports/; choosing the format is the edge's (http/negotiate.ts).
import { backtestCsv, type BacktestTable, type BacktestTables } from '../domain/exports/backtest-tables.js';
import { eventPageCsv, eventPageGeoJson, type EventCataloguePage } from '../domain/exports/event-formats.js';
import { oedColumns, oedLocationHeader, oedLocationRecord, type OedColumns } from '../domain/exports/oed-location.js';
import { ORD_TABLES, ordCsv, type OrdPerspective, type OrdTable } from '../domain/exports/ord-tables.js';
import { hasLocSummary, locSummaryCsv } from '../domain/exports/loc-summary.js';
import type { LabMetrics } from '../domain/lab/engine/metrics.js';
import { refusal, refusals } from '../kernel/refusal.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { eventPage, type EventSelection } from './events.js';
import { readRun, type JobLink } from './lab-runs.js';
import { readBacktest } from './structures.js';
import { locationBatches } from './objects.js';
import type { AppDeps } from './deps.js';

export type { BacktestTable, OrdPerspective, OrdTable };
export { BACKTEST_TABLES } from '../domain/exports/backtest-tables.js';
export { ORD_PERSPECTIVES, ORD_TABLES } from '../domain/exports/ord-tables.js';

/** The CSV tables of a lab run: the ORD tables, and loc_summary (a deterministic-loss run's losses per location, as oasislmf writes it). */
export const RUN_TABLES = [...ORD_TABLES, 'loc_summary'] as const;
export type RunTable = (typeof RUN_TABLES)[number];

/** GET /backtests/{id} as CSV: the year table or the burning-cost view. */
export async function backtestTable(deps: Pick<AppDeps, 'structures'>, input: { accountId: string; id: string; table: BacktestTable }): Promise<Result<string>> {
  const json = await readBacktest(deps, input);
  if (!json.ok) return json;
  return ok(backtestCsv(JSON.parse(json.value) as BacktestTables, input.table));
}

/** Where each ORD perspective's metrics stand in a lab run's result. */
export function perspectiveMetrics(result: Record<string, unknown>, perspective: OrdPerspective): LabMetrics | undefined {
  if (perspective === 'gul') return result.metrics as LabMetrics | undefined;
  return (result.perspectives as Record<string, LabMetrics> | null | undefined)?.[perspective];
}

/** GET /runs/{id} as an ORD table; a run has tables only once it has succeeded. */
export async function runTable(
  deps: Pick<AppDeps, 'labRuns' | 'jobs'>,
  input: { accountId: string; id: string; jobLink: JobLink; table: RunTable; perspective: OrdPerspective },
): Promise<Result<string>> {
  const read = await readRun(deps, input);
  if (!read.ok) return read;
  const run = read.value;
  if (run.status !== 'succeeded') {
    return refused(refusal(406, 'not_acceptable', `Run ${input.id} is ${run.status as string}: its ORD tables exist once it has succeeded; until then it is served as JSON only.`));
  }
  const result = run.result as Record<string, unknown> & { run?: { samples?: number } };
  if (input.table === 'loc_summary') {
    if (!hasLocSummary(result)) return refused(refusals.invalidRequest(422, `Run ${input.id} has no loc_summary: only a deterministic-loss run's losses are per location and factor.`));
    return ok(locSummaryCsv(result as never));
  }
  const metrics = perspectiveMetrics(result, input.perspective);
  if (!metrics) {
    return refused(refusals.invalidRequest(422, input.perspective === 'gul'
      ? `Run ${input.id} has no exceedance curves (result.metrics): its lane (flood or wildfire) gives its own figures, served as JSON.`
      : `Run ${input.id} has no ${input.perspective} perspective: il and ri are computed only when the spec has terms.`));
  }
  return ok(ordCsv(metrics, input.table as OrdTable, (result.run?.samples ?? 0) > 0));
}

/** GET /events/{peril} as CSV or GeoJSON: the same page, the same events, and the next page in the same format. */
export async function eventPageAs(deps: Pick<AppDeps, 'feeds'>, selection: EventSelection, format: 'csv' | 'geojson'):
  Promise<Result<{ body: string | Record<string, unknown>; next: string | null }>> {
  const page = await eventPage(deps, selection);
  if (!page.ok) return page;
  const value = page.value as unknown as EventCataloguePage & { page: { next: string | null } };
  const next = value.page.next === null ? null : `${value.page.next}&format=${format}`;
  return ok({ body: format === 'csv' ? eventPageCsv(value) : eventPageGeoJson(value), next });
}

/** Locations parsed at a time while writing an OED file: bounded memory whatever the object's size. */
const OED_BATCH = 500;

/**
 * GET /objects/{id}/locations?format=oed: the object's locations as an OED location file, written
 * as the stored bytes are read (one pass, OED_BATCH locations parsed at a time), never the whole
 * document at once. The version read is fixed when the export starts; the columns are those the
 * first batch of locations has (an ingested object's locations all have the same members).
 */
export async function objectLocationsOed(deps: Pick<AppDeps, 'objects'>, input: { accountId: string; id: string }): Promise<Result<AsyncIterable<string>>> {
  const { id } = input;
  const head = await deps.objects.head(id, input.accountId);
  if (!head) return refused(refusals.notFound(`No object ${id} for this key`));
  const stored = head;
  async function* records(): AsyncGenerator<string> {
    let columns: OedColumns | undefined;
    for await (const batch of locationBatches(deps, id, stored, OED_BATCH)) {
      if (!columns) {
        columns = oedColumns(batch);
        yield oedLocationHeader(columns);
      }
      const fixed = columns;
      yield batch.map((l) => oedLocationRecord(l, fixed)).join('');
    }
  }
  return ok(records());
}
