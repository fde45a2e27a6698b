// GET /events/{peril} and GET /events/{peril}/{event_id}/footprint (SPEC: Event catalog rules,
// Event catalog page, Event footprint). Not metered.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import type { Box } from '../../domain/geo.js';
import { parseIsoDuration } from '../../kernel/dates.js';
import { refusals } from '../../kernel/refusal.js';
import { catalogPerilOf, DEFAULT_FOOTPRINT_WINDOW, eventFootprint, eventPage } from '../../app/events.js';
import { answer } from '../answer.js';

const PARAMETERS = ['feed', 'version', 'min_magnitude', 'max_depth_km', 'min_value', 'from', 'to',
  'min_lat', 'max_lat', 'min_lon', 'max_lon', 'limit', 'offset'];

type Query = Record<string, string>;

function readQuery(raw: unknown): Query {
  const query: Query = {};
  const faults: string[] = [];
  for (const [key, value] of Object.entries((raw ?? {}) as Record<string, unknown>)) {
    if (!PARAMETERS.includes(key)) faults.push(`unknown parameter ${key} (read: ${PARAMETERS.join(', ')})`);
    else if (typeof value !== 'string') faults.push(`parameter ${key} is given more than once`);
    else query[key] = value;
  }
  if (faults.length > 0) throw refusals.invalidRequest(422, `The query is not acceptable: ${faults.join('; ')}.`, faults);
  return query;
}

function number(query: Query, key: string, faults: string[]): number | undefined {
  const raw = query[key];
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value)) {
    faults.push(`${key} must be a number, got "${raw.slice(0, 40)}"`);
    return undefined;
  }
  return value;
}

function integer(query: Query, key: string, fallback: number, min: number, max: number, faults: string[]): number {
  const raw = query[key];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    faults.push(`${key} must be an integer from ${min} to ${max}, got "${raw.slice(0, 40)}"`);
    return fallback;
  }
  return value;
}

/** A bare date is midnight UTC; a date-time must carry its offset. */
export function instant(raw: string): number | undefined {
  if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) {
    const ms = Date.parse(`${raw}T00:00:00Z`);
    return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== raw ? undefined : ms;
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(raw)) return undefined;
  const ms = Date.parse(raw);
  return Number.isNaN(ms) ? undefined : ms;
}

export function eventRoutes(app: FastifyInstance, services: Services) {
  app.get('/events/:peril', async (request) => {
    const peril = answer(catalogPerilOf((request.params as { peril: string }).peril));
    const query = readQuery(request.query);
    const faults: string[] = [];
    const isQuake = peril === 'earthquake';
    if (isQuake && query.min_value !== undefined) faults.push('min_value applies to report extracts only; an earthquake catalog takes min_magnitude');
    if (!isQuake && query.min_magnitude !== undefined) faults.push('min_magnitude applies to earthquake catalogs only; report extracts take min_value in their own unit');
    if (!isQuake && query.max_depth_km !== undefined) faults.push('max_depth_km applies to earthquake catalogs only');
    const boxKeys = ['min_lat', 'max_lat', 'min_lon', 'max_lon'] as const;
    const given = boxKeys.filter((k) => query[k] !== undefined);
    if (given.length > 0 && given.length < 4) faults.push(`a box needs all four of min_lat, max_lat, min_lon, max_lon (given: ${given.join(', ')})`);
    const [minLat, maxLat, minLon, maxLon] = boxKeys.map((k) => number(query, k, faults));
    let box: Box | undefined;
    if (given.length === 4 && [minLat, maxLat, minLon, maxLon].every((v) => v !== undefined)) {
      box = { min_latitude: minLat!, max_latitude: maxLat!, min_longitude: minLon!, max_longitude: maxLon! };
      if (minLat! > maxLat! || minLon! > maxLon!) faults.push('the box needs min_lat <= max_lat and min_lon <= max_lon');
      if (minLat! < -90 || maxLat! > 90 || minLon! < -180 || maxLon! > 180) faults.push('the box lies outside latitude -90..90 or longitude -180..180');
    }
    const minMagnitude = number(query, 'min_magnitude', faults);
    const maxDepth = number(query, 'max_depth_km', faults);
    const minValue = number(query, 'min_value', faults);
    const limit = integer(query, 'limit', 100, 1, 1000, faults);
    const offset = integer(query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER, faults);
    const from = query.from === undefined ? undefined : instant(query.from);
    const to = query.to === undefined ? undefined : instant(query.to);
    if (query.from !== undefined && from === undefined) faults.push('from must be a date (YYYY-MM-DD) or a date-time with its offset');
    if (query.to !== undefined && to === undefined) faults.push('to must be a date (YYYY-MM-DD) or a date-time with its offset');
    if (query.version !== undefined && query.feed === undefined && box === undefined) faults.push('version pins the vintage of a named feed (feed=) or of the catalog a box resolves to');
    if (faults.length > 0) throw refusals.invalidRequest(422, `The query is not acceptable: ${faults.join('; ')}.`, faults);
    return answer(await eventPage(services, {
      peril, query, box, minMagnitude, maxDepthKm: maxDepth, minValue, fromMs: from, toMs: to, limit, offset,
    }));
  });

  app.get('/events/:peril/:event_id/footprint', async (request) => {
    const { peril: rawPeril, event_id: eventId } = request.params as { peril: string; event_id: string };
    const peril = answer(catalogPerilOf(rawPeril));
    const raw = (request.query ?? {}) as Record<string, unknown>;
    const faults: string[] = [];
    for (const [k, v] of Object.entries(raw)) {
      if (k !== 'window' && k !== 'min_magnitude') faults.push(`unknown parameter ${k} (read: window, min_magnitude)`);
      else if (typeof v !== 'string') faults.push(`parameter ${k} is given more than once`);
    }
    const window = (raw.window as string | undefined) ?? DEFAULT_FOOTPRINT_WINDOW;
    let windowMs = 0;
    try { windowMs = parseIsoDuration(window); } catch (e) { faults.push(`window: ${(e as Error).message}`); }
    const minMagnitude = number(raw as Query, 'min_magnitude', faults);
    if (faults.length > 0) throw refusals.invalidRequest(422, `The query is not acceptable: ${faults.join('; ')}.`, faults);
    return answer(await eventFootprint(services, { peril, eventId, window, windowMs, minMagnitude }));
  });
}
