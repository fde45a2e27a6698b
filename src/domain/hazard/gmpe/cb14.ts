// Campbell and Bozorgnia (2014), NGA-West2 model for shallow crustal earthquakes in active regions
// (Earthquake Spectra 30(3), 1087-1115). Functional form of the paper (eqs 1-29): magnitude,
// geometric attenuation, style of faulting, hanging wall, shallow site response over the rock PGA
// (Vs30 = 1100 m/s), basin response over z2.5, hypocentral depth, dip and anelastic attenuation
// (Delta c20 = 0, California and global); PSA below 0.25 s is not taken below PGA (the paper's rule).
// Aleatory variability with the site response's nonlinearity (eqs 27-32). Not Japan (S_J = 0).
// When z2.5 is unknown, the paper's California default: ln z2.5 = 7.089 - 1.144 ln Vs30 (km).
import { coefficientTable, coefficientsFor, interpolatedPeriod, periodsOf, requireCoefficients } from './coefficients.js';
import { CB14_COLUMNS, CB14_ROWS } from './cb14-coefficients.js';
import { groundMotion, type Gmpe, type GmpeContext, type GroundMotion, type Imt } from './types.js';

const TABLE = coefficientTable(CB14_COLUMNS, CB14_ROWS);
const PERIODS = periodsOf(TABLE);
type C = Readonly<Record<(typeof CB14_COLUMNS)[number], number>>;

const C_SITE = 1.88;
const N_SITE = 1.18;

/** The paper's California default depth to Vs = 2.5 km/s, km. */
export function defaultZ2pt5Km(vs30: number): number {
  return Math.exp(7.089 - 1.144 * Math.log(vs30));
}

function fMag(c: C, m: number): number {
  let f = c.c_0 + c.c_1 * m;
  // The paper's hinges add up: above each hinge its own slope joins the earlier ones.
  if (m > 4.5) f += c.c_2 * (m - 4.5);
  if (m > 5.5) f += c.c_3 * (m - 5.5);
  if (m > 6.5) f += c.c_4 * (m - 6.5);
  return f;
}

function fHangingWall(c: C, ctx: GmpeContext): number {
  const { mag, dip, width, ztor } = ctx.rupture;
  const { rx, rrup, rjb } = ctx.distances;
  if (rx < 0) return 0;
  const d = (dip * Math.PI) / 180;
  const r1 = width * Math.cos(d);
  const r2 = 62 * mag - 350;
  let fRx: number;
  if (rx < r1) {
    const x = rx / r1;
    fRx = c.h_1 + c.h_2 * x + c.h_3 * x * x;
  } else {
    const x = (rx - r1) / (r2 - r1);
    fRx = Math.max(c.h_4 + c.h_5 * x + c.h_6 * x * x, 0);
  }
  const fRrup = rrup === 0 ? 1 : (rrup - rjb) / rrup;
  const fM = mag <= 5.5 ? 0 : mag <= 6.5 ? (mag - 5.5) * (1 + c.a_2 * (mag - 6.5)) : 1 + c.a_2 * (mag - 6.5);
  const fZ = ztor <= 16.66 ? 1 - 0.06 * ztor : 0;
  const fDip = (90 - dip) / 45;
  return c.c_10 * fRx * fRrup * fM * fZ * fDip;
}

function fSiteG(c: C, vs30: number, a1100: number): number {
  const v = vs30 / c.k_1;
  if (vs30 <= c.k_1) return c.c_11 * Math.log(v) + c.k_2 * (Math.log(a1100 + C_SITE * v ** N_SITE) - Math.log(a1100 + C_SITE));
  return (c.c_11 + c.k_2 * N_SITE) * Math.log(v);
}

function fSed(c: C, z2pt5: number): number {
  if (z2pt5 <= 1) return c.c_14 * (z2pt5 - 1);
  if (z2pt5 <= 3) return 0;
  return c.c_16 * c.k_3 * Math.exp(-0.75) * (1 - Math.exp(-0.25 * (z2pt5 - 3)));
}

