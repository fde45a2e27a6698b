// Where a scenario's rupture plane lies about its hypocentre: the spec's placement members, their
// defaults, and the plane they give.
//
// openquake_point_source (the default from revision r2): OpenQuake's point-rupture plane
// (hazard/gmpe/point-rupture.ts: WC1994 area, aspect ratio, kept between the upper and lower
// seismogenic depths). The aspect ratio defaults to 2, what OpenQuake's scenario takes for a rupture
// given as a dictionary with a magnitude-scaling relation (openquake/hazardlib/source/rupture.py,
// build_planar_rupture_from_dict); the layer to the surface on top and no floor below, so a plane is
// moved only to stay below the surface, as that function's build_planar does.
// seismogenic_layer_20km (revision r1's only rule): Wells and Coppersmith (1994) area and width, kept
// between the surface and 20 km for a hypocentre in that layer (hazard/gmpe/rupture.ts). Moving a
// plane up to that floor moves it towards the places up dip by kilometres.
import { MAGNITUDE_SCALING, planarRupture, type PlanarRupture, type RuptureInput } from '../../../hazard/gmpe/rupture.js';
import { openQuakePointRupture, OPENQUAKE_MAGNITUDE_SCALING } from '../../../hazard/gmpe/point-rupture.js';

export const PLACEMENTS = ['openquake_point_source', 'seismogenic_layer_20km'] as const;
export type Placement = (typeof PLACEMENTS)[number];
export const DEFAULT_PLACEMENT: Placement = 'openquake_point_source';
export const DEFAULT_ASPECT_RATIO = 2;
export const ASPECT_RATIO_MAX = 10;
export const LOWER_SEISMOGENIC_DEPTH_MAX_KM = 300;

/** The placement members of a normalised rupture (the three numbers for openquake_point_source only; no floor when the lower depth is absent). */
export interface RupturePlacement {
  readonly placement: Placement;
  readonly aspect_ratio?: number;
  readonly upper_seismogenic_depth_km?: number;
  readonly lower_seismogenic_depth_km?: number;
}

const LAYER_MEMBERS = ['aspect_ratio', 'upper_seismogenic_depth_km', 'lower_seismogenic_depth_km'] as const;
export const PLACEMENT_MEMBERS: readonly string[] = ['placement', ...LAYER_MEMBERS];

type NumberReader = (v: unknown, lo: number, hi: number, name: string, faults: string[], open?: boolean) => number | undefined;

/** The rupture's placement members, with their defaults; faults named into `faults`. */
export function readPlacement(v: Readonly<Record<string, unknown>>, depthKm: number | undefined, numberIn: NumberReader, faults: string[]): RupturePlacement | undefined {
  const placement = v.placement === undefined ? DEFAULT_PLACEMENT : PLACEMENTS.find((p) => p === v.placement);
  if (!placement) { faults.push(`rupture.placement must be one of ${PLACEMENTS.join(', ')}`); return undefined; }
  if (placement === 'seismogenic_layer_20km') {
    const given = LAYER_MEMBERS.filter((k) => v[k] !== undefined);
    if (given.length) { faults.push(`${given.map((k) => `rupture.${k}`).join(', ')} ${given.length > 1 ? 'apply' : 'applies'} to placement openquake_point_source only`); return undefined; }
    return { placement };
  }
  const aspect = v.aspect_ratio === undefined ? DEFAULT_ASPECT_RATIO : numberIn(v.aspect_ratio, 0, ASPECT_RATIO_MAX, 'rupture.aspect_ratio', faults, true);
  const upper = v.upper_seismogenic_depth_km === undefined ? 0 : numberIn(v.upper_seismogenic_depth_km, 0, LOWER_SEISMOGENIC_DEPTH_MAX_KM, 'rupture.upper_seismogenic_depth_km', faults);
  const lower = v.lower_seismogenic_depth_km === undefined ? undefined : numberIn(v.lower_seismogenic_depth_km, 0, LOWER_SEISMOGENIC_DEPTH_MAX_KM, 'rupture.lower_seismogenic_depth_km', faults, true);
  if (aspect === undefined || upper === undefined || (v.lower_seismogenic_depth_km !== undefined && lower === undefined)) return undefined;
  if (lower !== undefined && !(lower > upper)) { faults.push('rupture.lower_seismogenic_depth_km must be deeper than rupture.upper_seismogenic_depth_km'); return undefined; }
  // OpenQuake's point sources hold every hypocentre inside the layer (PointSource.__init__).
  if (depthKm !== undefined && (depthKm < upper || (lower !== undefined && depthKm > lower))) {
    faults.push(`rupture.depth_km ${depthKm} must lie between the seismogenic depths (${upper} to ${lower ?? 'no floor'} km)`);
    return undefined;
  }
  return { placement, aspect_ratio: aspect, upper_seismogenic_depth_km: upper, ...(lower !== undefined && { lower_seismogenic_depth_km: lower }) };
}

/** The plane of a rupture placed as its members say. */
export function placedRupture(input: RuptureInput, p: RupturePlacement): PlanarRupture {
  if (p.placement === 'seismogenic_layer_20km') return planarRupture(input);
  return openQuakePointRupture(input, p.aspect_ratio ?? DEFAULT_ASPECT_RATIO, { upper_km: p.upper_seismogenic_depth_km ?? 0, lower_km: p.lower_seismogenic_depth_km ?? null });
}

/** What a result says of the placement used: the rule and its magnitude-scaling relation. */
export function placementWords(p: RupturePlacement): { placement_rule: string; magnitude_scaling: string } {
  if (p.placement === 'seismogenic_layer_20km') {
    return {
      placement_rule: 'seismogenic_layer_20km (this service\'s rule of revision r1): hypocentre at the centre of the plane, the width capped by the layer from the surface to 20 km and the plane moved only as far as keeps it in that layer for a hypocentre in it, below the surface for a deeper one',
      magnitude_scaling: MAGNITUDE_SCALING,
    };
  }
  const floor = p.lower_seismogenic_depth_km === undefined ? 'no floor (as build_planar in openquake/hazardlib/source/rupture.py)' : `${p.lower_seismogenic_depth_km} km`;
  return {
    placement_rule: `openquake_point_source, OpenQuake's point-rupture plane (openquake/hazardlib/source/point.py PointSource; openquake/hazardlib/geo/surface/planar.py get_rupdims, _build_corners): length = sqrt(area x ${p.aspect_ratio}), width = area / length, the width cut to fit the seismogenic layer from ${p.upper_seismogenic_depth_km} km to ${floor} at the dip (the length grown to keep the area); hypocentre at the centre of the plane, the plane moved down or up dip only as far as keeps it in the layer`,
    magnitude_scaling: OPENQUAKE_MAGNITUDE_SCALING,
  };
}
