// The rupture of an event conditioned on its stations, for the GMPEs' distances and rupture terms.
// - A finite-fault outline (ShakeMap's rupture.json): each quadrilateral a plane (strike along its top
//   edge, dip from the bottom edge's offset, ztor its top depth). A place's Rrup and Rjb are the least
//   over the planes, as OpenQuake's multi-surface takes them (openquake/hazardlib/geo/surface/
//   multi.py, MultiSurface.get_min_distance and get_joyner_boore_distance); Rx and Ry0 are the
//   nearest plane's, where OpenQuake uses the generalised coordinates (GC2) of the whole trace: ours,
//   an approximation, and one the GMPEs do not feel for vertical planes (Rx and Ry0 enter only their
//   hanging-wall terms, which vanish at a dip of 90 degrees). Rhypo from the event's hypocentre. The
//   GMPEs' rupture terms: ztor the shallowest top, dip the planes' length-weighted mean, width the
//   depth range over sin(dip), rake as the file gives it.
// - A moment tensor only: OpenQuake's point-rupture plane (hazard/gmpe/point-rupture.ts) on one of
//   its nodal planes. The tensor's principal axes give the planes; for a strike-slip tensor (its null
//   axis within 30 degrees of vertical), the vertical planes striking 45 degrees either side of the
//   P axis, the one at P - 45 degrees dextral (rake 180), the other sinistral. The tensor does not
//   say which plane slipped: this service takes the dextral one and says so.
// Pure.
import { EARTH_MEAN_RADIUS_KM, type GeoPoint } from '../../../geo.js';
import { distancesTo, placedPlane, type PlanarRupture } from '../../../hazard/gmpe/rupture.js';
import { openQuakePointRupture } from '../../../hazard/gmpe/point-rupture.js';
import type { Distances, Rupture } from '../../../hazard/gmpe/types.js';
import type { RupturePlaneOutline, StationEvent, StationEventRupture } from './station-data.js';
import { DEFAULT_ASPECT_RATIO } from './rupture-placement.js';

const RAD = Math.PI / 180;

export interface StationRupture {
  /** The rupture terms the GMPEs read. */
  readonly terms: Rupture;
  readonly mechanism: 'strike-slip' | 'reverse' | 'normal';
  readonly dip: number;
  distances(site: GeoPoint): Distances;
  /** How the result describes it. */
  readonly words: Record<string, unknown>;
}

/** One outline quadrilateral as a plane through its top edge. */
function planeOf(q: RupturePlaneOutline, mag: number, rake: number): PlanarRupture {
  const [a, b] = q.top;
  const lat0 = a.lat * RAD;
  const xy = (p: { lon: number; lat: number }) => ({ x: (p.lon - a.lon) * RAD * EARTH_MEAN_RADIUS_KM * Math.cos(lat0), y: (p.lat - a.lat) * RAD * EARTH_MEAN_RADIUS_KM });
  const B = xy(b);
  const length = Math.hypot(B.x, B.y);
  let strike = (Math.atan2(B.x, B.y) / RAD + 360) % 360;
  // The bottom edge's horizontal offset across strike: positive to the right of the strike direction.
  const mid = xy({ lon: (q.bottom[0].lon + q.bottom[1].lon) / 2, lat: (q.bottom[0].lat + q.bottom[1].lat) / 2 });
  const across = (mid.x - B.x / 2) * Math.cos(strike * RAD) - (mid.y - B.y / 2) * Math.sin(strike * RAD);
  const ztor = (a.depth_km + b.depth_km) / 2;
  const dz = (q.bottom[0].depth_km + q.bottom[1].depth_km) / 2 - ztor;
  const dip = Math.abs(across) < 1e-6 ? 90 : Math.atan2(dz, Math.abs(across)) / RAD;
  const top = { lon: (a.lon + b.lon) / 2, lat: (a.lat + b.lat) / 2 };
  if (across < -1e-6) strike = (strike + 180) % 360; // the plane dips to the left: walk the edge the other way
  const width = dz / Math.sin(dip * RAD);
  return placedPlane({ mag, lat: top.lat, lon: top.lon, depth_km: ztor, strike, dip, rake }, length, width, ztor);
}

