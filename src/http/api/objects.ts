// Risk objects of the caller's account: list, create, read, PATCH.
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { createObject, entityTag, locationsPage, patchObject, readObject } from '../../app/objects.js';
import { requestPrice } from '../../app/price.js';
import { callerOf } from './accounts.js';
import { sendAccepted } from './jobs.js';
import { objectOedFile, type OedTable } from '../../app/exports.js';
import { answer } from '../answer.js';
import { negotiate, sendExport } from '../negotiate.js';
import { entityTags, notModified } from '../caching.js';
import { PAGE } from '../../app/paging.js';
import * as schema from '../schemas/objects.js';
import * as lists from '../schemas/lists.js';
import { listObjects } from '../../app/lists.js';
import { listQuery } from '../list-query.js';
import { CHART_FORMATS, objectMap } from '../../app/charts.js';
import { sendChart } from '../charts.js';

export function objectRoutes(app: FastifyInstance, services: Services) {
  app.post('/objects', schema.createObject, async (request, reply) => {
    const { object, version } = answer(await createObject(services, { accountId: callerOf(request).accountId, body: request.body }));
    return reply.code(201).header('location', `/objects/${object.id as string}`).header('etag', entityTag(version)).send(object);
  });

  app.get('/objects', lists.listObjects, async (request) => answer(await listObjects(services, { accountId: callerOf(request).accountId, query: listQuery(request) })));

  app.get('/objects/:id', schema.readObject, async (request, reply) => {
    const { id } = request.params as { id: string };
    const stored = answer(await readObject(services, { accountId: callerOf(request).accountId, id }));
    // A version's bytes never change, but the object moves on to the next: revalidated, not immutable.
    if (notModified(request, reply, entityTag(stored.version), { immutable: false })) return reply.code(304).send();
    // The stored canonical bytes, a chunk at a time as the client reads them: never parsed, never
    // held whole (a 100 MB object costs about one chunk per reader).
    return reply.type('application/json; charset=utf-8').header('content-length', stored.size)
      .send(Readable.from(stored.bytes(), { objectMode: false }));
  });

  app.get('/objects/:id/locations', schema.objectLocations, async (request, reply) => {
    const { id } = request.params as { id: string };
    const { accountId } = callerOf(request);
    const offer = negotiate(request, schema.LOCATION_OFFERS);
    if (offer.format === 'oed') {
      // Every location, written as the stored bytes are read: a 100 MB object is never held whole.
      const table = (request.query as { table?: OedTable }).table ?? 'location';
      const file = answer(await objectOedFile(services, { accountId, id, table }));
      // What the export filled for a source that was not OED (its provenance, as catrisk-feed is a snapshot's).
      if (file.filled !== null) reply.header('catrisk-oed-filled', file.filled);
      return sendExport(reply, offer, Readable.from(file.body, { objectMode: false }), `${id}-${table}.csv`);
    }
    const query = locationQuery(request.query as Record<string, string | undefined>);
    return reply.header('vary', 'Accept').send(answer(await locationsPage(services, { accountId, id, ...query })));
  });

  for (const format of CHART_FORMATS) {
    app.get(`/objects/:id/map.${format}`, schema.objectMap[format], async (request, reply) => {
      const { id } = request.params as { id: string };
      const structureId = (request.query as { structure?: string }).structure;
      return sendChart(request, reply, answer(await objectMap(services, { accountId: callerOf(request).accountId, id, structureId, format })), `${id}-map.${format}`);
    });
  }

  app.post('/objects/:id/price', schema.priceObject, async (request, reply) => {
    const { id } = request.params as { id: string };
    return sendAccepted(reply, answer(await requestPrice(services, { accountId: callerOf(request).accountId, objectId: id })));
  });

  app.patch('/objects/:id', schema.patchObject, async (request, reply) => {
    const { id } = request.params as { id: string };
    const { accountId } = callerOf(request);
    // Weak tags never match If-Match's strong comparison.
    const ifMatch = entityTags(request.headers['if-match']);
    const written = answer(await patchObject(services, { accountId, id, patch: request.body, ifMatch }));
    // The version written, its stored bytes streamed as GET /objects/{id} streams them: a PATCH of a
    // large object never parses or serializes its locations.
    return reply.header('etag', entityTag(written.version)).type('application/json; charset=utf-8').header('content-length', written.size)
      .send(Readable.from(written.bytes(), { objectMode: false }));
  });
}

interface LocationQuery { limit: number; offset: number; resume: string | undefined }

/** The page asked for (the event catalog's page sizes); the schema has checked each value's form. */
function locationQuery(query: Record<string, string | undefined>): LocationQuery {
  return {
    limit: query.limit === undefined ? PAGE.default : Number(query.limit),
    offset: query.offset === undefined ? 0 : Number(query.offset),
    resume: query.resume,
  };
}
