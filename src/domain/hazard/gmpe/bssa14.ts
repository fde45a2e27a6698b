// Boore, Stewart, Seyhan and Atkinson (2014), NGA-West2 model for shallow crustal earthquakes in
// active regions (Earthquake Spectra 30(3), 1057-1085). Functional form of the paper: event term
// (eqs 2-5), path term with the global anelastic attenuation, Delta c3 = 0 (eqs 3-4), site term of
// linear and nonlinear amplification (eqs 6-8) over the rock PGA (Vs30 = 760 m/s) and, for the
// California region, the basin term over delta z1 (eqs 9-11, Chiou and Youngs 2014's mean z1 for
// California); aleatory variability (eqs 12-17). Style of faulting from the rake as the paper
// classes it: normal -150 < rake < -30, reverse 30 < rake < 150, strike-slip otherwise.
import { coefficientTable, coefficientsFor, interpolatedPeriod, periodsOf, requireCoefficients } from './coefficients.js';
import { BSSA14_COLUMNS, BSSA14_ROWS } from './bssa14-coefficients.js';
import { groundMotion, type Gmpe, type GmpeContext, type GroundMotion, type Imt } from './types.js';

const TABLE = coefficientTable(BSSA14_COLUMNS, BSSA14_ROWS);
type C = Readonly<Record<(typeof BSSA14_COLUMNS)[number], number>>;

export type Bssa14Region = 'global' | 'california';

function mechanismTerm(c: C, rake: number): number {
  if (rake > -150 && rake < -30) return c.e_2;
  if (rake > 30 && rake < 150) return c.e_3;
  return c.e_1;
}

/** Event and path terms: ln of the response at the reference rock (Vs30 = 760 m/s). */
function rockTerms(c: C, ctx: GmpeContext): number {
  const { mag, rake } = ctx.rupture;
  const dm = mag - c.M_h;
  const event = mechanismTerm(c, rake) + (mag <= c.M_h ? c.e_4 * dm + c.e_5 * dm * dm : c.e_6 * dm);
  const r = Math.hypot(ctx.distances.rjb, c.h);
  const path = (c.c_1 + c.c_2 * (mag - c.M_ref)) * Math.log(r / c.R_ref) + (c.c_3 + c.dc_3global) * (r - c.R_ref);
  return event + path;
}

/** Chiou and Youngs (2014) mean depth to Vs = 1 km/s in California, km. */
export function californiaMeanZ1Km(vs30: number): number {
  return Math.exp((-7.15 / 4) * Math.log((vs30 ** 4 + 570.94 ** 4) / (1360 ** 4 + 570.94 ** 4))) / 1000;
}

function siteTerm(c: C, period: number, vs30: number, z1pt0M: number, pgaRock: number, region: Bssa14Region): number {
  const lin = c.c * Math.log(Math.min(vs30, c.V_c) / c.V_ref);
  const f2 = c.f_4 * (Math.exp(c.f_5 * (Math.min(vs30, 760) - 360)) - Math.exp(c.f_5 * (760 - 360)));
  const nl = c.f_1 + f2 * Math.log((pgaRock + c.f_3) / c.f_3);
  let basin = 0;
  if (region === 'california' && period >= 0.65 && Number.isFinite(z1pt0M)) {
    const dz1 = z1pt0M / 1000 - californiaMeanZ1Km(vs30);
    basin = dz1 <= c.f_7 / c.f_6 ? c.f_6 * dz1 : c.f_7;
  }
  return lin + nl + basin;
}

function sigmaTerms(c: C, ctx: GmpeContext): { tau: number; phi: number } {
  const { mag } = ctx.rupture;
  const { rjb } = ctx.distances;
  const vs30 = ctx.site.vs30;
  const ramp = (a: number, b: number) => (mag <= 4.5 ? a : mag >= 5.5 ? b : a + (b - a) * (mag - 4.5));
  const tau = ramp(c.tau_1, c.tau_2);
  let phi = ramp(c.phi_1, c.phi_2);
  if (rjb > c.R_2) phi += c.dphi_R;
  else if (rjb > c.R_1) phi += c.dphi_R * (Math.log(rjb / c.R_1) / Math.log(c.R_2 / c.R_1));
  if (vs30 <= c.V_1) phi -= c.dphi_V;
  else if (vs30 < c.V_2) phi -= c.dphi_V * (Math.log(c.V_2 / vs30) / Math.log(c.V_2 / c.V_1));
  return { tau, phi };
}

const PERIODS = periodsOf(TABLE);

export function bssa14(region: Bssa14Region = 'global'): Gmpe {
  const predict = (ctx: GmpeContext, imt: Imt): GroundMotion => {
    if (imt.kind === 'SA' && !coefficientsFor(TABLE, imt)) {
      const g = interpolatedPeriod(PERIODS, imt.period, (p) => predict(ctx, { kind: 'SA', period: p }), 'BSSA14');
      return groundMotion(g.mean, g.tau, g.phi);
    }
    return tabled(ctx, imt);
  };
  const tabled = (ctx: GmpeContext, imt: Imt): GroundMotion => {
      const c = requireCoefficients(TABLE, imt, 'BSSA14');
      const pgaRock = Math.exp(rockTerms(TABLE.pga, ctx));
      const period = imt.kind === 'SA' ? imt.period : 0;
      const mean = rockTerms(c, ctx) + siteTerm(c, period, ctx.site.vs30, ctx.site.z1pt0, pgaRock, region);
      const { tau, phi } = sigmaTerms(c, ctx);
      return groundMotion(mean, tau, phi);
  };
  return {
    id: region === 'global' ? 'BSSA14' : 'BSSA14CAL',
    citation: 'Boore, D. M., Stewart, J. P., Seyhan, E., Atkinson, G. M. (2014) Earthquake Spectra 30(3), 1057-1085. doi:10.1193/070113EQS184M',
    periods: PERIODS,
    pgv: true,
    predict,
  };
}

