// Abrahamson, Silva and Kamai (2014), NGA-West2 model for shallow crustal earthquakes in active
// regions (Earthquake Spectra 30(3), 1025-1055). Functional form of the paper: magnitude
// and distance scaling f1 with its magnitude-dependent finite-fault term c4M and hinges M1, M2;
// style of faulting f7, f8; the hanging-wall term f4 as the product of its dip, magnitude, Rx,
// top-depth and Ry0 tapers; top-of-rupture depth f6; the site term f5 of linear and nonlinear
// response over the median PSA on the reference rock (Vs30 = 1180 m/s) at the same period; the soil
// depth term f10 over z1 against the paper's California mean z1 for the Vs30 (eq. 18), which an
// unknown z1 takes, so the term vanishes; its slope is a43, a44, a45, a46 at Vs30 = 150, 250, 400
// and 700 m/s, linear in Vs30 between them and held beyond (the form the authors' reference table
// ASK14_ResMEAN_RegCAL carries: with a step at 200, 300 and 500 m/s it is up to 8% apart).
// California (no regional term) and mainshocks (the aftershock term f11 is zero). Aleatory model
// of the paper: within-event phi by the Vs30 measured or estimated, between-event tau, both through
// the nonlinear site response's derivative.
// Style of faulting as the paper classes it: reverse for 30 < rake < 150, normal for
// -150 < rake < -30, strike-slip otherwise.
import { coefficientTable, coefficientsFor, interpolatedPeriod, periodsOf, requireCoefficients } from './coefficients.js';
import { ASK14_COLUMNS, ASK14_ROWS } from './ask14-coefficients.js';
import { groundMotion, type Gmpe, type GmpeContext, type GroundMotion, type Imt } from './types.js';

const TABLE = coefficientTable(ASK14_COLUMNS, ASK14_ROWS);
const PERIODS = periodsOf(TABLE);
type C = Readonly<Record<(typeof ASK14_COLUMNS)[number], number>>;

const V_REF = 1180;
/** The hanging-wall term's fixed coefficients (paper, p. 1040-1041). */
const A2_HW = 0.2;
const H1 = 0.25;
const H2 = 1.5;
const H3 = -0.75;
/** The site-amplification part of the within-event variability, removed before the nonlinear scaling. */
const PHI_AMP = 0.4;

/** The paper's California mean depth to Vs = 1 km/s for a Vs30 (eq. 18), km. */
export function ask14MeanZ1Km(vs30: number): number {
  return Math.exp((-7.67 / 4) * Math.log((vs30 ** 4 + 610 ** 4) / (1360 ** 4 + 610 ** 4))) / 1000;
}

/** The Vs30 above which the site response no longer grows (the paper's V1), by period. */
function v1(period: number): number {
  if (period <= 0.5) return 1500;
  if (period >= 3) return 800;
  return Math.exp(-0.35 * Math.log(period / 0.5) + Math.log(1500));
}

function f1(c: C, m: number, rrup: number): number {
  const c4m = m > 5 ? c.c4 : m > 4 ? c.c4 - (c.c4 - 1) * (5 - m) : 1;
  const lnR = Math.log(Math.sqrt(rrup * rrup + c4m * c4m));
  if (m > c.m1) return c.a1 + c.a5 * (m - c.m1) + c.a8 * (8.5 - m) ** 2 + (c.a2 + c.a3 * (m - c.m1)) * lnR + c.a17 * rrup;
  if (m >= c.m2) return c.a1 + c.a4 * (m - c.m1) + c.a8 * (8.5 - m) ** 2 + (c.a2 + c.a3 * (m - c.m1)) * lnR + c.a17 * rrup;
  return c.a1 + c.a4 * (c.m2 - c.m1) + c.a8 * (8.5 - c.m2) ** 2 + c.a6 * (m - c.m2) + c.a7 * (m - c.m2) ** 2 + (c.a2 + c.a3 * (c.m2 - c.m1)) * lnR + c.a17 * rrup;
}

/** Style-of-faulting scaling with magnitude: zero below M4, full above M5. */
const sofRamp = (m: number) => Math.min(Math.max(m - 4, 0), 1);

function f4HangingWall(c: C, ctx: GmpeContext): number {
  const { mag: m, dip, width, ztor } = ctx.rupture;
  const { rx, ry0 } = ctx.distances;
  if (rx < 0) return 0;
  const t1 = dip > 30 ? (90 - dip) / 45 : 60 / 45;
  const dm = m - 6.5;
  const t2 = m >= 6.5 ? 1 + A2_HW * dm : m > 5.5 ? 1 + A2_HW * dm - (1 - A2_HW) * dm * dm : 0;
  const r1 = width * Math.cos((dip * Math.PI) / 180);
  const r2 = 3 * r1;
  const t3 = rx < r1 ? H1 + H2 * (rx / r1) + H3 * (rx / r1) ** 2 : rx <= r2 ? 1 - (rx - r1) / (r2 - r1) : 0;
  const t4 = ztor <= 10 ? 1 - (ztor * ztor) / 100 : 0;
  const ry1 = rx * Math.tan((20 * Math.PI) / 180);
  const t5 = ry0 - ry1 <= 0 ? 1 : ry0 - ry1 < 5 ? 1 - (ry0 - ry1) / 5 : 0;
  return c.a13 * t1 * t2 * t3 * t4 * t5;
}

