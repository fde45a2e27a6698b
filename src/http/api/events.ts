// GET /events/{peril} and GET /events/{peril}/{event_id}/footprint (SPEC: Event catalog rules,
// Event catalog page, Event footprint). Not metered.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../services.js';
import { catalogPerilOf, eventFootprint, eventPage, eventSelection } from '../../app/events.js';
import { eventPageAs } from '../../app/exports.js';
import { answer } from '../answer.js';
import { negotiate, sendExport } from '../negotiate.js';
import * as schema from '../schemas/events.js';

type Query = Record<string, string>;

/** A peril with no catalog is answered 404 before its query is checked. */
const perilFirst = {
  preValidation: async (request: FastifyRequest) => { answer(catalogPerilOf((request.params as { peril: string }).peril)); },
};

export function eventRoutes(app: FastifyInstance, services: Services) {
  app.get('/events/:peril', { ...schema.eventCatalogue, ...perilFirst }, async (request, reply) => {
    const peril = answer(catalogPerilOf((request.params as { peril: string }).peril));
    const offer = negotiate(request, schema.EVENT_PAGE_OFFERS);
    // format= chooses the representation, not the events: the selection never sees it.
    const { format: _format, ...query } = request.query as Query;
    const selection = answer(eventSelection(peril, query));
    if (offer.format === 'json') return reply.header('vary', 'Accept').send(answer(await eventPage(services, selection)));
    const { body, next } = answer(await eventPageAs(services, selection, offer.format as 'csv' | 'geojson'));
    // page.next of the JSON, in the same format, as a Link header (a CSV has no member to hold it).
    if (next !== null) reply.header('link', `<${next}>; rel="next"`);
    return sendExport(reply, offer, body, `${peril}_events_${selection.offset}.${offer.format}`);
  });

  app.get('/events/:peril/:event_id/footprint', { ...schema.eventFootprint, ...perilFirst }, async (request) => {
    const { peril: rawPeril, event_id: eventId } = request.params as { peril: string; event_id: string };
    const peril = answer(catalogPerilOf(rawPeril));
    return answer(await eventFootprint(services, { peril, eventId, query: request.query as Query }));
  });
}
