// Ground-motion fields for one earthquake: for each field, ln(ground motion) at every place is the
// model's mean plus one between-event residual tau x eta shared by all places and a within-event
// residual phi x epsilon, epsilon standard normal and spatially correlated between places after
// Jayaram and Baker (2009), Earthquake Engng Struct. Dyn. 38, 1687-1708, eq. 17, case 1 (Vs30 not
// clustered): rho(h) = exp(-3 h / b), b = 8.5 + 17.2 T km for T < 1 s and 22.0 + 3.7 T km for
// T >= 1 s (PGA taken as T = 0). Correlated draws by the Cholesky factor of the correlation matrix
// (a zero pivot, two places at one spot, is taken as exact dependence). Seeded: the same seed, places
// and model give the same fields.
import { seededRandom, type SeededRandom } from '../../../stats/random.js';
import { haversineKm, type GeoPoint } from '../../../geo.js';
import type { Imt } from '../../../hazard/gmpe/types.js';

export const SPATIAL_CORRELATION = 'Jayaram and Baker (2009) eq. 17, case 1: rho(h) = exp(-3h/b), b = 8.5 + 17.2T km (T < 1 s), 22.0 + 3.7T km (T >= 1 s)';

/** Jayaram and Baker (2009) range b (km) for an intensity measure, case 1. */
export function correlationRangeKm(imt: Imt): number {
  if (imt.kind === 'PGV') throw new Error('Jayaram and Baker (2009) give no range for PGV');
  const t = imt.kind === 'PGA' ? 0 : imt.period;
  return t < 1 ? 8.5 + 17.2 * t : 22.0 + 3.7 * t;
}

export function correlation(hKm: number, rangeKm: number): number {
  return Math.exp((-3 * hKm) / rangeKm);
}

/** Lower-triangular Cholesky factor (row-major n x n) of a positive semi-definite matrix. */
export function cholesky(matrix: Float64Array, n: number): Float64Array {
  const l = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    let d = matrix[j * n + j]!;
    for (let k = 0; k < j; k++) d -= l[j * n + k]! ** 2;
    const pivot = d > 1e-12 ? Math.sqrt(d) : 0;
    l[j * n + j] = pivot;
    for (let i = j + 1; i < n; i++) {
      if (pivot === 0) { l[i * n + j] = 0; continue; }
      let s = matrix[i * n + j]!;
      for (let k = 0; k < j; k++) s -= l[i * n + k]! * l[j * n + k]!;
      l[i * n + j] = s / pivot;
    }
  }
  return l;
}

/** Standard normal deviates by the Box-Muller transform, one pair per two uniforms. */
export function normalSource(rng: SeededRandom): () => number {
  let spare: number | null = null;
  return () => {
    if (spare !== null) { const s = spare; spare = null; return s; }
    const r = Math.sqrt(-2 * Math.log(rng.uniformOpen()));
    const theta = 2 * Math.PI * rng.uniform();
    spare = r * Math.sin(theta);
    return r * Math.cos(theta);
  };
}

/** The Cholesky factor of the places' within-event correlation for an intensity measure. */
export function correlationFactor(places: readonly GeoPoint[], imt: Imt): Float64Array {
  const n = places.length;
  const range = correlationRangeKm(imt);
  const m = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    m[i * n + i] = 1;
    for (let j = 0; j < i; j++) {
      const r = correlation(haversineKm(places[i]!, places[j]!), range);
      m[i * n + j] = r;
      m[j * n + i] = r;
    }
  }
  return cholesky(m, n);
}

export interface FieldInputs {
  /** Mean ln(ground motion) per place, and tau and phi per place, for each field's model branch. */
  readonly mean: Float64Array;
  readonly tau: Float64Array;
  readonly phi: Float64Array;
}

/**
 * ln(ground motion) of `fields` fields (row-major fields x places). `branchOf(f)` gives field f's
 * inputs (its sampled model branch); the residuals come from `seed`.
 */
export function sampleFields(factor: Float64Array, n: number, fields: number, branchOf: (field: number) => FieldInputs, seed: number): Float64Array {
  const normal = normalSource(seededRandom(seed));
  const out = new Float64Array(fields * n);
  const z = new Float64Array(n);
  for (let f = 0; f < fields; f++) {
    const { mean, tau, phi } = branchOf(f);
    const eta = normal();
    for (let i = 0; i < n; i++) z[i] = normal();
    for (let i = 0; i < n; i++) {
      let eps = 0;
      const row = i * n;
      for (let k = 0; k <= i; k++) eps += factor[row + k]! * z[k]!;
      out[f * n + i] = mean[i]! + tau[i]! * eta + phi[i]! * eps;
    }
  }
  return out;
}
