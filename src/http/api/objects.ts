// Risk objects of the caller's account: create, read, PATCH.
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { refusals } from '../../kernel/refusal.js';
import { createObject, entityTag, locationsPage, patchObject, readObject } from '../../app/objects.js';
import { requestPrice } from '../../app/price.js';
import { callerOf } from './accounts.js';
import { sendAccepted } from './jobs.js';
import { answer } from '../answer.js';

export function objectRoutes(app: FastifyInstance, services: Services) {
  app.post('/objects', async (request, reply) => {
    const { object, version } = answer(await createObject(services, { accountId: callerOf(request).accountId, body: request.body }));
    return reply.code(201).header('location', `/objects/${object.id as string}`).header('etag', entityTag(version)).send(object);
  });

  app.get('/objects/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const stored = answer(await readObject(services, { accountId: callerOf(request).accountId, id }));
    const tag = entityTag(stored.version);
    reply.header('etag', tag);
    if (ifNoneMatchHolds(request.headers['if-none-match'], tag)) return reply.code(304).send();
    // The stored canonical bytes, a chunk at a time as the client reads them: never parsed, never
    // held whole (a 100 MB object costs about one chunk per reader).
    return reply.type('application/json; charset=utf-8').header('content-length', stored.size)
      .send(Readable.from(stored.bytes(), { objectMode: false }));
  });

  app.get('/objects/:id/locations', async (request) => {
    const { id } = request.params as { id: string };
    const query = locationQuery(request.query);
    return answer(await locationsPage(services, { accountId: callerOf(request).accountId, id, ...query }));
  });

  app.post('/objects/:id/price', async (request, reply) => {
    const { id } = request.params as { id: string };
    return sendAccepted(reply, answer(await requestPrice(services, { accountId: callerOf(request).accountId, objectId: id, body: request.body })));
  });

  app.patch('/objects/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const { accountId } = callerOf(request);
    const ifMatch = ifMatchTags(request.headers['if-match']);
    const written = answer(await patchObject(services, { accountId, id, patch: request.body, ifMatch }));
    return reply.header('etag', entityTag(written.version)).send(written.object);
  });
}

/** Page size of GET /objects/{id}/locations (as the event catalog's). */
export const LOCATION_PAGE = { default: 100, ceiling: 1000 } as const;

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

interface LocationQuery { limit: number; offset: number; resume: string | undefined }

function locationQuery(raw: unknown): LocationQuery {
  const faults: string[] = [];
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries((raw ?? {}) as Record<string, unknown>)) {
    if (!['limit', 'offset', 'resume'].includes(key)) faults.push(`unknown parameter ${key} (read: limit, offset, resume)`);
    else if (typeof value !== 'string') faults.push(`parameter ${key} is given more than once`);
    else query[key] = value;
  }
  const integer = (key: string, fallback: number, min: number, max: number) => {
    const text = query[key];
    if (text === undefined) return fallback;
    if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
      faults.push(`${key} must be an integer from ${min} to ${max}, got "${text.slice(0, 40)}"`);
      return fallback;
    }
    return Number(text);
  };
  const limit = integer('limit', LOCATION_PAGE.default, 1, LOCATION_PAGE.ceiling);
  const offset = integer('offset', 0, 0, Number.MAX_SAFE_INTEGER);
  if (faults.length > 0) throw refusals.invalidRequest(422, `The query is not acceptable: ${faults.join('; ')}.`, faults);
  return { limit, offset, resume: query.resume };
}