function finiteRupture(event: StationEvent, r: Extract<StationEventRupture, { kind: 'finite' }>): StationRupture {
  const planes = r.planes.map((q) => planeOf(q, event.magnitude, r.rake));
  const total = planes.reduce((s, p) => s + p.length_km, 0);
  const dip = planes.reduce((s, p) => s + p.dip * p.length_km, 0) / total;
  const ztor = Math.min(...planes.map((p) => p.ztor_km));
  const bottom = Math.max(...planes.map((p) => p.ztor_km + p.width_km * Math.sin(p.dip * RAD)));
  const hypo = { latitude: event.lat, longitude: event.lon };
  return {
    terms: { mag: event.magnitude, rake: r.rake, dip, ztor, width: (bottom - ztor) / Math.sin(dip * RAD), hypo_depth: event.depth_km },
    mechanism: mechanismOf(r.rake),
    dip,
    distances(site) {
      let best: Distances | undefined;
      let rjb = Infinity;
      for (const p of planes) {
        const d = distancesTo(p, site);
        rjb = Math.min(rjb, d.rjb);
        if (!best || d.rrup < best.rrup) best = d;
      }
      const h = Math.hypot(surfaceKm(hypo, site), event.depth_km);
      return { ...best!, rjb, rhypo: h };
    },
    words: {
      kind: 'finite fault',
      source: `${r.file}: ${r.reference}`,
      planes: planes.length,
      length_km: Number(total.toFixed(1)),
      ztor_km: ztor, bottom_km: Number(bottom.toFixed(2)), dip: Number(dip.toFixed(2)), rake: r.rake,
      distances: 'Rrup and Rjb the least over the planes (as OpenQuake\'s MultiSurface); Rx and Ry0 the nearest plane\'s (OpenQuake uses GC2 over the whole trace; the GMPEs read them only in hanging-wall terms, zero for vertical planes); Rhypo from the hypocentre',
    },
  };
}

const mechanismOf = (rake: number) => (rake > -150 && rake < -30 ? 'normal' : rake > 30 && rake < 150 ? 'reverse' : 'strike-slip');

function surfaceKm(a: GeoPoint, b: GeoPoint): number {
  const h = Math.sin(((b.latitude - a.latitude) * RAD) / 2) ** 2 + Math.cos(a.latitude * RAD) * Math.cos(b.latitude * RAD) * Math.sin(((b.longitude - a.longitude) * RAD) / 2) ** 2;
  return 2 * EARTH_MEAN_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

function momentTensorRupture(event: StationEvent, r: Extract<StationEventRupture, { kind: 'moment_tensor' }>): StationRupture {
  if (r.n.plunge < 60) throw new Error(`the moment tensor's null axis plunges ${r.n.plunge} degrees: only a strike-slip tensor (null axis within 30 degrees of vertical) is read into a plane here`);
  const strike = (((r.p.azimuth - 45) % 360) + 360) % 360;
  const input = { mag: event.magnitude, lat: event.lat, lon: event.lon, depth_km: event.depth_km, strike, dip: 90, rake: 180 };
  const plane = openQuakePointRupture(input, DEFAULT_ASPECT_RATIO, { upper_km: 0, lower_km: null });
  return {
    terms: { mag: plane.mag, rake: plane.rake, dip: plane.dip, ztor: plane.ztor_km, width: plane.width_km, hypo_depth: plane.hypocentre.depth_km },
    mechanism: 'strike-slip',
    dip: 90,
    distances: (site) => distancesTo(plane, site),
    words: {
      kind: 'point rupture on a nodal plane of the moment tensor',
      source: `${r.file}: P axis azimuth ${r.p.azimuth}, plunge ${r.p.plunge}; T axis ${r.t.azimuth}, ${r.t.plunge}; null axis plunge ${r.n.plunge}`,
      nodal_plane: `strike ${Number(strike.toFixed(1))}, dip 90, rake 180: of the two vertical nodal planes 45 degrees either side of the P axis, the dextral one (P - 45 degrees); the tensor does not say which plane slipped, this service takes the dextral one`,
      placement: `OpenQuake's point-rupture plane (openquake/hazardlib/source/point.py, planar.py get_rupdims; WC1994 area, aspect ratio ${DEFAULT_ASPECT_RATIO}, from the surface with no floor), hypocentre at its centre`,
      length_km: Number(plane.length_km.toFixed(2)), width_km: Number(plane.width_km.toFixed(2)), ztor_km: Number(plane.ztor_km.toFixed(2)),
    },
  };
}

/** The event's rupture for the GMPEs. */
export function stationRupture(event: StationEvent, rupture: StationEventRupture): StationRupture {
  return rupture.kind === 'finite' ? finiteRupture(event, rupture) : momentTensorRupture(event, rupture);
}
