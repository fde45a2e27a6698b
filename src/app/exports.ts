// The exports: a backtest's tables, a lab run's ORD tables, an event catalog page and an object's
// locations in the formats people load them in (CSV, GeoJSON, an OED location file). Each is
// written from the same stored document the JSON answer is, by the pure writers of
// domain/exports/; choosing the format is the edge's (http/negotiate.ts).
import { backtestCsv, type BacktestTable, type BacktestTables } from '../domain/exports/backtest-tables.js';
import { eventPageCsv, eventPageGeoJson, type EventCataloguePage } from '../domain/exports/event-formats.js';
import { filledStatement, OedColumnPlan, oedRecordsCsv, type OedTable } from '../domain/exports/oed-location.js';
import { oedFieldOrder } from '../feeds/oed.js';
import { ORD_TABLES, ordCsv, type OrdPerspective, type OrdTable } from '../domain/exports/ord-tables.js';
import { csvTable } from '../domain/exports/csv.js';
import { labLane, LAB_LANES } from './lab-lanes.js';
import type { LabMetrics } from '../domain/lab/engine/metrics.js';
import { LAB_METRICS_SCHEMA } from '../kernel/versions.js';
import { refusal, refusals } from '../kernel/refusal.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { eventPage, type EventSelection } from './events.js';
import { readRun, type JobLink } from './lab-runs.js';
import { readBacktest } from './structures.js';
import { locationBatches, objectSkeleton } from './objects.js';
import type { AppDeps } from './deps.js';

export type { BacktestTable, OedTable, OrdPerspective, OrdTable };
export { OED_TABLES } from '../domain/exports/oed-location.js';
export { BACKTEST_TABLES } from '../domain/exports/backtest-tables.js';
export { ORD_PERSPECTIVES, ORD_TABLES } from '../domain/exports/ord-tables.js';

/** GET /backtests/{id} as CSV: the year table or the burning-cost view. */
export async function backtestTable(deps: Pick<AppDeps, 'structures'>, input: { accountId: string; id: string; table: BacktestTable }): Promise<Result<string>> {
  const json = await readBacktest(deps, input);
  if (!json.ok) return json;
  return ok(backtestCsv(JSON.parse(json.value) as BacktestTables, input.table));
}

/**
 * Where each ORD perspective's metrics stand in a lab run's result: lab-metrics/1 blocks only (a
 * lane without exceedance curves, a replay or one event, gives its il and ri in its own shape).
 */
export function perspectiveMetrics(result: Record<string, unknown>, perspective: OrdPerspective): LabMetrics | undefined {
  const found = perspective === 'gul' ? result.metrics : (result.perspectives as Record<string, unknown> | null | undefined)?.[perspective];
  return (found as { schema?: unknown } | null | undefined)?.schema === LAB_METRICS_SCHEMA ? found as LabMetrics : undefined;
}

/** Every table a lane declares of its own (climada-impact's at_event, eai_exp, ...), by name. */
export const LANE_TABLES: readonly string[] = [...new Set(LAB_LANES.flatMap((lane) => Object.keys(lane.tables ?? {})))];

/**
 * GET /runs/{id} as CSV: one of the lane's own tables when it declares them (the first by
 * default), else an ORD table; a run has tables only once it has succeeded.
 */
