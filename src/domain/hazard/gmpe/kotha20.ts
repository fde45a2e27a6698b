// Kotha, Weatherill, Bindi and Cotton (2020), shallow crustal earthquakes in Europe (Bull.
// Earthquake Eng. 18, 4091-4125), and its ESHM20 adaptation, the "scaled backbone" of Weatherill,
// Kotha and Cotton (2020) (Bull. Earthquake Eng. 18, 5087-5117). Functional form of the papers:
//
//   ln Y = e1 + fM(M) + fR(M, Rjb, h) + site + regional-average adjustment
//   fM   = b1 (M - Mh) + b2 (M - Mh)^2 for M <= Mh, else b3 (M - Mh);             Mh = 5.7
//   fR   = (c1 + c2 (M - Mref)) ln(R / Rr) + c3 (R - Rr) / 100;                  Mref = 4.5
//   R    = sqrt(Rjb^2 + h^2), Rr = sqrt(Rref^2 + h^2), Rref = 30 km, and the pseudo-depth h is 4, 8
//          or 12 km for hypocentres at <= 10, (10, 20] and > 20 km.
//
// Y is in cm/s^2 (PGA, SA; returned here in g) or cm/s (PGV). c3 is the apparent anelastic
// attenuation of the "regional average"; the model's region-to-region spread of it (tau_c3) and of
// the source-region average (tau_L2L) are what ESHM20 turns into epistemic branches:
// - c3Epsilon: c3 + eps * tau_c3 (in ESHM20 forms per residual-attenuation region of the site);
// - sigmaMuEpsilon: eps * max(tau_L2L, sigma_mu) added to ln Y, where sigma_mu (statistical
//   uncertainty) exceeds tau_L2L only above M 7.4 (linear in M from 7.4 to 8.0, capped at 8.0);
// - or explicitly per intensity measure: c3 (replaces c3, and any regionalisation) and dl2l (added to
//   ln Y, in place of the sigma_mu scaling).
// Standard deviations: the paper's homoscedastic tau (tau_event_0) and phi0, with phi_S2S of the site
// model when ergodic. ESHM20 forms use the heteroskedastic "global" tau of Al Atik (2015) and phi0
// linear in M between 5.0 and 6.5; non-ergodic (ergodic: false) drops phi_S2S from phi.
// Spectral periods between the table's are evaluated with every coefficient interpolated linearly in
// ln(period), as the model's published implementation does. Pure: no I/O.
import {
  type CoefficientTable, coefficientTable, coefficientsFor, periodKey, periodsOf, requireCoefficients,
} from './coefficients.js';
import {
  AL_ATIK_2015_GLOBAL_TAU, KOTHA20_C3_REGION_COLUMNS, KOTHA20_C3_REGION_ROWS, KOTHA20_COLUMNS, KOTHA20_ESHM20_SITE_COLUMNS,
  KOTHA20_ESHM20_SITE_ROWS, KOTHA20_GEOLOGICAL_UNITS, KOTHA20_GEOLOGY_FIXED_COLUMNS, KOTHA20_GEOLOGY_FIXED_ROWS,
  KOTHA20_GEOLOGY_GRADIENT_ROWS, KOTHA20_GEOLOGY_INTERCEPT_ROWS, KOTHA20_PHI0_COLUMNS, KOTHA20_PHI0_ROWS,
  KOTHA20_ROWS, KOTHA20_SIGMA_MU_COLUMNS, KOTHA20_SIGMA_MU_ROWS,
} from './kotha20-coefficients.js';
import { type Gmpe, type GmpeContext, type GroundMotion, type Imt, type Site, imtName } from './types.js';

/**
 * Which site term and standard-deviation model:
 * - 'base': Kotha et al. (2020) without a site term (reference rock of the regression), homoscedastic;
 * - 'vs30' / 'slope': Kotha et al. (2020) with its Vs30 (800 m/s reference) or topographic-slope
 *   (0.1 m/m reference) amplification polynomial;
 * - 'eshm20': the ESHM20 backbone: Vs30 term for measured or inferred Vs30 (capped at 1100 m/s), c3 by
 *   residual-attenuation region of the site, heteroskedastic tau and phi0;
 * - 'eshm20-slope-geology': as 'eshm20' with the slope-and-geology site term of ESRM20 (the shallow
 *   default and Iceland logic trees).
 */
