// Ruptures sampled from one of ESHM20's published source branches, in the manner of OpenQuake's
// event-based calculator (openquake/hazardlib/calc/stochastic.py, sample_ruptures: each rupture's
// number of occurrences in the investigation time a Poisson draw at its rate). Here the sources
// within reach of a place are turned into their ruptures' rates (eshm20-sources.ts: truncated GR bins
// at 0.1, areas as 10 km grids, faults floated on a 5 km mesh), and each sample year draws a Poisson
// number of ruptures at their summed rate, each rupture by its share of that rate: the same law as a
// draw per rupture, far cheaper over 10,000 years. The branch's sources keep their own rates: the
// logic tree's epistemic choices of the source model are not sampled (one branch of each is pinned);
// each sampled branch draws its ESHM20 ground-motion branch only. Pure.
import { poissonDraw } from '../../../stats/compound-poisson.js';
import { seededRandom } from '../../../stats/random.js';
import type { LabPlace } from '../../engine/places.js';
import {
  areaSourcePoints, DISCRETISATION, faultMesh, faultRupture, floatingRupture, medianArea, pointRupture, truncatedGrBins,
  type AreaSource, type FaultMesh, type SimpleFaultSource, type SourceModel,
} from './eshm20-sources.js';
import { gmpeBranchAt, type GmpeLogicTree } from './eshm20-backbone.js';
import type { ModeledPlace, RuptureSample, SampledBranch } from './eshm20-sample.js';

/** The ESHM20 source branches a run may read. */
export type Eshm20SourceKind = 'area_sources' | 'fault_sources';

/** OpenQuake's minimum_magnitude: ruptures below it are not generated (they do not damage the lane's building classes). */
export const MINIMUM_MAGNITUDE = 5.0;

const KM_PER_DEG = 111.19;

/** One magnitude bin of one source: its rate and, for a fault, its floating rupture's size. */
interface RateEntry {
  source: number;
  mag: number;
  rate: number;
  float?: { cols: number; rows: number; along: number; down: number };
}

interface Box { minLat: number; maxLat: number; minLon: number; maxLon: number }

function boxOf(points: readonly (readonly [number, number])[], marginKm: number): Box {
  const lats = points.map((p) => p[1]);
  const lons = points.map((p) => p[0]);
  const minLat = Math.min(...lats) - marginKm / KM_PER_DEG;
  const maxLat = Math.max(...lats) + marginKm / KM_PER_DEG;
  const cos = Math.cos(Math.min(89, Math.max(Math.abs(minLat), Math.abs(maxLat))) * Math.PI / 180);
  return { minLat, maxLat, minLon: Math.min(...lons) - marginKm / (KM_PER_DEG * cos), maxLon: Math.max(...lons) + marginKm / (KM_PER_DEG * cos) };
}

const within = (b: Box, lat: number, lon: number) => lat >= b.minLat && lat <= b.maxLat && lon >= b.minLon && lon <= b.maxLon;

/** The branch's sources as one list, each with the box a place must fall in to be within reach of it. */
function sourcesOf(model: SourceModel, kind: Eshm20SourceKind, reachKm: number): { area?: AreaSource; fault?: SimpleFaultSource; box: Box }[] {
  if (kind === 'area_sources') return model.area.map((area) => ({ area, box: boxOf(area.polygon, reachKm) }));
  // A fault's surface reaches its down-dip width beyond the trace.
  return model.faults.map((fault) => ({ fault, box: boxOf(fault.trace, reachKm + (fault.lower_depth_km - fault.upper_depth_km) / Math.tan(Math.max(fault.dip, 1) * Math.PI / 180)) }));
}

export interface Eshm20SamplingInput {
  readonly places: readonly LabPlace[];
  readonly model: SourceModel;
  readonly kind: Eshm20SourceKind;
  readonly file: string;
  readonly gmpeTree: GmpeLogicTree;
  readonly reachKm: number;
  readonly branches: number;
  readonly years: number;
  readonly seed: number;
}

