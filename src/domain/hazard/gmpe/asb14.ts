// Akkar, Sandikkaya and Bommer (2014), Europe and the Middle East (Bull. Earthquake Eng. 12,
// 359-387), the Joyner-Boore distance model. Functional form of the paper: the reference-rock
// prediction (eqs 2a-2b, hinge magnitude c1, reference Vs30 750 m/s) with normal and reverse
// style-of-faulting terms, and the site amplification (eqs 3a-3b): nonlinear below the reference
// velocity over the reference-rock PGA, linear up to V_con above it. Standard deviations are the
// paper's homoscedastic between-event, within-event and total values. Style of faulting from the
// rake: normal -150 < rake < -30, reverse 30 < rake < 150, strike-slip otherwise.
import { coefficientTable, periodsOf, requireCoefficients } from './coefficients.js';
import { ASB14_COLUMNS, ASB14_RJB_ROWS } from './asb14-coefficients.js';
import type { Gmpe, GmpeContext, GroundMotion, Imt } from './types.js';

const TABLE = coefficientTable(ASB14_COLUMNS, ASB14_RJB_ROWS);
type C = Readonly<Record<(typeof ASB14_COLUMNS)[number], number>>;

function referenceRock(c: C, ctx: GmpeContext): number {
  const { mag, rake } = ctx.rupture;
  const fn = rake > -150 && rake < -30 ? 1 : 0;
  const fr = rake > 30 && rake < 150 ? 1 : 0;
  const magnitude = (mag <= c.c_1 ? c.a_2 : c.a_7) * (mag - c.c_1) + c.a_3 * (8.5 - mag) ** 2;
  const distance = (c.a_4 + c.a_5 * (mag - c.c_1)) * Math.log(Math.hypot(ctx.distances.rjb, c.a_6));
  return c.a_1 + magnitude + distance + c.a_8 * fn + c.a_9 * fr;
}

function siteTerm(c: C, vs30: number, pgaRef: number): number {
  if (vs30 > c.v_ref) return c.b_1 * Math.log(Math.min(vs30, c.v_con) / c.v_ref);
  const ratio = vs30 / c.v_ref;
  return c.b_1 * Math.log(ratio) + c.b_2 * Math.log((pgaRef + c.c * ratio ** c.n) / ((pgaRef + c.c) * ratio ** c.n));
}

export function asb14(): Gmpe {
  return {
    id: 'ASB14',
    citation: 'Akkar, S., Sandikkaya, M. A., Bommer, J. J. (2014) Bull. Earthquake Eng. 12, 359-387. doi:10.1007/s10518-013-9461-4',
    periods: periodsOf(TABLE),
    pgv: true,
    predict(ctx: GmpeContext, imt: Imt): GroundMotion {
      const c = requireCoefficients(TABLE, imt, 'ASB14');
      const pgaRef = Math.exp(referenceRock(TABLE.pga, ctx));
      const mean = referenceRock(c, ctx) + siteTerm(c, ctx.site.vs30, pgaRef);
      return { mean, tau: c.sd_between, phi: c.sd_within, sigma: c.sd_total };
    },
  };
}
