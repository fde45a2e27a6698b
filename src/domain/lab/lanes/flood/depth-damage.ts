// Depth → damage through the JRC global depth-damage functions (Huizinga et al. 2017): one curve per
// continent and sector, damage as a fraction of the maximum damage. Between the tabulated depths the
// fraction is interpolated linearly; at or below 0 m it is 0; beyond the deepest tabulated depth it is
// held at the last value (numpy.interp, as CLIMADA's impact functions do).
import { interpolateClamped } from '../../engine/impact.js';

export const FLOOD_SECTORS = ['residential', 'commercial', 'industrial'] as const;
export type FloodSector = (typeof FLOOD_SECTORS)[number];

export interface DepthDamageCurve {
  readonly continent: string;
  readonly sector: string;
  readonly depths: readonly number[];
  readonly fractions: readonly number[];
}

export interface CountryMaxDamage {
  readonly country: string;
  readonly iso_a3: string | null;
  readonly residential: number;
  readonly commercial: number;
  readonly industrial: number;
}

/** The continent whose curves stand in when a map's continent is not known or has no curve. */
export const GLOBAL_CONTINENT = 'global';

export function damageFraction(curve: DepthDamageCurve, depth: number): number {
  if (!(depth > 0)) return 0;
  return interpolateClamped(curve.depths, curve.fractions, depth);
}

/** The curve of a continent and sector, falling back to the global curve (fallback says so). */
export function curveFor(curves: readonly DepthDamageCurve[], continent: string | null, sector: string): { curve: DepthDamageCurve; fallback: boolean } | undefined {
  const exact = continent === null ? undefined : curves.find((c) => c.continent === continent && c.sector === sector);
  if (exact) return { curve: exact, fallback: false };
  const global = curves.find((c) => c.continent === GLOBAL_CONTINENT && c.sector === sector);
  return global ? { curve: global, fallback: true } : undefined;
}
