// Lists of an account's own resources (objects, jobs, structures, backtests, lab runs, lab inputs): newest
// first, a page at a time. Each item is a summary read from columns, never a document. A page's
// next link carries an opaque cursor, the (created_at, id) of its last item: the next page starts
// strictly after it, so rows added while a client pages never shift what it has yet to read.
import { Buffer } from 'node:buffer';
import type { ListPosition } from '../store/list-position.js';
import { instant } from '../kernel/dates.js';
import { refusals } from '../kernel/refusal.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { LIST_SCHEMA_VERSION } from '../kernel/versions.js';
import type { AppDeps } from './deps.js';
import type { JobLink } from './lab-runs.js';

/** A list request as the edge read it: the schema has checked each value's form. */
export interface ListQuery {
  limit: number;
  cursor: string | undefined;
  /** The filters given, by parameter name, carried as given into the page's links. */
  filters: Readonly<Record<string, string>>;
}

export type ListPage = Record<string, unknown>;

const STORED_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function encodeCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify([position.created_at, position.id]), 'utf8').toString('base64url');
}

/** The position a cursor names, or undefined when it is not one a page.next link carried. */
export function decodeCursor(cursor: string): ListPosition | undefined {
  if (!/^[A-Za-z0-9_-]{1,600}$/.test(cursor)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const [createdAt, id] = value as unknown[];
  if (typeof createdAt !== 'string' || !STORED_INSTANT.test(createdAt) || typeof id !== 'string' || id === '' || id.length > 200) return undefined;
  return { created_at: createdAt, id };
}

function badCursor(): Result<never> {
  const fault = 'cursor is not a position in this list; copy page.next as given (or leave cursor out for the first page)';
  return refused(refusals.invalidRequest(422, `The query is not acceptable: ${fault}.`, [fault]));
}

function link(path: string, query: ListQuery, cursor: string | undefined): string {
  const params = new URLSearchParams({ ...query.filters, limit: String(query.limit) });
  if (cursor !== undefined) params.set('cursor', cursor);
  return `${path}?${params.toString()}`;
}

/**
 * One page of a list: reads one row more than the page holds to know whether a next page exists.
 * `read` answers rows strictly after the position, newest first.
 */
export async function listPage<R extends { created_at: string }>(
  path: string,
  member: string,
  query: ListQuery,
  read: (after: ListPosition | undefined, take: number) => Promise<R[]>,
  idOf: (row: R) => string,
  view: (row: R) => Record<string, unknown>,
): Promise<Result<ListPage>> {
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  if (query.cursor !== undefined && after === undefined) return badCursor();
  const rows = await read(after, query.limit + 1);
  const items = rows.slice(0, query.limit);
  const last = items[items.length - 1];
  const next = rows.length > query.limit && last ? link(path, query, encodeCursor({ created_at: last.created_at, id: idOf(last) })) : null;
  return ok({
    schema_version: LIST_SCHEMA_VERSION,
    [member]: items.map(view),
    page: { limit: query.limit, next },
    links: { self: link(path, query, query.cursor) },
  });
}

/** An instant of the query (the schema checked its form) as stored times are written. */
const storedInstant = (raw: string | undefined) => (raw === undefined ? undefined : new Date(instant(raw)!).toISOString());

/** GET /objects: status, peril and a created range (created_from inclusive, created_to exclusive). */
export async function listObjects(deps: Pick<AppDeps, 'objects'>, input: { accountId: string; query: ListQuery }): Promise<Result<ListPage>> {
  const { filters } = input.query;
  const createdFrom = storedInstant(filters.created_from);
  const createdTo = storedInstant(filters.created_to);
  if (createdFrom !== undefined && createdTo !== undefined && createdFrom > createdTo) {
    const fault = 'created_from is after created_to';
    return refused(refusals.invalidRequest(422, `The query is not acceptable: ${fault}.`, [fault]));
  }
  const filter = { status: filters.status, peril: filters.peril, createdFrom, createdTo };
  return listPage('/objects', 'objects', input.query, (after, take) => deps.objects.list(input.accountId, filter, after, take), (r) => r.id, (r) => ({
    id: r.id, status: r.status, peril: r.peril, locations: r.locations, source: r.source,
    version: r.version, size: r.size, created_at: r.created_at, updated_at: r.updated_at,
    links: { self: `/objects/${r.id}` },
  }));
}

/** GET /jobs: verb and status. */
export async function listJobs(deps: Pick<AppDeps, 'jobs'>, input: { accountId: string; query: ListQuery }): Promise<Result<ListPage>> {
  const { filters } = input.query;
  return listPage('/jobs', 'jobs', input.query, (after, take) => deps.jobs.list(input.accountId, { verb: filters.verb, status: filters.status }, after, take), (r) => r.id, (r) => {
    const subject = JSON.parse(r.subject) as Record<string, unknown>;
    return {
      id: r.id, verb: r.verb, status: r.status, attempts: r.attempts,
      created_at: r.created_at, updated_at: r.updated_at, started_at: r.started_at, finished_at: r.finished_at,
      ...(Object.keys(subject).length > 0 ? { subject } : {}),
      links: { self: `/jobs/${r.id}` },
    };
  });
}

/** GET /structures. */
export async function listStructures(deps: Pick<AppDeps, 'structures'>, input: { accountId: string; query: ListQuery }): Promise<Result<ListPage>> {
  return listPage('/structures', 'structures', input.query, (after, take) => deps.structures.listStructures(input.accountId, after, take), (r) => r.id, (r) => ({
    id: r.id, object_id: r.object_id, peril: r.peril, created_at: r.created_at,
    links: { self: `/structures/${r.id}`, object: `/objects/${r.object_id}`, backtest: `/structures/${r.id}/backtest` },
  }));
}

/** GET /backtests. */
export async function listBacktests(deps: Pick<AppDeps, 'structures'>, input: { accountId: string; query: ListQuery }): Promise<Result<ListPage>> {
  return listPage('/backtests', 'backtests', input.query, (after, take) => deps.structures.listBacktests(input.accountId, after, take), (r) => r.id, (r) => ({
    id: r.id, peril: r.peril,
    feed: r.feed_id === null ? null : { feed_id: r.feed_id, version: r.feed_version },
    window: { from_year: r.from_year, to_year: r.to_year },
    created_at: r.created_at,
    links: { self: `/backtests/${r.id}` },
  }));
}

/** Lab GET /runs: model and status (as each run's document states it). */
export async function listRuns(
  deps: Pick<AppDeps, 'labRuns'>,
  input: { accountId: string; query: ListQuery; jobLink: JobLink },
): Promise<Result<ListPage>> {
  const { filters } = input.query;
  return listPage('/runs', 'runs', input.query, (after, take) => deps.labRuns.list(input.accountId, { model: filters.model, status: filters.status }, after, take), (r) => r.id, (r) => ({
    id: r.id, model: r.model, status: r.status, created_at: r.created_at,
    links: { self: `/runs/${r.id}`, ...(r.job_id ? { job: input.jobLink(r.job_id) } : {}) },
  }));
}

/** GET /inputs: the caller's inputs, newest first, paged as every list is; filter kind. */
export async function listInputs(deps: Pick<AppDeps, 'labInputs'>, input: { accountId: string; query: ListQuery }): Promise<Result<ListPage>> {
  const filter = { kind: input.query.filters.kind };
  return listPage('/inputs', 'inputs', input.query,
    async (after, take) => (await deps.labInputs.list(input.accountId, filter, after, take)).map((r) => ({ ...r, created_at: r.owned_at })),
    (r) => r.id,
    (r) => ({ id: r.id, kind: r.kind, sha256: r.sha256, bytes: Number(r.size), created_at: r.owned_at, links: { self: `/inputs/${r.id}` } }));
}
