// The analyses an analyse run computes, what each needs, and the request's reading. Pure.
import { refusal } from '../../kernel/refusal.js';
import { ok, refused, type Result } from '../../kernel/result.js';

/** Every analysis, in the order a run's document lists them. */
export const ANALYSES = ['hazard_profile', 'nearby_history', 'feed_reach', 'exposure_quality'] as const;
export type AnalysisName = (typeof ANALYSES)[number];

/** Located locations one run reads (SPEC: Limits). */
export const LOCATED_LIMIT = 25;
/** nearby_history's radius unless radius_km is sent. */
export const DEFAULT_NEARBY_RADIUS_KM = 100;
export const MAX_NEARBY_RADIUS_KM = 500;
/** Events and storm passes listed per feed and location. */
export const NEARBY_LISTED = 10;

/** The analyses that read the object's peril.code. */
export const NEEDS_PERIL: ReadonlySet<AnalysisName> = new Set(['hazard_profile']);

export interface AnalyseRequest {
  /** Distinct, in ANALYSES order. */
  readonly analyses: readonly AnalysisName[];
  readonly radius_km: number;
}

/**
 * The analyses named in the body ({"analyses": [...], "radius_km"?}): unknown or none named is
 * 422 unknown_analysis, listing the valid names. The body's shape is the route schema's.
 */
export function readAnalyseRequest(body: { analyses?: readonly string[]; radius_km?: number } | null | undefined): Result<AnalyseRequest> {
  const named = body?.analyses ?? [];
  const valid = `the analyses are ${ANALYSES.join(', ')}`;
  if (named.length === 0) {
    return refused(refusal(422, 'unknown_analysis', `No analysis named: send {"analyses": [...]} naming at least one; ${valid}.`, [`analyses: ${valid}`]));
  }
  const unknown = named.filter((n) => !(ANALYSES as readonly string[]).includes(n));
  if (unknown.length > 0) {
    return refused(refusal(422, 'unknown_analysis', `Unknown analysis ${unknown.map((n) => JSON.stringify(n)).join(', ')}; ${valid}.`,
      unknown.map((n) => `analyses: ${JSON.stringify(n)} is not an analysis (${valid})`)));
  }
  return ok({ analyses: ANALYSES.filter((a) => named.includes(a)), radius_km: body?.radius_km ?? DEFAULT_NEARBY_RADIUS_KM });
}
