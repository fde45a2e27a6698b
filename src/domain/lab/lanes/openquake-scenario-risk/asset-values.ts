// An asset's value, deductible and insurance limit for a loss type, and the site whose ground
// motion it takes, as OpenQuake reads them. Pure.
//
// Values (openquake/risklib/asset.py, CostCalculator.__call__): aggregated costs are the value;
// per_asset costs are multiplied by the asset's number; per_area costs by its area, and by its
// number too when the exposure's area type is per_asset. Occupants are the mean over the
// occupancy periods the asset lists (asset.py, calc_occupants_avg).
//
// Deductible and insuranceLimit (the <cost deductible insuranceLimit> attributes OpenQuake read
// into Asset.deductible and Asset.insurance_limit): an absolute amount (the exposure's
// <deductible isAbsolute>, true when absent) goes through the cost calculator as the value does; a
// relative one is a fraction of the asset's value. OpenQuake 2.x passed relative figures through
// the calculator too, which scales a fraction by the number for per_asset costs; that is not done here.
//
// Site association (openquake/commonlib/readinput.py get_sitecol_assetcol, geo/utils.py assoc in
// 'filter' mode): each asset takes the ground motion of its closest site, and an asset farther than
// asset_hazard_distance (15 km by default, as oqvalidation.py) from every site is discarded.
import { haversineKm, normalizeLongitude } from '../../../geo.js';
import type { OqAsset, OqExposureModel, OqSite } from './oq-inputs.js';

/** OpenQuake's default asset_hazard_distance, km. */
export const ASSET_HAZARD_DISTANCE_KM = 15;

/** The asset's value for a loss type; undefined when the asset states no such cost. */
export function assetValue(model: OqExposureModel, asset: OqAsset, lossType: string): number | undefined {
  if (lossType === 'occupants') {
    const periods = Object.values(asset.occupants);
    return periods.length === 0 ? undefined : periods.reduce((s, x) => s + x, 0) / periods.length;
  }
  const cost = asset.costs[lossType];
  if (!cost) return undefined;
  return scaled(model, asset, lossType, cost.value);
}

function scaled(model: OqExposureModel, asset: OqAsset, lossType: string, amount: number): number {
  const type = model.cost_types.find((c) => c.name === lossType)?.type ?? 'aggregated';
  if (type === 'aggregated') return amount;
  if (type === 'per_asset') return amount * asset.number;
  return model.area?.type === 'per_asset' ? amount * asset.area * asset.number : amount * asset.area;
}

/** The deductible and limit in money for a loss type, when the asset's cost states both. */
export function insuranceTerms(model: OqExposureModel, asset: OqAsset, lossType: string): { deductible: number; limit: number } | null {
  const cost = asset.costs[lossType];
  if (!cost || cost.deductible === undefined || cost.insurance_limit === undefined) return null;
  const value = scaled(model, asset, lossType, cost.value);
  const deductible = model.deductible_is_absolute ? scaled(model, asset, lossType, cost.deductible) : cost.deductible * value;
  const limit = model.insurance_limit_is_absolute ? scaled(model, asset, lossType, cost.insurance_limit) : cost.insurance_limit * value;
  return { deductible, limit };
}

/**
 * OpenQuake's insured loss (scientific.py, insured_losses): nothing below the deductible, the
 * limit less the deductible above the limit, the loss less the deductible between.
 */
export function insuredLoss(loss: number, deductible: number, limit: number): number {
  if (loss < deductible) return 0;
  if (loss > limit) return limit - deductible;
  return loss - deductible;
}

/** A grid of sites by whole-degree cell, to find the closest site without a scan of all. */
export class SiteIndex {
  private readonly cells = new Map<string, number[]>();

  constructor(private readonly sites: readonly OqSite[]) {
    sites.forEach((s, i) => {
      const k = SiteIndex.key(Math.floor(s.lat), Math.floor(s.lon));
      const cell = this.cells.get(k);
      if (cell) cell.push(i); else this.cells.set(k, [i]);
    });
  }

  private static key(lat: number, lon: number): string {
    return `${lat}:${lon}`;
  }

  /** The index of the closest site within maxKm (ties to the lower index), or -1. */
  closest(lat: number, lon: number, maxKm: number): number {
    // One degree of latitude is 111 km; the cells searched reach maxKm in latitude and, scaled by
    // the cosine of the farther latitude, in longitude (all of them near the poles).
    const dLat = Math.ceil(maxKm / 111);
    const cos = Math.cos((Math.min(89.9, Math.abs(lat) + dLat) * Math.PI) / 180);
    const dLon = Math.min(180, Math.ceil(maxKm / (111 * cos)));
    const la = Math.floor(lat);
    const lo = Math.floor(lon);
    let best = -1;
    let bestKm = Infinity;
    for (let i = la - dLat; i <= la + dLat; i++) {
      for (let j = lo - dLon; j <= lo + dLon; j++) {
        const wrapped = normalizeLongitude(j);
        for (const s of this.cells.get(SiteIndex.key(i, wrapped)) ?? []) {
          const site = this.sites[s]!;
          const km = haversineKm({ latitude: lat, longitude: lon }, { latitude: site.lat, longitude: site.lon });
          if (km <= maxKm && (km < bestKm || (km === bestKm && s < best))) { best = s; bestKm = km; }
        }
      }
    }
    return best;
  }
}