/** ln Y on the site's Vs30 and z2.5, with the rock PGA a1100 for the nonlinear site term. */
function lnMedian(c: C, ctx: GmpeContext, vs30: number, z2pt5: number, a1100: number): number {
  const { mag, rake, dip, hypo_depth: zhyp } = ctx.rupture;
  const rrup = ctx.distances.rrup;
  const fDis = (c.c_5 + c.c_6 * mag) * Math.log(Math.hypot(rrup, c.c_7));
  const fltM = mag <= 4.5 ? 0 : mag <= 5.5 ? mag - 4.5 : 1;
  const fFlt = (c.c_8 * (rake > 30 && rake < 150 ? 1 : 0) + c.c_9 * (rake > -150 && rake < -30 ? 1 : 0)) * fltM;
  const hypH = zhyp <= 7 ? 0 : zhyp <= 20 ? zhyp - 7 : 13;
  const hypM = mag <= 5.5 ? c.c_17 : mag <= 6.5 ? c.c_17 + (c.c_18 - c.c_17) * (mag - 5.5) : c.c_18;
  const fDip = mag <= 4.5 ? c.c_19 * dip : mag <= 5.5 ? c.c_19 * (5.5 - mag) * dip : 0;
  const fAtn = rrup > 80 ? (c.c_20 + c.dc_20ca) * (rrup - 80) : 0;
  return fMag(c, mag) + fDis + fFlt + fHangingWall(c, ctx) + fSiteG(c, vs30, a1100) + fSed(c, z2pt5) + hypH * hypM + fDip + fAtn;
}

const ramp = (m: number, low: number, high: number) => (m <= 4.5 ? low : m >= 5.5 ? high : high + (low - high) * (5.5 - m));

function z25Of(ctx: GmpeContext): number {
  return Number.isFinite(ctx.site.z2pt5) ? ctx.site.z2pt5 : defaultZ2pt5Km(ctx.site.vs30);
}

/** Median PGA on rock, Vs30 = 1100 m/s with that rock's default z2.5 (the site term's input). */
function rockPga(ctx: GmpeContext): number {
  return Math.exp(lnMedian(TABLE.pga, ctx, 1100, defaultZ2pt5Km(1100), 0));
}

function tabled(ctx: GmpeContext, imt: Imt): GroundMotion {
  const c = requireCoefficients(TABLE, imt, 'CB14');
  const vs30 = ctx.site.vs30;
  const z25 = z25Of(ctx);
  const a1100 = rockPga(ctx);
  let mean = lnMedian(c, ctx, vs30, z25, a1100);
  if (imt.kind === 'SA' && imt.period < 0.25) mean = Math.max(mean, lnMedian(TABLE.pga, ctx, vs30, z25, a1100));
  const m = ctx.rupture.mag;
  const p = TABLE.pga;
  const tauY = ramp(m, c.tau_1, c.tau_2);
  const phiY = ramp(m, c.phi_1, c.phi_2);
  const tauPga = ramp(m, p.tau_1, p.tau_2);
  const phiPga = ramp(m, p.phi_1, p.phi_2);
  const v = vs30 / c.k_1;
  const alpha = vs30 < c.k_1 ? c.k_2 * a1100 * (1 / (a1100 + C_SITE * v ** N_SITE) - 1 / (a1100 + C_SITE)) : 0;
  const phiAf = c.phi_lnAF;
  const phiYB = Math.sqrt(phiY ** 2 - phiAf ** 2);
  const phiPgaB = Math.sqrt(phiPga ** 2 - p.phi_lnAF ** 2);
  const rho = c.rho_lnPGAlnY;
  const tau = Math.sqrt(tauY ** 2 + alpha ** 2 * tauPga ** 2 + 2 * alpha * rho * tauY * tauPga);
  const phi = Math.sqrt(phiYB ** 2 + phiAf ** 2 + alpha ** 2 * phiPgaB ** 2 + 2 * alpha * rho * phiYB * phiPgaB);
  return groundMotion(mean, tau, phi);
}

export function cb14(): Gmpe {
  const predict = (ctx: GmpeContext, imt: Imt): GroundMotion => {
    if (imt.kind === 'SA' && !coefficientsFor(TABLE, imt)) {
      const g = interpolatedPeriod(PERIODS, imt.period, (period) => tabled(ctx, { kind: 'SA', period }), 'CB14');
      return groundMotion(g.mean, g.tau, g.phi);
    }
    return tabled(ctx, imt);
  };
  return {
    id: 'CB14',
    citation: 'Campbell, K. W., Bozorgnia, Y. (2014) Earthquake Spectra 30(3), 1087-1115. doi:10.1193/062913EQS175M',
    periods: PERIODS,
    pgv: true,
    predict,
  };
}
