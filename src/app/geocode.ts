// GET /geocode: candidate points for one address or place name. The geocoders are asked in the
// configured order, those that answer the query's shape only (the offline gazetteer knows places,
// not street addresses); the first with a candidate answers, an empty answer passes to the next.
// Off, none configured for the shape, or every geocoder asked unreachable, slow or refusing: 503
// geocoder_unavailable; geocoders that answered and found nothing: an empty list.
import { queryShape, type GeocodeCandidate, type QueryShape } from '../domain/geocoding/query.js';
import { refusal, type Refusal } from '../kernel/refusal.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { GEOCODE_SCHEMA_VERSION } from '../kernel/versions.js';
import type { AppDeps } from './deps.js';

export const GEOCODE_LIMITS = { defaultLimit: 5, maxLimit: 20, queryCharacters: 300 } as const;

export interface GeocodeRequest {
  readonly q: string;
  readonly limit?: number;
}

export interface GeocodeAnswer {
  readonly schema_version: string;
  readonly query: { readonly q: string; readonly limit: number; readonly shape: QueryShape };
  readonly candidates: readonly GeocodeCandidate[];
  /** Lines to show with the candidates: the licence of the data they came from. */
  readonly attribution: readonly string[];
  /** Each geocoder asked, in order, and what came of it. */
  readonly asked: ReadonlyArray<{ readonly geocoder: string; readonly outcome: 'answered' | 'empty' | 'failed'; readonly reason?: string }>;
}

const unavailable = (message: string, details?: string[]): Refusal => refusal(503, 'geocoder_unavailable', message, details);

export async function geocode(deps: Pick<AppDeps, 'config' | 'geocoders'>, input: GeocodeRequest): Promise<Result<GeocodeAnswer>> {
  const q = input.q.trim();
  const limit = input.limit ?? GEOCODE_LIMITS.defaultLimit;
  if (q === '') return refused(refusal(422, 'invalid_request', 'q names the address or place to look up; it is empty.'));
  if (/[\r\n;|]/.test(q)) return refused(refusal(422, 'invalid_request', 'One address per request: q holds a line break, ";" or "|" between several.'));
  if ([...q].length > GEOCODE_LIMITS.queryCharacters) return refused(refusal(422, 'invalid_request', `q is longer than ${GEOCODE_LIMITS.queryCharacters} characters; send one address.`));
  if (!Number.isInteger(limit) || limit < 1 || limit > GEOCODE_LIMITS.maxLimit) {
    return refused(refusal(422, 'invalid_request', `limit is a whole number from 1 to ${GEOCODE_LIMITS.maxLimit}.`));
  }
  if (!deps.config.geocoding.enabled) return refused(unavailable('Geocoding is off in this environment (CATRISK_GEOCODING).'));
  const shape = queryShape(q);
  const eligible = deps.geocoders.filter((g) => g.shapes.has(shape));
  if (eligible.length === 0) {
    return refused(unavailable(`No geocoder configured here answers ${shape === 'address' ? 'a street address' : 'a place name'}; configured: ${deps.geocoders.map((g) => g.name).join(', ') || 'none'}.`));
  }
  const asked: Array<GeocodeAnswer['asked'][number]> = [];
  let emptyFrom: (typeof eligible)[number] | undefined;
  for (const geocoder of eligible) {
    try {
      const candidates = await geocoder.search(q, limit);
      if (candidates.length > 0) {
        asked.push({ geocoder: geocoder.name, outcome: 'answered' });
        return ok({ schema_version: GEOCODE_SCHEMA_VERSION, query: { q, limit, shape }, candidates: candidates.slice(0, limit), attribution: geocoder.attribution, asked });
      }
      asked.push({ geocoder: geocoder.name, outcome: 'empty' });
      emptyFrom ??= geocoder;
    } catch (error) {
      asked.push({ geocoder: geocoder.name, outcome: 'failed', reason: (error as Error).message });
    }
  }
  if (emptyFrom) {
    return ok({ schema_version: GEOCODE_SCHEMA_VERSION, query: { q, limit, shape }, candidates: [], attribution: emptyFrom.attribution, asked });
  }
  return refused(unavailable('Every geocoder asked was unreachable, slow or refused.', asked.map((a) => `${a.geocoder}: ${a.reason}`)));
}
