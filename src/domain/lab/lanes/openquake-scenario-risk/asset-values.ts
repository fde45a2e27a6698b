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

const KM_PER_DEGREE = 111.19;

/**
 * The sites on a grid whose cell is sized to hold about one site (the sites' box shared among
 * them, between 0.001° and 1°), searched ring by ring outward from an asset's cell until no
 * nearer site can lie farther out.
 */
export class SiteIndex {
  private readonly cells = new Map<number, number[]>();
  private readonly size: number;
  private readonly lonCells: number;

  constructor(private readonly sites: readonly OqSite[]) {
    let latLo = 90, latHi = -90, lonLo = 180, lonHi = -180;
    for (const s of sites) {
      latLo = Math.min(latLo, s.lat); latHi = Math.max(latHi, s.lat);
      lonLo = Math.min(lonLo, s.lon); lonHi = Math.max(lonHi, s.lon);
    }
    const area = Math.max(latHi - latLo, 0.001) * Math.max(lonHi - lonLo, 0.001);
    this.size = Math.min(1, Math.max(0.001, Math.sqrt(area / Math.max(1, sites.length))));
    this.lonCells = Math.ceil(360 / this.size);
    sites.forEach((s, i) => {
      const k = this.key(this.row(s.lat), this.col(s.lon));
      const cell = this.cells.get(k);
      if (cell) cell.push(i); else this.cells.set(k, [i]);
    });
  }

  private row(lat: number): number { return Math.floor((lat + 90) / this.size); }
  private col(lon: number): number { return Math.floor((normalizeLongitude(lon) + 180) / this.size); }
  private key(row: number, col: number): number { return row * this.lonCells + (((col % this.lonCells) + this.lonCells) % this.lonCells); }

  private visit(lat: number, lon: number, row: number, col: number, best: { site: number; km: number }, maxKm: number): void {
    const cell = this.cells.get(this.key(row, col));
    if (!cell) return;
    for (const s of cell) this.consider(lat, lon, s, best, maxKm);
  }

  private consider(lat: number, lon: number, s: number, best: { site: number; km: number }, maxKm: number): void {
    const site = this.sites[s]!;
    const km = haversineKm({ latitude: lat, longitude: lon }, { latitude: site.lat, longitude: site.lon });
    if (km <= maxKm && (km < best.km || (km === best.km && s < best.site))) { best.site = s; best.km = km; }
  }

  /** The index of the closest site within maxKm (ties to the lower index), or -1. */
  closest(lat: number, lon: number, maxKm: number): number {
    const best = { site: -1, km: Infinity };
    // Rings that can hold a site within maxKm: in latitude, and in longitude at the farthest latitude reached.
    const latRings = Math.ceil(maxKm / (this.size * KM_PER_DEGREE)) + 1;
    const farthest = Math.abs(lat) + (latRings + 1) * this.size;
    const cos = Math.cos((Math.min(89.99, farthest) * Math.PI) / 180);
    const lonRings = Math.ceil(maxKm / (this.size * KM_PER_DEGREE * cos)) + 1;
    if (farthest >= 89.99 || 2 * lonRings + 1 >= this.lonCells || (2 * latRings + 1) * (2 * lonRings + 1) > 4 * this.sites.length) {
      // Within reach of a pole (where a site across it is near in km and far in longitude), or
      // more cells than sites to look at: every site, once.
      for (let s = 0; s < this.sites.length; s++) this.consider(lat, lon, s, best, maxKm);
      return best.site;
    }
    const row = this.row(lat);
    const col = this.col(lon);
    for (let r = 0; r <= Math.max(latRings, lonRings); r++) {
      // A site r rings out is at least r - 1 cells away in latitude or in longitude.
      if (Math.max(0, r - 1) * this.size * KM_PER_DEGREE * cos > best.km) break;
      const dj = Math.min(r, lonRings);
      for (let i = row - Math.min(r, latRings); i <= row + Math.min(r, latRings); i++) {
        if (Math.abs(i - row) === r) {
          for (let j = col - dj; j <= col + dj; j++) this.visit(lat, lon, i, j, best, maxKm);
        } else if (r <= lonRings) {
          this.visit(lat, lon, i, col - r, best, maxKm);
          if (r > 0) this.visit(lat, lon, i, col + r, best, maxKm);
        }
      }
    }
    return best.site;
  }
}
