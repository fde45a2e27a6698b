// GET /events/{peril} and GET /events/{peril}/{event_id}/footprint (SPEC: Event catalog rules,
// Event catalog page, Event footprint). Not metered.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../services.js';
import type { Box } from '../../domain/geo.js';
import { instant, parseIsoDuration } from '../../kernel/dates.js';
import { refusals } from '../../kernel/refusal.js';
import { catalogPerilOf, DEFAULT_FOOTPRINT_WINDOW, eventFootprint, eventPage } from '../../app/events.js';
import { answer } from '../answer.js';
import * as schema from '../schemas/events.js';
import { PAGE } from '../schemas/faults.js';

type Query = Record<string, string>;

/** A decimal the schema accepted (format decimal), or undefined when not given. */
const decimal = (raw: string | undefined) => (raw === undefined ? undefined : Number(raw));

/** A peril with no catalog is answered 404 before its query is checked. */
const perilFirst = {
  preValidation: async (request: FastifyRequest) => { answer(catalogPerilOf((request.params as { peril: string }).peril)); },
};

export function eventRoutes(app: FastifyInstance, services: Services) {
  app.get('/events/:peril', { ...schema.eventCatalogue, ...perilFirst }, async (request) => {
    const peril = answer(catalogPerilOf((request.params as { peril: string }).peril));
    const query = request.query as Query;
    const faults: string[] = [];
    const isQuake = peril === 'earthquake';
    if (isQuake && query.min_value !== undefined) faults.push('min_value applies to report extracts only; an earthquake catalog takes min_magnitude');
    if (!isQuake && query.min_magnitude !== undefined) faults.push('min_magnitude applies to earthquake catalogs only; report extracts take min_value in their own unit');
    if (!isQuake && query.max_depth_km !== undefined) faults.push('max_depth_km applies to earthquake catalogs only');
    const boxKeys = ['min_lat', 'max_lat', 'min_lon', 'max_lon'] as const;
    const given = boxKeys.filter((k) => query[k] !== undefined);
    if (given.length > 0 && given.length < 4) faults.push(`a box needs all four of min_lat, max_lat, min_lon, max_lon (given: ${given.join(', ')})`);
    const [minLat, maxLat, minLon, maxLon] = boxKeys.map((k) => decimal(query[k]));
    let box: Box | undefined;
    if (given.length === 4) {
      box = { min_latitude: minLat!, max_latitude: maxLat!, min_longitude: minLon!, max_longitude: maxLon! };
      if (minLat! > maxLat! || minLon! > maxLon!) faults.push('the box needs min_lat <= max_lat and min_lon <= max_lon');
      if (minLat! < -90 || maxLat! > 90 || minLon! < -180 || maxLon! > 180) faults.push('the box lies outside latitude -90..90 or longitude -180..180');
    }
    const minMagnitude = decimal(query.min_magnitude);
    const maxDepth = decimal(query.max_depth_km);
    const minValue = decimal(query.min_value);
    const limit = query.limit === undefined ? PAGE.default : Number(query.limit);
    const offset = query.offset === undefined ? 0 : Number(query.offset);
    const from = query.from === undefined ? undefined : instant(query.from);
    const to = query.to === undefined ? undefined : instant(query.to);
    if (query.version !== undefined && query.feed === undefined && box === undefined) faults.push('version pins the vintage of a named feed (feed=) or of the catalog a box resolves to');
    if (faults.length > 0) throw refusals.invalidRequest(422, `The query is not acceptable: ${faults.join('; ')}.`, faults);
    return answer(await eventPage(services, {
      peril, query, box, minMagnitude, maxDepthKm: maxDepth, minValue, fromMs: from, toMs: to, limit, offset,
    }));
  });

  app.get('/events/:peril/:event_id/footprint', { ...schema.eventFootprint, ...perilFirst }, async (request) => {
    const { peril: rawPeril, event_id: eventId } = request.params as { peril: string; event_id: string };
    const peril = answer(catalogPerilOf(rawPeril));
    const query = request.query as Query;
    const window = query.window ?? DEFAULT_FOOTPRINT_WINDOW;
    const windowMs = parseIsoDuration(window);
    const minMagnitude = decimal(query.min_magnitude);
    return answer(await eventFootprint(services, { peril, eventId, window, windowMs, minMagnitude }));
  });
}
