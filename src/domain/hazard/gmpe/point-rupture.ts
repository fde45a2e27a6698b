// OpenQuake's plane for a point rupture, as its point sources build one (openquake/hazardlib/source/
// point.py, PointSource, over openquake/hazardlib/geo/surface/planar.py, get_rupdims and
// _build_corners). Size: the median area of the magnitude-scaling relation, WC1994 as OpenQuake
// writes it (openquake/hazardlib/scalerel/wc1994.py, WC1994.get_median_area), split by the aspect
// ratio: length = sqrt(area x ratio), width = area / length; a width that does not fit between the
// upper and lower seismogenic depths at the dip is cut to fit and the length grown to keep the area.
// Position: the hypocentre at the plane's centre; a plane whose top is above the upper depth is moved
// down dip, one whose bottom is below the lower depth up dip, just far enough; the hypocentre stays
// where it is, on the plane. The geometry and distances are rupture.ts'.
import { placedPlane, type PlanarRupture, type RuptureInput } from './rupture.js';

export const OPENQUAKE_MAGNITUDE_SCALING = 'WC1994 median rupture area as OpenQuake writes it (openquake/hazardlib/scalerel/wc1994.py, WC1994.get_median_area: strike-slip for -45 <= rake <= 45 or |rake| >= 135, log10 A = -3.42 + 0.90 M; reverse for 45 < rake < 135, -3.99 + 0.98 M; normal for -135 < rake < -45, -2.87 + 0.82 M), split by the aspect ratio';

/** The seismogenic layer a point rupture is kept in, km; a null floor: none (only the top applies). */
export interface SeismogenicLayer {
  readonly upper_km: number;
  readonly lower_km: number | null;
}

/** WC1994's median rupture area (km2), the rake read as OpenQuake reads it. */
export function wc1994MedianArea(mag: number, rake: number): number {
  if ((rake >= -45 && rake <= 45) || rake >= 135 || rake <= -135) return 10 ** (-3.42 + 0.9 * mag);
  if (rake > 0) return 10 ** (-3.99 + 0.98 * mag);
  return 10 ** (-2.87 + 0.82 * mag);
}

/** The point rupture's plane by OpenQuake's rule, for a hypocentre inside the layer. */
export function openQuakePointRupture(input: RuptureInput, aspectRatio: number, layer: SeismogenicLayer): PlanarRupture {
  const area = wc1994MedianArea(input.mag, input.rake);
  const sinDip = Math.sin((input.dip * Math.PI) / 180);
  const floor = layer.lower_km ?? Number.POSITIVE_INFINITY;
  let length = Math.sqrt(area * aspectRatio);
  let width = area / length;
  const widest = (floor - layer.upper_km) / sinDip;
  if (width > widest) {
    width = widest;
    length = area / width;
  }
  const half = (width * sinDip) / 2;
  let centre = input.depth_km;
  if (centre - half < layer.upper_km) centre = layer.upper_km + half;
  else if (centre + half > floor) centre = floor - half;
  return placedPlane(input, length, width, centre - half);
}
