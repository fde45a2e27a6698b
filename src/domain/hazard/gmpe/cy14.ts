// Chiou and Youngs (2014), NGA-West2 model for shallow crustal earthquakes in active regions
// (Earthquake Spectra 30(3), 1117-1153). Functional form of the paper: the reference-rock median
// (Vs30 = 1130 m/s, eq. 11) of magnitude scaling, near- and far-field distance scaling with the
// anelastic term, style of faulting, top-of-rupture depth centred on its magnitude-dependent mean
// (eqs 4-5), dip, hanging wall and the near-fault directivity term over the centred direct point
// parameter (Delta DPP; zero when not given); the site term (eq. 12) of linear and nonlinear
// response and sediment depth over Delta z1, z1 taken from the paper's California (or Japan) mean
// for the Vs30 (eqs 1-2) when unknown or not positive, so the term vanishes (the California mean
// with 570.94 m/s and the Japan one with 412.39 m/s, as the authors' reference tables compute
// them); the aleatory model (eq. 13) with the nonlinear site response's NL0 and the Vs30 measured
// or inferred. Regional variants as the paper:
// California/global; Japan (its site coefficients, z1 mean, sigma2 and the Japan-Italy anelastic
// factor); Italy (that factor); Wenchuan (its factor). The Japan-Italy factor applies for
// 6 < M < 6.9 only, as the paper fits it. Style of faulting as the paper classes it: reverse for
// 30 <= rake <= 150, normal for -120 <= rake <= -60, strike-slip otherwise. PSA at periods up to
// 0.3 s is not taken below PGA, the floor every reference table of the model carries.
import { coefficientTable, coefficientsFor, interpolatedPeriod, periodsOf, requireCoefficients } from './coefficients.js';
import { CY14_COLUMNS, CY14_ROWS } from './cy14-coefficients.js';
import { groundMotion, type Gmpe, type GmpeContext, type GroundMotion, type Imt } from './types.js';

const TABLE = coefficientTable(CY14_COLUMNS, CY14_ROWS);
const PERIODS = periodsOf(TABLE);
type C = Readonly<Record<(typeof CY14_COLUMNS)[number], number>>;

export type Cy14Region = 'california' | 'japan' | 'italy' | 'wenchuan';

export interface Cy14Options {
  readonly region?: Cy14Region;
  /**
   * 'model': the paper's aleatory model (eq. 13). 'peer': the total standard deviation fixed at
   * 0.65, as the PEER verification exercises take it (tau and phi then 0.65 / sqrt 2 each).
   */
  readonly sigma?: 'model' | 'peer';
}

const PEER_SIGMA = 0.65;
/** Longest period whose PSA is not taken below PGA. */
const SA_FLOOR_PERIOD = 0.3;

/** The paper's mean depth to Vs = 1 km/s for a Vs30, metres: California (eq. 1) or Japan (eq. 2). */
export function cy14MeanZ1M(vs30: number, region: Cy14Region = 'california'): number {
  if (region === 'japan') return Math.exp((-5.23 / 2) * Math.log((vs30 ** 2 + 412.39 ** 2) / (1360 ** 2 + 412.39 ** 2)));
  return Math.exp((-7.15 / 4) * Math.log((vs30 ** 4 + 570.94 ** 4) / (1360 ** 4 + 570.94 ** 4)));
}

function mechanism(rake: number): 'reverse' | 'normal' | 'strike-slip' {
  if (rake >= 30 && rake <= 150) return 'reverse';
  if (rake >= -120 && rake <= -60) return 'normal';
  return 'strike-slip';
}

/** The mean top-of-rupture depth for a magnitude (eqs 4 and 5), km. */
function meanZtor(reverse: boolean, m: number): number {
  const z = reverse ? Math.max(2.704 - 1.226 * Math.max(m - 5.849, 0), 0) : Math.max(2.673 - 1.136 * Math.max(m - 4.97, 0), 0);
  return z * z;
}