/** The branch's ruptures over every sampled branch and year, the places within reach of its sources as the site model. */
export function sampleEshm20Sources(input: Eshm20SamplingInput): RuptureSample {
  const all = sourcesOf(input.model, input.kind, input.reachKm);
  const modeled: ModeledPlace[] = [];
  const unmodeled: { index: number; reason: string }[] = [];
  const reaching = new Set<number>();
  for (const p of input.places) {
    if (p.lat === null || p.lon === null) { unmodeled.push({ index: p.index, reason: 'no coordinates' }); continue; }
    let any = false;
    for (let s = 0; s < all.length; s++) if (within(all[s]!.box, p.lat, p.lon)) { any = true; reaching.add(s); }
    if (any) modeled.push({ index: p.index, lat: p.lat, lon: p.lon, value: p.value });
    else unmodeled.push({ index: p.index, reason: `farther than ${input.reachKm} km from every source of the ESHM20 branch` });
  }
  const used = [...reaching].sort((a, b) => a - b).map((s) => all[s]!);
  const points = used.map((u) => (u.area ? areaSourcePoints(u.area) : undefined));
  const meshes: (FaultMesh | undefined)[] = used.map((u) => (u.fault ? faultMesh(u.fault) : undefined));
  const entries: RateEntry[] = [];
  used.forEach((u, source) => {
    const src = u.area ?? u.fault!;
    for (const bin of truncatedGrBins(src.mfd)) {
      if (bin.mag < MINIMUM_MAGNITUDE) continue;
      entries.push({ source, mag: bin.mag, rate: bin.rate, ...(meshes[source] && { float: floatingRupture(meshes[source]!, bin.mag) }) });
    }
  });
  const total = entries.reduce((s, e) => s + e.rate, 0);
  const cumulative = new Float64Array(entries.length);
  let running = 0;
  entries.forEach((e, i) => { running += e.rate; cumulative[i] = running / total; });

  const rng0 = seededRandom(input.seed);
  const branches: SampledBranch[] = Array.from({ length: input.branches }, (_, branch) => ({ branch, gmpe: gmpeBranchAt(input.gmpeTree, rng0.uniform()), rate: total, draws: {} }));
  const cols: number[][] = [[], [], [], [], []];
  for (const br of branches) {
    // Each branch its own stream, so a branch's ruptures do not depend on the others'.
    const rng = seededRandom(BigInt(input.seed) * 1_000_003n + BigInt(br.branch + 1));
    for (let y = 1; y <= input.years && total > 0; y++) {
      const n = poissonDraw(rng, total);
      for (let k = 0; k < n; k++) {
        const e = entryAt(cumulative, rng.uniform());
        const entry = entries[e]!;
        const area = used[entry.source]!.area;
        let a: number;
        let b = 0;
        if (area) {
          a = Math.floor(rng.uniform() * points[entry.source]!.lat.length);
          b = pick(area.nodal_planes, rng.uniform()) * area.hypo_depths.length + pick(area.hypo_depths, rng.uniform());
        } else {
          a = Math.floor(rng.uniform() * entry.float!.along * entry.float!.down);
        }
        const row = [br.branch * input.years + y, br.branch, e, a, b];
        for (let c = 0; c < row.length; c++) cols[c]!.push(row[c]!);
      }
    }
  }
  const [period, branch, entry, first, second] = cols.map((c) => Int32Array.from(c)) as [Int32Array, Int32Array, Int32Array, Int32Array, Int32Array];
  const plane = (r: number) => {
    const e = entries[entry[r]!]!;
    const u = used[e.source]!;
    if (u.area) {
      const src = u.area;
      const np = src.nodal_planes[Math.floor(second[r]! / src.hypo_depths.length)]!;
      const depth = src.hypo_depths[second[r]! % src.hypo_depths.length]!.depth_km;
      const pts = points[e.source]!;
      return pointRupture({
        mag: e.mag, lat: pts.lat[first[r]!]!, lon: pts.lon[first[r]!]!, depth_km: depth, strike: np.strike, dip: np.dip, rake: np.rake,
        area_km2: medianArea(src.msr, e.mag, np.rake)!, aspect_ratio: src.aspect_ratio, upper_depth_km: src.upper_depth_km, lower_depth_km: src.lower_depth_km,
      });
    }
    const f = e.float!;
    return faultRupture(meshes[e.source]!, e.mag, f, first[r]! % f.along, Math.floor(first[r]! / f.along));
  };
  const counts = { area: used.filter((u) => u.area).length, faults: used.filter((u) => u.fault).length };
  return {
    ruptures: { count: period.length, period, branch, plane },
    branches, modeled, unmodeled,
    sourceModel: sourceModelBlock(input, counts, total, points),
    siteModel: { basis: `a place is modeled when within ${input.reachKm} km of a source of the ESHM20 branch (its polygon or fault, boxed)`, reach_km: input.reachKm },
    assumptions: [
      `Ruptures from ESHM20's published ${input.kind === 'area_sources' ? 'area-source' : 'fault-source'} branch (${input.file}), one branch of ESHM20's weighted source-model logic tree, not the weighted model: the ${counts.area + counts.faults} sources within reach of a place, their truncated Gutenberg-Richter rates at or above M ${MINIMUM_MAGNITUDE}, ${total.toPrecision(6)} a year.`,
      `Every sampled branch keeps the source branch's rates and draws its ESHM20 ground-motion branch by weight.`,
      'OpenQuake\'s rules (its hazard library, openquake/hazardlib): truncated GR bins (mfd/truncated_gr.py), area sources as grids of point sources (source/area.py), a point\'s rupture and PointMSR (source/point.py, scalerel/point.py), Leonard 2014 (scalerel/leonard2014.py), floating fault ruptures (source/simple_fault.py), Poisson occurrences (calc/stochastic.py).',
      `Ours (ESHM20's job settings are not pinned): MFD bins of ${DISCRETISATION.mfd_bin}, a ${DISCRETISATION.area_km} km area grid laid in a flat projection about each polygon's mean vertex, a ${DISCRETISATION.fault_mesh_km} km fault mesh with each floating rupture on its trace's chord, no rupture below M ${MINIMUM_MAGNITUDE}, sources kept within a box ${input.reachKm} km round each place.`,
    ],
    warnings: warningsOf(input, used),
  };
}