export type Kotha2020Form = 'base' | 'vs30' | 'slope' | 'eshm20' | 'eshm20-slope-geology';

/** Values per intensity measure, keyed as results write them: PGA, PGV, SA(0.2); SA between two keys is interpolated in ln(period). */
export type PerImt = Readonly<Record<string, number>>;

/**
 * One branch of the model. The defaults give the central (regional-average) model. An ESHM20 shallow-
 * crust branch is { form: 'eshm20' (or 'eshm20-slope-geology'), sigmaMuEpsilon, c3Epsilon }, e.g. the
 * ESRM20 "HighStress FastAtten" branch { sigmaMuEpsilon: 1.35563, c3Epsilon: -1.732051 }.
 */
export interface Kotha2020Variant {
  readonly form?: Kotha2020Form;
  /** Epistemic scaling of the regional average: this many max(tau_L2L, sigma_mu) added to ln Y. Default 0. */
  readonly sigmaMuEpsilon?: number;
  /** Residual-attenuation branch: c3 + c3Epsilon * tau_c3 (regional in ESHM20 forms). Default 0. */
  readonly c3Epsilon?: number;
  /** Include site-to-site variability in phi (default true); false gives the non-ergodic phi0. */
  readonly ergodic?: boolean;
  /** Explicit source-region adjustment added to ln Y per IMT (replaces the sigmaMuEpsilon scaling). */
  readonly dl2l?: PerImt;
  /** Explicit c3 per IMT (replaces c3, c3Epsilon and the regional c3). */
  readonly c3?: PerImt;
}

/**
 * Site properties the model's site forms read beyond the common Site: the ESHM20 residual-attenuation
 * region (1-5, 0 = none: the model's own c3), topographic slope (m/m) and geological era (one of
 * KOTHA20_GEOLOGICAL_UNITS; others take the fixed-effects amplification).
 */
export interface KothaSite extends Site {
  readonly region?: number;
  readonly slope?: number;
  readonly geology?: string;
}

const G = 9.80665; // standard gravity, m/s^2: the regression is in cm/s^2
const MH = 5.7;
const MREF = 4.5;
const RREF = 30;

type Row<K extends string> = Readonly<Record<K, number>>;
type Base = Row<(typeof KOTHA20_COLUMNS)[number]>;

const BASE = coefficientTable(KOTHA20_COLUMNS, KOTHA20_ROWS);
const ESHM20_SITE = coefficientTable(KOTHA20_ESHM20_SITE_COLUMNS, KOTHA20_ESHM20_SITE_ROWS);
const C3_REGIONS = coefficientTable(KOTHA20_C3_REGION_COLUMNS, KOTHA20_C3_REGION_ROWS);
const PHI0 = coefficientTable(KOTHA20_PHI0_COLUMNS, KOTHA20_PHI0_ROWS);
const SIGMA_MU = coefficientTable(KOTHA20_SIGMA_MU_COLUMNS, KOTHA20_SIGMA_MU_ROWS);
const GEOLOGY_FIXED = coefficientTable(KOTHA20_GEOLOGY_FIXED_COLUMNS, KOTHA20_GEOLOGY_FIXED_ROWS);
const GEOLOGY_INTERCEPT = coefficientTable(KOTHA20_GEOLOGICAL_UNITS, KOTHA20_GEOLOGY_INTERCEPT_ROWS);
const GEOLOGY_GRADIENT = coefficientTable(KOTHA20_GEOLOGICAL_UNITS, KOTHA20_GEOLOGY_GRADIENT_ROWS);

/** The coefficient row for an IMT, interpolated linearly in ln(period) between the table's neighbours. */
function rowAt<C extends Readonly<Record<string, number>>>(table: CoefficientTable<C>, imt: Imt, what: string): C {
  const exact = coefficientsFor(table, imt);
  if (exact) return exact;
  if (imt.kind !== 'SA') return requireCoefficients(table, imt, what);
  const periods = periodsOf(table);
  const key = periodKey(imt.period);
  const hi = periods.findIndex((p) => p > key);
  if (hi <= 0) throw new Error(`${what} has no coefficients for SA(${imt.period})`);
  const p0 = periods[hi - 1]!;
  const p1 = periods[hi]!;
  const w = Math.log(key / p0) / Math.log(p1 / p0);
  const a = table.sa.get(p0)!;
  const b = table.sa.get(p1)!;
  return Object.fromEntries(Object.keys(a).map((k) => [k, a[k]! + (b[k]! - a[k]!) * w])) as C;
}

