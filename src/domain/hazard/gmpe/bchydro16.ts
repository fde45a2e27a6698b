// BC Hydro: Abrahamson, Gregor and Addo (2016), subduction interface and in-slab earthquakes
// (Earthquake Spectra 32(1), 23-44). Functional form of the paper (eqs 1-6): magnitude scaling with
// the break magnitude C1 + Delta C1 (C1 = 7.8), geometric spreading and anelastic attenuation over
// Rrup (interface) or Rhypo (in-slab), the in-slab depth term, the forearc/backarc term for
// back-arc sites, and the site term over the rock PGA (Vs30 = 1000 m/s). Central magnitude-scaling
// branch: Delta C1 = -0.3 in-slab; for the interface 0.2 up to 0.3 s, 0.1 at 0.5 s, 0 at 1 s, -0.1 at
// 2 s, -0.2 from 3 s, linear in ln(period) between. Homoscedastic: tau 0.43, phi 0.60 and the total
// the paper states, 0.74 (not recomputed from tau and phi, which would give 0.738).
import { coefficientTable, coefficientsFor, interpolatedPeriod, periodsOf, requireCoefficients } from './coefficients.js';
import { BCHYDRO16_COLUMNS, BCHYDRO16_ROWS } from './bchydro16-coefficients.js';
import { type Gmpe, type GmpeContext, type GroundMotion, type Imt } from './types.js';

const TABLE = coefficientTable(BCHYDRO16_COLUMNS, BCHYDRO16_ROWS);
const PERIODS = periodsOf(TABLE);
type C = Readonly<Record<(typeof BCHYDRO16_COLUMNS)[number], number>>;

export type SubductionEvent = 'interface' | 'slab';
const C1 = 7.8;
const PAPER_SIGMA = 0.74;

/** The central branch's Delta C1 for a period (PGA as 0 s). */
export function deltaC1(event: SubductionEvent, period: number): number {
  if (event === 'slab') return -0.3;
  const knots = [[0.3, 0.2], [0.5, 0.1], [1, 0], [2, -0.1], [3, -0.2]] as const;
  if (period <= knots[0][0]) return knots[0][1];
  if (period >= knots[knots.length - 1]![0]) return knots[knots.length - 1]![1];
  const i = knots.findIndex(([p]) => p >= period);
  const [p0, v0] = knots[i - 1]!;
  const [p1, v1] = knots[i]!;
  return v0 + ((v1 - v0) * Math.log(period / p0)) / Math.log(p1 / p0);
}

function lnMedian(c: C, period: number, event: SubductionEvent, ctx: GmpeContext, vs30: number, pga1000: number | null): number {
  const m = ctx.rupture.mag;
  const slab = event === 'slab' ? 1 : 0;
  const r = slab ? ctx.distances.rhypo : ctx.distances.rrup;
  const dc1 = deltaC1(event, period);
  const fMag = (m <= C1 + dc1 ? c.t_4 : c.t_5) * (m - (C1 + dc1)) + c.t_13 * (10 - m) ** 2;
  const path = (c.t_2 + c.t_14 * slab + c.t_3 * (m - 7.8)) * Math.log(r + c.c_4 * Math.exp(c.t_9 * (m - 6))) + c.t_6 * r;
  const fDepth = slab ? c.t_11 * (Math.min(ctx.rupture.hypo_depth, 120) - 60) : 0;
  const fFaba = !ctx.site.backarc ? 0 : slab ? c.t_7 + c.t_8 * Math.log(Math.max(r, 85) / 40) : c.t_15 + c.t_16 * Math.log(Math.max(r, 100) / 40);
  const ratio = Math.min(vs30, 1000) / c.v_lin;
  const fSite = vs30 < c.v_lin
    ? c.t_12 * Math.log(ratio) - c.b * Math.log(pga1000! + c.c) + c.b * Math.log(pga1000! + c.c * ratio ** c.n)
    : (c.t_12 + c.b * c.n) * Math.log(ratio);
  return c.t_1 + c.t_4 * dc1 + path + c.t_10 * slab + fMag + fDepth + fFaba + fSite;
}

export function bcHydro2016(event: SubductionEvent): Gmpe {
  const tabled = (ctx: GmpeContext, imt: Imt): GroundMotion => {
    const c = requireCoefficients(TABLE, imt, 'BC Hydro 2016');
    const period = imt.kind === 'SA' ? imt.period : 0;
    const pga1000 = Math.exp(lnMedian(TABLE.pga, 0, event, ctx, 1000, null));
    const mean = lnMedian(c, period, event, ctx, ctx.site.vs30, pga1000);
    return { mean, tau: c.tau, phi: c.phi, sigma: PAPER_SIGMA };
  };
  return {
    id: event === 'slab' ? 'BCHydro16Slab' : 'BCHydro16Interface',
    citation: 'Abrahamson, N., Gregor, N., Addo, K. (2016) Earthquake Spectra 32(1), 23-44. doi:10.1193/051712EQS188MR',
    periods: PERIODS,
    pgv: false,
    predict(ctx, imt) {
      if (imt.kind === 'SA' && !coefficientsFor(TABLE, imt)) {
        const g = interpolatedPeriod(PERIODS, imt.period, (period) => tabled(ctx, { kind: 'SA', period }), 'BC Hydro 2016');
        return { mean: g.mean, tau: g.tau, phi: g.phi, sigma: PAPER_SIGMA };
      }
      return tabled(ctx, imt);
    },
  };
}