/** ln of the median on the reference rock, Vs30 = 1130 m/s (eq. 11). */
function lnReference(c: C, ctx: GmpeContext, region: Cy14Region): number {
  const { mag: m, rake, dip, ztor } = ctx.rupture;
  const { rrup, rjb, rx } = ctx.distances;
  const style = mechanism(rake);
  const coshM = Math.cosh(2 * Math.max(m - 4.5, 0));
  const cosDip = Math.cos((dip * Math.PI) / 180);
  let f = c.c_1;
  if (style === 'reverse') f += c.c_1a + c.c_1c / coshM;
  if (style === 'normal') f += c.c_1b + c.c_1d / coshM;
  f += (c.c_7 + c.c_7b / coshM) * (ztor - meanZtor(style === 'reverse', m));
  f += (c.c_11 + c.c_11b / coshM) * cosDip * cosDip;
  f += c.c_2 * (m - 6) + ((c.c_2 - c.c_3) / c.c_n) * Math.log(1 + Math.exp(c.c_n * (c.c_m - m)));
  f += c.c_4 * Math.log(rrup + c.c_5 * Math.cosh(c.c_6 * Math.max(m - c.c_hm, 0)));
  f += (c.c_4a - c.c_4) * Math.log(Math.hypot(rrup, c.c_rb));
  let gamma = c.c_gamma1 + c.c_gamma2 / Math.cosh(Math.max(m - c.c_gamma3, 0));
  if ((region === 'japan' || region === 'italy') && m > 6 && m < 6.9) gamma *= c.gamma_ji;
  if (region === 'wenchuan') gamma *= c.gamma_c;
  f += gamma * rrup;
  const dpp = ctx.distances.rcdpp ?? 0;
  if (dpp !== 0) {
    const mb = m - c.c_8b;
    f += c.c_8 * Math.max(1 - Math.max(rrup - 40, 0) / 30, 0) * Math.min(Math.max(m - 5.5, 0) / 0.8, 1) * Math.exp(-c.c_8a * mb * mb) * dpp;
  }
  if (rx >= 0) f += c.c_9 * cosDip * (c.c_9a + (1 - c.c_9a) * Math.tanh(rx / c.c_9b)) * (1 - Math.hypot(rjb, ztor) / (rrup + 1));
  return f;
}

function tabled(ctx: GmpeContext, imt: Imt, options: Required<Cy14Options>): GroundMotion {
  const c = requireCoefficients(TABLE, imt, 'CY14');
  const { region } = options;
  const japan = region === 'japan';
  const vs30 = ctx.site.vs30;
  const lnRef = lnReference(c, ctx, region);
  const yRef = Math.exp(lnRef);
  const phi1 = japan ? c.phi_1jp : c.phi_1;
  const phi5 = japan ? c.phi_5jp : c.phi_5;
  const phi6 = japan ? c.phi_6jp : c.phi_6;
  const nlSlope = c.phi_2 * (Math.exp(c.phi_3 * (Math.min(vs30, 1130) - 360)) - Math.exp(c.phi_3 * (1130 - 360)));
  // z1 unknown (NaN) or not positive: the mean for the Vs30, so the sediment term vanishes.
  const z1 = ctx.site.z1pt0 > 0 ? ctx.site.z1pt0 : cy14MeanZ1M(vs30, region);
  const dz1 = z1 - cy14MeanZ1M(vs30, region);
  const mean = lnRef + phi1 * Math.min(Math.log(vs30 / 1130), 0) + nlSlope * Math.log((yRef + c.phi_4) / c.phi_4) + phi5 * (1 - Math.exp(-dz1 / phi6));
  if (options.sigma === 'peer') return groundMotion(mean, PEER_SIGMA / Math.SQRT2, PEER_SIGMA / Math.SQRT2);
  const mw = Math.min(Math.max(ctx.rupture.mag, 5), 6.5) - 5;
  const nl0 = nlSlope * (yRef / (yRef + c.phi_4));
  const tau = (c.tau_1 + ((c.tau_2 - c.tau_1) / 1.5) * mw) * (1 + nl0);
  const sigma2 = japan ? c.sigma_2jp : c.sigma_2;
  const sigmaNl0 = (c.sigma_1 + ((sigma2 - c.sigma_1) / 1.5) * mw) * Math.sqrt((ctx.site.vs30measured ? 0.7 : c.sigma_3) + (1 + nl0) ** 2);
  return groundMotion(mean, tau, sigmaNl0);
}

export function cy14(opts: Cy14Options = {}): Gmpe {
  const options: Required<Cy14Options> = { region: opts.region ?? 'california', sigma: opts.sigma ?? 'model' };
  const predict = (ctx: GmpeContext, imt: Imt): GroundMotion => {
    let gm: GroundMotion;
    if (imt.kind === 'SA' && !coefficientsFor(TABLE, imt)) {
      const g = interpolatedPeriod(PERIODS, imt.period, (period) => tabled(ctx, { kind: 'SA', period }, options), 'CY14');
      gm = groundMotion(g.mean, g.tau, g.phi);
    } else {
      gm = tabled(ctx, imt, options);
    }
    // Short-period PSA is not taken below PGA (the floor the authors' reference tables carry).
    if (imt.kind === 'SA' && imt.period <= SA_FLOOR_PERIOD) {
      const pga = tabled(ctx, { kind: 'PGA' }, options);
      if (pga.mean > gm.mean) return { ...gm, mean: pga.mean };
    }
    return gm;
  };
  const suffix = { california: '', japan: 'JPN', italy: 'ITA', wenchuan: 'WEN' }[options.region];
  return {
    id: `CY14${suffix}${options.sigma === 'peer' ? 'PEER' : ''}`,
    citation: 'Chiou, B. S.-J., Youngs, R. R. (2014) Earthquake Spectra 30(3), 1117-1153. doi:10.1193/072813EQS219M',
    periods: PERIODS,
    pgv: true,
    predict,
  };
}
