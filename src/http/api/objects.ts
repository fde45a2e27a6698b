// Risk objects of the caller's account: create, read, PATCH.
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { riskObjectViolations } from '../../schemas.js';
import { unwrap } from '../../kernel/result.js';
import { applyPatch } from '../../domain/risk-object/patch.js';
import { LocationScanner, type LocationMark } from '../../domain/risk-object/location-scan.js';
import { ObjectBusy, type Change, type RiskObjectDocument } from '../../store/objects.js';
import { ApiError, refusals } from '../../kernel/refusal.js';
import { callerOf, requireActive } from './accounts.js';
import { acceptJob } from './jobs.js';
import { LOCATION_PAGE_SCHEMA_VERSION, RISK_OBJECT_SCHEMA_VERSION } from '../../kernel/versions.js';
import { createObject, objectLocations, patchObject, priceObject, readObject } from '../schemas/objects.js';
import { PAGE } from '../schemas/faults.js';

export function objectRoutes(app: FastifyInstance, services: Services) {
  app.post('/objects', createObject, async (request, reply) => {
    await requireActive(services, request);
    const body = request.body as Record<string, unknown>;
    const violations = riskObjectViolations(body);
    if (violations.length > 0) {
      throw new ApiError(422, 'invalid_risk_object', `The object fails the risk object schema: ${violations.length} violation${violations.length === 1 ? '' : 's'}.`, violations);
    }
    const given = body as Record<string, unknown>;
    const id = `obj_${createHash('sha256').update(randomUUID()).digest('hex').slice(0, 24)}`;
    const at = new Date().toISOString();
    const provenance = (given.provenance ?? { source_files: [], runs: [] }) as { source_files: unknown[]; runs: unknown[] };
    // Server-set members are the server's: a copied object gets a new id, starts as a draft, and a
    // premium is only ever written by a price run here.
    const { technical_premium: _premium, ...rest } = given;
    const object = {
      ...rest,
      id,
      schema_version: RISK_OBJECT_SCHEMA_VERSION,
      status: 'draft',
      provenance: {
        ...provenance,
        runs: [...provenance.runs, { kind: 'create', via: 'POST /objects', recorded_at: at, ...(given.id ? { copied_from: given.id } : {}) }],
      },
    };
    const { accountId } = callerOf(request);
    await services.objects.insert(accountId, object);
    await services.accounts.recordUsage(accountId, 'object', id);
    return reply.code(201).header('location', `/objects/${id}`).header('etag', entityTag(1)).send(object);
  });

  app.get('/objects/:id', readObject, async (request, reply) => {
    const { id } = request.params as { id: string };
    const head = await services.objects.head(id, callerOf(request).accountId);
    if (!head) throw refusals.notFound(`No object ${id} for this key`);
    const tag = entityTag(head.version);
    reply.header('etag', tag);
    if (ifNoneMatchHolds(request.headers['if-none-match'], tag)) return reply.code(304).send();
    // The stored canonical bytes, a chunk at a time as the client reads them: never parsed, never
    // held whole (a 100 MB object costs about one chunk per reader).
    return reply.type('application/json; charset=utf-8').header('content-length', head.size)
      .send(Readable.from(services.objects.bytes(id, head), { objectMode: false }));
  });

  app.get('/objects/:id/locations', objectLocations, async (request) => {
    const { id } = request.params as { id: string };
    const query = locationQuery(request.query as Record<string, string | undefined>);
    const head = await services.objects.head(id, callerOf(request).accountId);
    if (!head) throw refusals.notFound(`No object ${id} for this key`);
    const mark = resumeMark(query.resume, id, head.version, query.offset);
    const scanner = new LocationScanner(query.offset, query.limit, mark);
    for await (const chunk of services.objects.bytes(id, head, mark?.offset ?? 0)) {
      if (scanner.feed(chunk)) break;
    }
    const page = scanner.page();
    let next: string | null = null;
    if (page.next) {
      const params = new URLSearchParams({ limit: String(query.limit), offset: String(page.next.index), resume: resumeToken(id, head.version, page.next) });
      next = `/objects/${id}/locations?${params.toString()}`;
    }
    return {
      schema_version: LOCATION_PAGE_SCHEMA_VERSION,
      object_id: id,
      locations: page.items.map((bytes) => JSON.parse(bytes.toString('utf8')) as unknown),
      page: { limit: query.limit, offset: query.offset, next },
      links: { self: `/objects/${id}/locations?${new URLSearchParams({ limit: String(query.limit), offset: String(query.offset) }).toString()}`, object: `/objects/${id}` },
    };
  });

  app.post('/objects/:id/price', priceObject, async (request, reply) => {
    const { id } = request.params as { id: string };
    await requireActive(services, request);
    const { accountId } = callerOf(request);
    if (!(await services.objects.head(id, accountId))) throw refusals.notFound(`No object ${id} for this key`);
    return acceptJob(services, reply, { accountId, verb: 'price', subject: { object_id: id }, input: { object_id: id, window: null } });
  });

  app.patch('/objects/:id', patchObject, async (request, reply) => {
    const { id } = request.params as { id: string };
    const { accountId } = callerOf(request);
    const condition = ifMatchTags(request.headers['if-match']);
    const at = new Date().toISOString();
    // Applied to the stored object under compare-and-set: a concurrent write makes it read and
    // apply again, so no PATCH answered 200 is lost. With If-Match, the version read must be one named.
    const written = await updateObject(services, id, accountId, (object, version) => {
      if (condition !== undefined && !condition.some((tag) => tag === '*' || tag === entityTag(version))) {
        throw new ApiError(412, 'precondition_failed',
          `If-Match names ${condition.join(', ')}; the object is now at ${entityTag(version)} (it changed since it was read). GET it, re-apply the change and send again.`);
      }
      const patched = unwrap(applyPatch(object, request.body, at, riskObjectViolations));
      return { write: patched.changed.length > 0 ? patched.object : undefined, value: patched.object };
    });
    if (!written) throw refusals.notFound(`No object ${id} for this key`);
    return reply.header('etag', entityTag(written.version)).send(written.value);
  });
}