/** A per-IMT value: exact key, else SA interpolated in ln(period) between the nearest SA keys given. */
function perImt(values: PerImt, imt: Imt, what: string): number {
  const name = imtName(imt);
  if (values[name] !== undefined) return values[name];
  if (imt.kind === 'SA') {
    const sa = Object.entries(values).flatMap(([k, v]) => {
      const m = /^SA\((.+)\)$/.exec(k);
      return m ? [{ p: Number(m[1]), v }] : [];
    }).sort((x, y) => x.p - y.p);
    const hi = sa.findIndex((s) => s.p > imt.period);
    if (hi > 0) {
      const a = sa[hi - 1]!;
      const b = sa[hi]!;
      return a.v + ((b.v - a.v) * Math.log(imt.period / a.p)) / Math.log(b.p / a.p);
    }
  }
  throw new Error(`Kotha 2020: no ${what} given for ${name}`);
}

function pseudoDepth(hypoDepth: number): number {
  if (!Number.isFinite(hypoDepth)) throw new Error('Kotha 2020 needs the hypocentral depth');
  return hypoDepth <= 10 ? 4 : hypoDepth > 20 ? 12 : 8;
}

function magnitudeTerm(c: Base, mag: number): number {
  const dm = mag - MH;
  return c.e1 + (mag <= MH ? c.b1 * dm + c.b2 * dm * dm : c.b3 * dm);
}

function distanceTerm(c: Base, c3: number, mag: number, rjb: number, h: number): number {
  const r = Math.hypot(rjb, h);
  const rr = Math.hypot(RREF, h);
  return (c.c1 + c.c2 * (mag - MREF)) * Math.log(r / rr) + (c3 * (r - rr)) / 100;
}

const isEshm20 = (form: Kotha2020Form) => form === 'eshm20' || form === 'eshm20-slope-geology';

/** c3 of the branch: explicit, else the site's ESHM20 attenuation region (not for PGV), else the model's, each with its tau_c3 spread. */
function c3Of(form: Kotha2020Form, variant: Kotha2020Variant, c: Base, imt: Imt, site: KothaSite): number {
  if (variant.c3) return perImt(variant.c3, imt, 'c3');
  const eps = variant.c3Epsilon ?? 0;
  const region = site.region ?? 0;
  if (isEshm20(form) && imt.kind !== 'PGV' && region >= 1 && region <= 5) {
    const r = rowAt(C3_REGIONS, imt, 'Kotha 2020 attenuation regions') as Readonly<Record<string, number>>;
    return r[`region_${region}`]! + eps * r[`tau_region_${region}`]!;
  }
  if (isEshm20(form) && region !== 0 && !(region >= 1 && region <= 5)) throw new Error(`Kotha 2020: attenuation region ${region} is not 0-5`);
  return c.c3 + eps * c.tau_c3;
}

function geologySite(imt: Imt, site: KothaSite): { amp: number; phiS2S: number } {
  const fixed = rowAt(GEOLOGY_FIXED, imt, 'Kotha 2020 geology');
  const slope = site.slope;
  if (slope === undefined || !Number.isFinite(slope)) throw new Error('Kotha 2020 (slope and geology) needs the site slope');
  // The model was fitted on slopes 0.0005-0.3 m/m; beyond them the end values hold.
  const s = Math.min(0.3, Math.max(0.0005, slope));
  const unit = KOTHA20_GEOLOGICAL_UNITS.find((u) => u === site.geology);
  const v1 = fixed.V1 + (unit ? rowAt(GEOLOGY_INTERCEPT, imt, 'Kotha 2020 geology')[unit] : 0);
  const v2 = fixed.V2 + (unit ? rowAt(GEOLOGY_GRADIENT, imt, 'Kotha 2020 geology')[unit] : 0);
  return { amp: v1 + v2 * Math.log(s), phiS2S: fixed.phi_s2s };
}

