// The one interface every ground-motion model (GMPE) answers: a rupture, a site and the rupture's
// distances to the site go in, and for one intensity measure the mean of ln(ground motion) comes
// out with its total (sigma), between-event (tau) and within-event (phi) standard deviations, in
// natural-log units. Pure: no I/O. PGA and SA are in g, PGV in cm/s.

/** An intensity measure: peak ground acceleration, peak ground velocity, or 5%-damped spectral acceleration. */
export type Imt =
  | { readonly kind: 'PGA' }
  | { readonly kind: 'PGV' }
  | { readonly kind: 'SA'; readonly period: number };

export const PGA: Imt = { kind: 'PGA' };
export const PGV: Imt = { kind: 'PGV' };
export function sa(period: number): Imt {
  return { kind: 'SA', period };
}

/** How an intensity measure is written in results: PGA, PGV, SA(0.3). */
export function imtName(imt: Imt): string {
  return imt.kind === 'SA' ? `SA(${imt.period})` : imt.kind;
}

export interface Rupture {
  /** Moment magnitude. */
  readonly mag: number;
  /** Rake in degrees (Aki-Richards convention, -180 to 180). */
  readonly rake: number;
  /** Dip in degrees. */
  readonly dip: number;
  /** Depth to the top of the rupture, km. */
  readonly ztor: number;
  /** Down-dip width, km. */
  readonly width: number;
  /** Hypocentral depth, km. */
  readonly hypo_depth: number;
}

export interface Site {
  /** Time-averaged shear-wave velocity of the top 30 m, m/s. */
  readonly vs30: number;
  /** Whether vs30 was measured (true) or inferred. */
  readonly vs30measured: boolean;
  /** Depth to Vs = 1.0 km/s, metres; NaN when unknown (the model's own default applies). */
  readonly z1pt0: number;
  /** Depth to Vs = 2.5 km/s, km; NaN when unknown. */
  readonly z2pt5: number;
  /** Subduction models: whether the site is in the back-arc. */
  readonly backarc: boolean;
}

/** Source-to-site distances, km: Joyner-Boore, rupture, horizontal from the top edge (Rx), off the ends (Ry0), hypocentral. */
export interface Distances {
  readonly rjb: number;
  readonly rrup: number;
  readonly rx: number;
  readonly ry0: number;
  readonly rhypo: number;
  /** Chiou and Youngs (2014)'s centred direct point parameter (Delta DPP) for near-fault directivity; absent = 0 (no directivity). */
  readonly rcdpp?: number;
}

export interface GmpeContext {
  readonly rupture: Rupture;
  readonly site: Site;
  readonly distances: Distances;
}

/** Mean of ln(ground motion) and its standard deviations, natural-log units. */
export interface GroundMotion {
  readonly mean: number;
  readonly sigma: number;
  readonly tau: number;
  readonly phi: number;
}

export interface Gmpe {
  /** Stable identifier, used in results and logic trees. */
  readonly id: string;
  /** The paper the functional form and coefficients come from. */
  readonly citation: string;
  /** Spectral periods (s) the coefficient table holds; PGA and PGV support is stated separately. */
  readonly periods: readonly number[];
  readonly pgv: boolean;
  predict(ctx: GmpeContext, imt: Imt): GroundMotion;
}

/** Total from between- and within-event parts. */
export function groundMotion(mean: number, tau: number, phi: number): GroundMotion {
  return { mean, tau, phi, sigma: Math.sqrt(tau * tau + phi * phi) };
}