/** Page size of GET /objects/{id}/locations (as the event catalog's). */
export const LOCATION_PAGE = PAGE;

/** A strong validator: the bytes of one version of an object never change. */
export function entityTag(version: number): string {
  return `"${version}"`;
}

/** The entity tags of If-Match ('*' included); weak tags never match a strong comparison. */
function ifMatchTags(header: string | string[] | undefined): string[] | undefined {
  if (header === undefined) return undefined;
  return (Array.isArray(header) ? header.join(',') : header).split(',').map((t) => t.trim()).filter((t) => t !== '');
}

function ifNoneMatchHolds(header: string | string[] | undefined, tag: string): boolean {
  if (header === undefined) return false;
  // If-None-Match compares weakly: W/"3" names version 3 as well.
  return (ifMatchTags(header) ?? []).some((t) => t === '*' || t.replace(/^W\//, '') === tag);
}

/** ObjectStore.update with a store too busy to write answered as a retryable 503. */
export async function updateObject<T>(services: Services, id: string, accountId: string, change: (object: RiskObjectDocument, version: number) => Change<T>) {
  try {
    return await services.objects.update(id, accountId, change);
  } catch (error) {
    if (error instanceof ObjectBusy) throw new ApiError(503, 'server_error', `Object ${id} is being changed by many writers at once; send again.`, undefined, { 'retry-after': '1' });
    throw error;
  }
}

interface LocationQuery { limit: number; offset: number; resume: string | undefined }

/** The page asked for; the schema has checked each value's form. */
function locationQuery(query: Record<string, string | undefined>): LocationQuery {
  return {
    limit: query.limit === undefined ? LOCATION_PAGE.default : Number(query.limit),
    offset: query.offset === undefined ? 0 : Number(query.offset),
    resume: query.resume,
  };
}

// A next link carries where its first location starts in the stored bytes, signed so that only a
// hint this process wrote is trusted; any other (another process, an older version, edited) is
// ignored and the page is found by counting from the start, with the same answer.
const RESUME_KEY = randomBytes(32);

function resumeSignature(id: string, version: number, mark: LocationMark): string {
  return createHmac('sha256', RESUME_KEY).update(`${id}.${version}.${mark.index}.${mark.offset}`).digest('base64url').slice(0, 22);
}

function resumeToken(id: string, version: number, mark: LocationMark): string {
  return `${version}.${mark.offset}.${resumeSignature(id, version, mark)}`;
}

function resumeMark(token: string | undefined, id: string, version: number, offset: number): LocationMark | undefined {
  const match = token === undefined ? null : /^(\d{1,15})\.(\d{1,15})\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!match || Number(match[1]) !== version) return undefined;
  const mark = { index: offset, offset: Number(match[2]) };
  return match[3] === resumeSignature(id, version, mark) ? mark : undefined;
}