/** Site amplification (ln units) and the site-to-site phi that goes with it. */
function siteTerm(form: Kotha2020Form, c: Base, imt: Imt, site: KothaSite): { amp: number; phiS2S: number } {
  switch (form) {
    case 'base':
      return { amp: 0, phiS2S: c.phis2s };
    case 'vs30': {
      const x = Math.log(site.vs30 / 800);
      return { amp: c.g0_vs30 + c.g1_vs30 * x + c.g2_vs30 * x * x, phiS2S: c.phi_s2s_vs30 };
    }
    case 'slope': {
      if (site.slope === undefined) throw new Error('Kotha 2020 (slope) needs the site slope');
      const x = Math.log(site.slope / 0.1);
      return { amp: c.g0_slope + c.g1_slope * x + c.g2_slope * x * x, phiS2S: c.phi_s2s_slope };
    }
    case 'eshm20': {
      const s = rowAt(ESHM20_SITE, imt, 'Kotha 2020 ESHM20 site');
      const lnV = Math.log(Math.min(site.vs30, 1100));
      return site.vs30measured
        ? { amp: s.d0_obs + s.d1_obs * lnV, phiS2S: s.phi_s2s_obs }
        : { amp: s.d0_inf + s.d1_inf * lnV, phiS2S: s.phi_s2s_inf };
    }
    case 'eshm20-slope-geology':
      return geologySite(imt, site);
  }
}

/** Piecewise-linear in magnitude through (m_i, v_i), constant beyond the ends. */
function linearInMagnitude(mags: readonly number[], values: readonly number[], mag: number): number {
  if (mag <= mags[0]!) return values[0]!;
  for (let i = 1; i < mags.length; i++) {
    if (mag <= mags[i]!) return values[i - 1]! + ((values[i]! - values[i - 1]!) * (mag - mags[i - 1]!)) / (mags[i]! - mags[i - 1]!);
  }
  return values[values.length - 1]!;
}

/** ESHM20's between-event tau: Al Atik (2015) global model, PGV or spectral set. */
function heteroskedasticTau(imt: Imt, mag: number): number {
  const t = AL_ATIK_2015_GLOBAL_TAU;
  return linearInMagnitude(t.magnitudes, imt.kind === 'PGV' ? t.pgv : t.sa, mag);
}

/** ESHM20's single-station phi0: a up to M 5.0, b from M 6.5, linear between. */
function heteroskedasticPhi0(imt: Imt, mag: number): number {
  const p = rowAt(PHI0, imt, 'Kotha 2020 phi0');
  return linearInMagnitude([5.0, 6.5], [p.a, p.b], mag);
}

/** max(tau_L2L, sigma_mu): sigma_mu only matters from M 7.4, linear to its M 8.0 value and capped there; by hypocentral depth < 10, [10, 20), >= 20 km. */
function regionalAverageSpread(c: Base, imt: Imt, mag: number, hypoDepth: number): number {
  if (mag < 7.4) return c.tau_l2l;
  const s = rowAt(SIGMA_MU, imt, 'Kotha 2020 sigma_mu');
  const [m8, m74] = hypoDepth < 10 ? [s.m8_shallow, s.m7p4_shallow] : hypoDepth >= 20 ? [s.m8_deep, s.m7p4_deep] : [s.m8_intermediate, s.m7p4_intermediate];
  const sigmaMu = mag >= 8 ? m8 : m74 + ((m8 - m74) * (mag - 7.4)) / 0.6;
  return Math.max(c.tau_l2l, sigmaMu);
}

const ID: Record<Kotha2020Form, string> = {
  base: 'KOTHA20',
  vs30: 'KOTHA20_VS30',
  slope: 'KOTHA20_SLOPE',
  eshm20: 'KOTHA20_ESHM20',
  'eshm20-slope-geology': 'KOTHA20_ESHM20_SLOPE_GEOLOGY',
};

function branchId(form: Kotha2020Form, v: Kotha2020Variant): string {
  const parts = [ID[form]];
  if (v.sigmaMuEpsilon) parts.push(`smu${v.sigmaMuEpsilon}`);
  if (v.c3Epsilon) parts.push(`c3e${v.c3Epsilon}`);
  if (v.dl2l) parts.push('dl2l');
  if (v.c3) parts.push('c3');
  if (v.ergodic === false) parts.push('nonergodic');
  return parts.join('_');
}