/** The entry a uniform draw falls on (the first whose cumulative share exceeds u). */
function entryAt(cumulative: Float64Array, u: number): number {
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! > u) hi = mid; else lo = mid + 1;
  }
  return lo;
}

function pick(choices: readonly { probability: number }[], u: number): number {
  let acc = 0;
  for (let i = 0; i < choices.length; i++) { acc += choices[i]!.probability; if (u < acc) return i; }
  return choices.length - 1;
}

function warningsOf(input: Eshm20SamplingInput, used: readonly { area?: AreaSource; fault?: SimpleFaultSource }[]): string[] {
  const out = [`Source model: one published branch of ESHM20's weighted logic tree (${input.file}), not ESHM20's weighted hazard.`];
  if (input.kind === 'fault_sources') out.push('Fault sources alone: ESHM20 completes this branch with a smoothed-seismicity background (not pinned), so earthquakes off the faults and below each fault\'s minimum magnitude are absent and losses are understated.');
  const craton = used.filter((u) => (u.area ?? u.fault)!.tectonic_region !== input.gmpeTree.tectonic_region).length;
  if (craton > 0) out.push(`${craton} source${craton === 1 ? '' : 's'} within reach belong to another tectonic region than the pinned ground-motion tree's (${input.gmpeTree.tectonic_region}); the tree is applied to them too, as ESHM20's tree for their region is not pinned.`);
  return out;
}

function sourceModelBlock(input: Eshm20SamplingInput, counts: { area: number; faults: number }, total: number, points: readonly ({ lat: Float64Array } | undefined)[]): Record<string, unknown> {
  return {
    kind: input.kind === 'area_sources' ? 'ESHM20 area-source branch' : 'ESHM20 fault-source branch (without its smoothed-seismicity background)',
    name: input.model.name,
    file: input.file,
    logic_tree: 'a single branch of ESHM20\'s weighted source-model logic tree (the pinned snapshot holds one area-source and one fault-source branch), not the weighted model; area sources and faults with their background are alternatives in ESHM20, never summed',
    sources: { area: input.model.area.length, simple_fault: input.model.faults.length, within_reach: counts.area + counts.faults },
    area_source_points: points.reduce((s, p) => s + (p?.lat.length ?? 0), 0),
    rate_m_min: total,
    minimum_magnitude: MINIMUM_MAGNITUDE,
    discretisation: { ...DISCRETISATION, basis: 'ours, as ESHM20\'s job settings are not pinned' },
    rules: [
      'truncated Gutenberg-Richter bins: openquake/hazardlib/mfd/truncated_gr.py, TruncatedGRMFD',
      'area sources as grids of point sources: openquake/hazardlib/source/area.py, AreaSource.iter_ruptures; geo/polygon.py, Polygon.discretize',
      'a point\'s rupture: openquake/hazardlib/source/point.py; PointMSR (scalerel/point.py), Leonard 2014 (scalerel/leonard2014.py)',
      'floating fault ruptures: openquake/hazardlib/source/simple_fault.py, SimpleFaultSource.iter_ruptures and _get_rupture_dimensions (a floating rupture is the plane on its trace\'s chord here)',
      'Poisson occurrences per sample year: openquake/hazardlib/calc/stochastic.py, sample_ruptures',
    ],
  };
}
