// The correlation models OpenQuake's conditioned ground-motion fields take by default
// (openquake/hazardlib/calc/conditioned_gmfs.py, ConditionedGmfComputer.__init__: the spatial model
// JB2009CorrelationModel with vs30_clustering from ground_motion_correlation_params, True unless
// set; between-event cross-correlation GodaAtkinson2009; within-event cross-correlation
// BakerJayaram2008), and the cross-measure spatial product conditioned_gmfs.py builds from them
// (_compute_spatial_cross_correlation_matrix). Pure.
import type { Imt } from '../../../hazard/gmpe/types.js';

/** The three correlation models a conditioning uses. */
export interface ConditioningCorrelation {
  /** Within-event spatial correlation of one measure at separation h (km). */
  spatial(imt: Imt, hKm: number): number;
  /** Within-event correlation of two measures at one place. */
  withinCross(a: Imt, b: Imt): number;
  /** Correlation of two measures' normalised between-event residuals. */
  betweenCross(a: Imt, b: Imt): number;
  /** How a result names the three. */
  readonly words: { spatial: string; within_cross: string; between_cross: string };
}

const periodOf = (imt: Imt): number => {
  if (imt.kind === 'PGV') throw new Error('the conditioning correlation models take PGA and SA only (OpenQuake leaves PGV and MMI out of conditioning)');
  return imt.kind === 'PGA' ? 0 : imt.period;
};

/**
 * Jayaram and Baker (2009) range b (km), as openquake/hazardlib/correlation.py JB2009CorrelationModel
 * writes it: T < 1 s, b = 40.7 - 15 T with Vs30 clustering (case 2, eq. 18), 8.5 + 17.2 T without
 * (case 1, eq. 17); T >= 1 s, 22 + 3.7 T (eq. 19). PGA is T = 0.
 */
export function jb2009RangeKm(imt: Imt, vs30Clustering: boolean): number {
  const t = periodOf(imt);
  if (t >= 1) return 22.0 + 3.7 * t;
  return vs30Clustering ? 40.7 - 15.0 * t : 8.5 + 17.2 * t;
}

/** Baker and Jayaram (2008) correlation of two periods' residuals (openquake/hazardlib/cross_correlation.py BakerJayaram2008.get_correlation; PGA as T = 0). */
export function bakerJayaram2008(a: Imt, b: Imt): number {
  const ta = periodOf(a);
  const tb = periodOf(b);
  if (Math.abs(ta - tb) < 1e-10) return 1;
  const tMin = Math.min(ta, tb);
  const tMax = Math.max(ta, tb);
  const c1 = 1 - Math.cos(Math.PI / 2 - 0.366 * Math.log(tMax / Math.max(tMin, 0.109)));
  let c2 = 0;
  if (tMax < 0.2) c2 = 1 - 0.105 * (1 - 1 / (1 + Math.exp(100 * tMax - 5))) * ((tMax - tMin) / (tMax - 0.0099));
  const c3 = tMax < 0.109 ? c2 : c1;
  const c4 = c1 + 0.5 * (Math.sqrt(c3) - c3) * (1 + Math.cos((Math.PI * tMin) / 0.109));
  if (tMax < 0.109) return c2;
  if (tMin > 0.109) return c1;
  if (tMax < 0.2) return Math.min(c2, c4);
  return c4;
}

/** Goda and Atkinson (2009) between-event correlation (openquake/hazardlib/cross_correlation.py GodaAtkinson2009.get_correlation; PGA as T = 0.05 s). */
export function godaAtkinson2009(a: Imt, b: Imt): number {
  const ta = periodOf(a) || 0.05;
  const tb = periodOf(b) || 0.05;
  if (ta === tb) return 1;
  const tMin = Math.min(ta, tb);
  const tMax = Math.max(ta, tb);
  const iTmin = tMin < 0.25 ? 1 : 0;
  const [theta1, theta2, theta3] = [1.374, 5.586, 0.728];
  const angle = Math.PI / 2 - (theta1 + theta2 * iTmin * (tMin / tMax) ** theta3 * Math.log10(tMin / 0.25)) * Math.log10(tMax / tMin);
  const delta = 1 + Math.cos(-1.5 * Math.log10(tMax / tMin));
  return Math.min((1 - Math.cos(angle) + delta) / 3, 1);
}

/** OpenQuake's defaults for conditioning: JB2009 with Vs30 clustering, Baker-Jayaram 2008 within, Goda-Atkinson 2009 between. */
export const OPENQUAKE_CONDITIONING_CORRELATION: ConditioningCorrelation = {
  spatial: (imt, h) => Math.exp((-3 * h) / jb2009RangeKm(imt, true)),
  withinCross: bakerJayaram2008,
  betweenCross: godaAtkinson2009,
  words: {
    spatial: 'Jayaram and Baker (2009) with Vs30 clustering (case 2), OpenQuake\'s default for conditioned fields (JB2009CorrelationModel, vs30_clustering true): rho(h) = exp(-3h/b), b = 40.7 - 15T km (T < 1 s), 22.0 + 3.7T km (T >= 1 s)',
    within_cross: 'Baker and Jayaram (2008) between measures at one place; between measures at two places, the larger of their two spatial correlations times it (openquake/hazardlib/calc/conditioned_gmfs.py _compute_spatial_cross_correlation_matrix)',
    between_cross: 'Goda and Atkinson (2009) between the normalised between-event residuals of the measures (openquake/hazardlib/cross_correlation.py GodaAtkinson2009)',
  },
};

/** Within-event correlation of measure a at one place and measure b at another h km away. */
export function spatialCross(model: ConditioningCorrelation, a: Imt, b: Imt, hKm: number): number {
  if (sameImt(a, b)) return model.spatial(a, hKm);
  return Math.max(model.spatial(a, hKm), model.spatial(b, hKm)) * model.withinCross(a, b);
}

export function sameImt(a: Imt, b: Imt): boolean {
  return a.kind === b.kind && (a.kind !== 'SA' || (b.kind === 'SA' && a.period === b.period));
}