/** Vs30 at which the soil-depth slopes a43..a46 hold; between them the slope is linear in Vs30, beyond them held. */
const SOIL_DEPTH_VS30 = [150, 250, 400, 700] as const;

function soilDepthSlope(c: C, vs30: number): number {
  const a = [c.a43, c.a44, c.a45, c.a46];
  if (vs30 <= SOIL_DEPTH_VS30[0]) return a[0]!;
  for (let i = 1; i < SOIL_DEPTH_VS30.length; i++) {
    const v0 = SOIL_DEPTH_VS30[i - 1]!;
    const v1 = SOIL_DEPTH_VS30[i]!;
    if (vs30 <= v1) return a[i - 1]! + ((a[i]! - a[i - 1]!) * (vs30 - v0)) / (v1 - v0);
  }
  return a[3]!;
}

function f10SoilDepth(c: C, vs30: number, z1pt0M: number): number {
  if (!(z1pt0M >= 0)) return 0;
  const ratio = Math.log((z1pt0M / 1000 + 0.01) / (ask14MeanZ1Km(vs30) + 0.01));
  return soilDepthSlope(c, vs30) * ratio;
}

function f5Site(c: C, period: number, vs30: number, saRef: number): number {
  const ratio = Math.min(vs30, v1(period)) / c.v_lin;
  if (vs30 >= c.v_lin) return (c.a10 + c.b * c.n) * Math.log(ratio);
  return c.a10 * Math.log(ratio) - c.b * Math.log(saRef + c.c) + c.b * Math.log(saRef + c.c * ratio ** c.n);
}

/** ln median without the site and soil-depth terms: source, path, hanging wall and top depth. */
function lnSourcePath(c: C, ctx: GmpeContext): number {
  const { mag: m, rake, ztor } = ctx.rupture;
  let f = f1(c, m, ctx.distances.rrup);
  if (rake > 30 && rake < 150) f += c.a11 * sofRamp(m);
  if (rake > -150 && rake < -30) f += c.a12 * sofRamp(m);
  f += f4HangingWall(c, ctx);
  f += c.a15 * Math.min(ztor / 20, 1);
  return f;
}

/** ln(amplification) derivative with respect to ln(Sa1180). */
function nonlinearSlope(c: C, vs30: number, saRef: number): number {
  if (vs30 >= c.v_lin) return 0;
  return (-c.b * saRef) / (saRef + c.c) + (c.b * saRef) / (saRef + c.c * (vs30 / c.v_lin) ** c.n);
}

function tabled(ctx: GmpeContext, imt: Imt): GroundMotion {
  const c = requireCoefficients(TABLE, imt, 'ASK14');
  const period = imt.kind === 'SA' ? imt.period : 0;
  const vs30 = ctx.site.vs30;
  const source = lnSourcePath(c, ctx);
  // The reference rock's median at this period: the linear site term at 1180 m/s, no soil-depth term.
  const saRef = Math.exp(source + f5Site(c, period, V_REF, 0));
  const mean = source + f5Site(c, period, vs30, saRef) + f10SoilDepth(c, vs30, ctx.site.z1pt0);
  const m = ctx.rupture.mag;
  const [s1, s2] = ctx.site.vs30measured ? [c.s1m, c.s2m] : [c.s1e, c.s2e];
  const phiA = m < 4 ? s1 : m > 6 ? s2 : s1 + ((s2 - s1) / 2) * (m - 4);
  const tauA = m < 5 ? c.s3 : m > 7 ? c.s4 : c.s3 + ((c.s4 - c.s3) / 2) * (m - 5);
  const phiB = Math.sqrt(phiA * phiA - PHI_AMP * PHI_AMP);
  const d = 1 + nonlinearSlope(c, vs30, saRef);
  return groundMotion(mean, tauA * d, Math.sqrt(phiB * phiB * d * d + PHI_AMP * PHI_AMP));
}

export function ask14(): Gmpe {
  const predict = (ctx: GmpeContext, imt: Imt): GroundMotion => {
    if (imt.kind === 'SA' && !coefficientsFor(TABLE, imt)) {
      const g = interpolatedPeriod(PERIODS, imt.period, (period) => tabled(ctx, { kind: 'SA', period }), 'ASK14');
      return groundMotion(g.mean, g.tau, g.phi);
    }
    return tabled(ctx, imt);
  };
  return {
    id: 'ASK14',
    citation: 'Abrahamson, N. A., Silva, W. J., Kamai, R. (2014) Earthquake Spectra 30(3), 1025-1055. doi:10.1193/070913EQS198M',
    periods: PERIODS,
    pgv: true,
    predict,
  };
}