/** The Kotha et al. (2020) model (or one of its ESHM20 branches) as a Gmpe; sites may carry the KothaSite fields. */
export function kotha2020(variant: Kotha2020Variant = {}): Gmpe {
  const form = variant.form ?? 'base';
  const ergodic = variant.ergodic ?? true;
  const eshm20 = isEshm20(form);
  return {
    id: branchId(form, variant),
    citation: eshm20
      ? 'Kotha, S. R., Weatherill, G., Bindi, D., Cotton, F. (2020) Bull. Earthquake Eng. 18, 4091-4125, doi:10.1007/s10518-020-00869-1; ESHM20 scaled backbone: Weatherill, G., Kotha, S. R., Cotton, F. (2020) Bull. Earthquake Eng. 18, 5087-5117, doi:10.1007/s10518-020-00899-9'
      : 'Kotha, S. R., Weatherill, G., Bindi, D., Cotton, F. (2020) Bull. Earthquake Eng. 18, 4091-4125. doi:10.1007/s10518-020-00869-1',
    periods: periodsOf(BASE),
    pgv: true,
    predict(ctx: GmpeContext, imt: Imt): GroundMotion {
      const { mag, hypo_depth } = ctx.rupture;
      const site = ctx.site as KothaSite;
      const c = rowAt(BASE, imt, 'Kotha 2020');
      const h = pseudoDepth(hypo_depth);
      const { amp, phiS2S } = siteTerm(form, c, imt, site);
      let mean = magnitudeTerm(c, mag) + distanceTerm(c, c3Of(form, variant, c, imt, site), mag, ctx.distances.rjb, h) + amp;
      if (imt.kind !== 'PGV') mean -= Math.log(100 * G);
      if (variant.dl2l) mean += perImt(variant.dl2l, imt, 'dl2l');
      else if (variant.sigmaMuEpsilon) mean += variant.sigmaMuEpsilon * regionalAverageSpread(c, imt, mag, hypo_depth);
      const tau = eshm20 ? heteroskedasticTau(imt, mag) : c.tau_event_0;
      const phi0 = eshm20 ? heteroskedasticPhi0(imt, mag) : c.phi_0;
      const phi = ergodic ? Math.hypot(phi0, phiS2S) : phi0;
      return { mean, tau, phi, sigma: Math.hypot(tau, phi) };
    },
  };
}

/** The model forms by the class names OpenQuake logic trees (e.g. ESRM20's) give them. */
export const KOTHA2020_FORM_OF_GSIM: Readonly<Record<string, Kotha2020Form>> = {
  KothaEtAl2020: 'base',
  KothaEtAl2020Site: 'vs30',
  KothaEtAl2020Slope: 'slope',
  KothaEtAl2020ESHM20: 'eshm20',
  KothaEtAl2020ESHM20SlopeGeology: 'eshm20-slope-geology',
};

/**
 * A logic-tree branch written as OpenQuake writes it (class name and arguments sigma_mu_epsilon,
 * c3_epsilon, ergodic, dl2l and c3 per IMT) as a variant; undefined for another model.
 */
export function kotha2020Variant(gsim: string, args: Readonly<Record<string, unknown>> = {}): Kotha2020Variant | undefined {
  const form = KOTHA2020_FORM_OF_GSIM[gsim];
  if (!form) return undefined;
  const num = (k: string) => (typeof args[k] === 'number' ? (args[k] as number) : undefined);
  const table = (k: string) => (args[k] && typeof args[k] === 'object' ? (args[k] as PerImt) : undefined);
  const sigmaMuEpsilon = num('sigma_mu_epsilon');
  const c3Epsilon = num('c3_epsilon');
  const dl2l = table('dl2l');
  const c3 = table('c3');
  return {
    form,
    ...(sigmaMuEpsilon !== undefined && { sigmaMuEpsilon }),
    ...(c3Epsilon !== undefined && { c3Epsilon }),
    ...(args.ergodic === false && { ergodic: false }),
    ...(dl2l && { dl2l }),
    ...(c3 && { c3 }),
  };
}