export async function runTable(
  deps: Pick<AppDeps, 'labRuns' | 'jobs'>,
  input: { accountId: string; id: string; jobLink: JobLink; table: string | undefined; perspective: OrdPerspective },
): Promise<Result<{ csv: string; table: string; currency: string | null }>> {
  const read = await readRun(deps, input);
  if (!read.ok) return read;
  const run = read.value;
  if (run.status !== 'succeeded') {
    return refused(refusal(406, 'not_acceptable', `Run ${input.id} is ${run.status as string}: its ORD tables exist once it has succeeded; until then it is served as JSON only.`));
  }
  const result = run.result as Record<string, unknown> & { run?: { samples?: number }; currency?: string | null };
  // ORD's columns (and a lane's own tables) carry no currency: the answer names it in a header (a
  // run stored before losses named their currency has none).
  const currency = result.currency ?? null;
  const tables = labLane((run.model as { id?: unknown }).id)?.tables;
  if (tables) {
    const names = Object.keys(tables);
    const name = input.table ?? names[0]!;
    const rows = Object.hasOwn(tables, name) ? tables[name]!.rows(result) : undefined;
    if (!rows) {
      return refused(refusals.invalidRequest(422, Object.hasOwn(tables, name)
        ? `Run ${input.id} has no ${name} table: the spec did not ask for that view.`
        : `Run ${input.id}'s tables are ${names.join(', ')}; it has no ${name}.`));
    }
    return ok({ csv: csvTable(rows.header, rows.rows), table: name, currency });
  }
  if (input.table !== undefined && !(ORD_TABLES as readonly string[]).includes(input.table)) {
    return refused(refusals.invalidRequest(422, `Run ${input.id}'s tables are the ORD tables ${ORD_TABLES.join(', ')}; it has no ${input.table}.`));
  }
  const metrics = perspectiveMetrics(result, input.perspective);
  if (!metrics) {
    return refused(refusals.invalidRequest(422, input.perspective === 'gul'
      ? `Run ${input.id} has no exceedance curves (result.metrics): its lane (flood or wildfire) gives its own figures, served as JSON.`
      : `Run ${input.id} has no ${input.perspective} perspective: il and ri are lab-metrics/1 only when the spec has terms or the object has OED terms, on a lane with exceedance curves.`));
  }
  const table = (input.table ?? 'ept') as OrdTable;
  const csv = ordCsv(metrics, table, (result.run?.samples ?? 0) > 0);
  if (csv === null) {
    return refused(refusals.invalidRequest(422, `Run ${input.id} was computed before the lab kept each occurrence of its events: it has no MPLT (its EPT, MELT, ALT and year loss table are served).`));
  }
  return ok({ csv, table, currency });
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

/** An OED file of an object: its records as they are written, and what the export filled (the Catrisk-Oed-Filled header). */
export interface OedExport {
  body: AsyncIterable<string>;
  filled: string | null;
}

/** The object's top-level OED member (schemas/risk-object.v0.json: oed_set), when it has one. */
interface OedSet {
  version: string | null;
  accounts: Record<string, string | number>[];
  ri_info: Record<string, string | number>[];
  ri_scope: Record<string, string | number>[];
}

const OED_SET_MEMBER: Record<Exclude<OedTable, 'location'>, keyof Omit<OedSet, 'version'>> = { account: 'accounts', ri_info: 'ri_info', ri_scope: 'ri_scope' };

/**
 * GET /objects/{id}/locations?format=oed: one OED file of the object (table=location, the
 * default, or account, ri_info, ri_scope), columns in the pinned spec's order. The location file is
 * written from the stored bytes in two passes (OED_BATCH locations parsed at a time, never the whole
 * document): the first plans the columns over every location, the second writes them, both over the
 * version read when the export starts. An object with no such file (no account or reinsurance file
 * was ingested) is 404.
 */
export async function objectOedFile(deps: Pick<AppDeps, 'objects' | 'feeds'>, input: { accountId: string; id: string; table: OedTable }): Promise<Result<OedExport>> {
  const { id } = input;
  const head = await deps.objects.head(id, input.accountId);
  if (!head) return refused(refusals.notFound(`No object ${id} for this key`));
  const order = await oedFieldOrder(deps.feeds);
  const skeleton = (await objectSkeleton(deps, id, head)).document;
  if (input.table !== 'location') {
    const set = skeleton.oed as OedSet | undefined;
    const records = set?.[OED_SET_MEMBER[input.table]];
    if (!records || records.length === 0) {
      return refused(refusals.notFound(`Object ${id} has no OED ${input.table} file: none was ingested with it (POST /ingest takes it as the ${input.table === 'account' ? 'account' : input.table} part).`));
    }
    const csv = oedRecordsCsv(records, order[input.table]);
    return ok({ body: (async function* () { yield csv; })(), filled: null });
  }
  const exposure = skeleton.exposure as { currency?: string } | undefined;
  const plan = new OedColumnPlan({ objectId: id, peril: (skeleton.peril as { code?: string } | undefined)?.code, currency: exposure?.currency });
  for await (const batch of locationBatches(deps, id, head, OED_BATCH)) plan.add(batch);
  const writer = plan.writer(order.location);
  async function* records(): AsyncGenerator<string> {
    yield writer.header();
    for await (const batch of locationBatches(deps, id, head!, OED_BATCH)) yield batch.map((l) => writer.record(l)).join('');
  }
  return ok({ body: records(), filled: writer.filled.length > 0 ? filledStatement(writer.filled) : null });
}
