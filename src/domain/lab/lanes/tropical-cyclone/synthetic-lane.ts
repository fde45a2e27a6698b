// The tropical-cyclone synthetic lane's computation (SPEC: Model lab, tropical-cyclone synthetic
// spec): the basin's historical tracks of the reference seasons, each with CLIMADA's nine perturbed
// members decayed over land (synthetic-tracks.ts), make the event set; sample years draw a Poisson
// number of storms at the historical annual rate, each storm one event of the set picked uniformly
// (seeded). Tracks that never come within 300 km of a place are screened out and counted; the others
// get Holland (2008) winds at the places and losses through the loss engine's mean-damage kernel; the result is
// lab-metrics/1 with a damage-curve sensitivity.
import { ok, refused, type Result } from '../../../../kernel/result.js';
import { refusal } from '../../../../kernel/refusal.js';
import { seededRandom, type SeededRandom } from '../../../stats/random.js';
import type { Storm } from '../../../hazard/records.js';
import { impactLosses, MEAN_DAMAGE, type Hazard, type ImpactFunction } from '../../engine/impact.js';
import { computeMetrics, type EventLoss, type LabMetrics, type Occurrence } from '../../engine/metrics.js';
import { SENSITIVITY_FACTORS, sensitivityBlock } from '../../engine/sensitivity.js';
import { placesOf, type PlaceExposure } from '../../engine/places.js';
import { equalTimestep, placeIndex, trackWindfield, WIND_FIELD_ASSUMPTIONS, WINDFIELD_DEFAULTS } from './holland-2008.js';
import { trackOfStorm, type TcTrack } from './track.js';
import { applyLandDecay, perturbedTracks, SYNTHETIC_DEFAULTS } from './synthetic-tracks.js';
import type { LandMask } from '../../../land-mask.js';
import { countryAlpha3 } from '../../../country.js';
import { impactFunctionsFor, type Calibration, type ImpactFunctionChoice } from './impact-functions.js';
import { seasonOf, TC_BASINS, TC_HISTORY_CAPS, type TcBasin } from './history-lane.js';
import { IMPACT_FUNCTION_CHOICES } from './impact-functions.js';
import { exposureTerms, impactTerms, termsPerspectives } from '../../engine/place-terms.js';
import type { PerilGroups } from '../../../financial/oed-fields.js';
import { LANE_OED_PERILS } from '../oed-terms.js';

export const MAX_SAMPLE_YEARS = 10_000;
/** The first season of the reference period the event set is drawn from. */
export const REFERENCE_FROM_SEASON = 1980;
export const DEFAULT_SYNTHETIC_SEED = 20_190_101;
export const DEFAULT_NEAR_TRACKS = 6_000;

export interface TcSyntheticSpec {
  impact_function: ImpactFunctionChoice;
  hazard: { basin: TcBasin; years: number };
  exposure: PlaceExposure;
}

export const TC_SYNTHETIC_CAPS = { places_max: TC_HISTORY_CAPS.places_max, sample_years_max: MAX_SAMPLE_YEARS, near_tracks: DEFAULT_NEAR_TRACKS } as const;

/** impact_function and hazard {basin, years?} read, defaults filled (auto, 10,000 sample years), every fault named in details. */
export function readTcSyntheticMembers(s: Readonly<Record<string, unknown>>, details: string[]): { impact_function: ImpactFunctionChoice; hazard: TcSyntheticSpec['hazard'] } {
  const choice = s.impact_function ?? 'auto';
  if (!IMPACT_FUNCTION_CHOICES.includes(choice as ImpactFunctionChoice)) details.push(`impact_function must be one of ${IMPACT_FUNCTION_CHOICES.join(', ')}`);
  const h = s.hazard as Record<string, unknown> | undefined;
  let basin = '' as TcBasin;
  let years: number = MAX_SAMPLE_YEARS;
  if (typeof h !== 'object' || h === null || Array.isArray(h)) details.push('hazard must be an object {basin, years?}');
  else {
    for (const k of Object.keys(h)) if (!['basin', 'years'].includes(k)) details.push(`unknown member hazard.${k} (hazard has basin, years)`);
    if (!TC_BASINS.includes(h.basin as TcBasin)) details.push(`hazard.basin must be one of ${TC_BASINS.join(', ')}`);
    else basin = h.basin as TcBasin;
    if (h.years !== undefined && h.years !== null) {
      if (!Number.isInteger(h.years) || (h.years as number) < 1 || (h.years as number) > MAX_SAMPLE_YEARS) details.push(`hazard.years must be an integer from 1 to ${MAX_SAMPLE_YEARS} (sample years; default ${MAX_SAMPLE_YEARS})`);
      else years = h.years as number;
    }
  }
  return { impact_function: choice as ImpactFunctionChoice, hazard: { basin, years } };
}

export interface TcSyntheticInput {
  spec: TcSyntheticSpec;
  storms: readonly Storm[];
  calibration: Calibration;
  seed?: number;
  /** The near-track budget (caps.near_tracks). */
  nearTracks?: number;
  /** Told how many near tracks have their winds, of all, now and then (a job's progress). */
  onTracks?: (done: number, total: number) => void;
  /** OED's peril groups: an object's OED terms apply with them. */
  perilGroups?: PerilGroups;
}

function poisson(rng: SeededRandom, lambda: number): number {
  // Knuth's product method in chunks, exact for any rate.
  let n = 0;
  let left = lambda;
  while (left > 0) {
    const step = Math.min(left, 30);
    left -= step;
    const limit = Math.exp(-step);
    let p = rng.uniform();
    while (p > limit) { n++; p *= rng.uniform(); }
  }
  return n;
}

/** Whether any step of a track comes within reach (300 km) of the places' box. */
function nearBox(track: TcTrack, box: { minLat: number; maxLat: number; minLon: number; maxLon: number }): boolean {
  const band = WINDFIELD_DEFAULTS.max_dist_eye_km / WINDFIELD_DEFAULTS.one_degree_latitude_km;
  return track.lat.some((la, i) => {
    if (la < box.minLat - band || la > box.maxLat + band) return false;
    const bandLon = band / Math.cos(Math.min(89, Math.abs(la) + band) * Math.PI / 180);
    const lo = track.lon[i]!;
    return lo >= box.minLon - bandLon && lo <= box.maxLon + bandLon;
  });
}

/** The sample years and the near tracks they need: plain data, so an admission's sample can be handed to its run. */
export interface SyntheticSample {
  places: ReturnType<typeof placesOf>;
  modeled: number;
  occurrences: Occurrence[];
  occurring: number[];
  near: { id: number; track: TcTrack }[];
  far: number;
  budget: number;
  reference: number;
  seasons: number[];
  refYears: number;
  rate: number;
  members: number;
  setSize: number;
  seed: number;
}

/**
 * The sample years and the near tracks they need, or the refusal of a run needing more near tracks
 * than the budget: what a request is admitted on, and the first half of the run.
 */
export function syntheticSample(input: TcSyntheticInput): Result<SyntheticSample> {
  const { spec } = input;
  const seed = input.seed ?? DEFAULT_SYNTHETIC_SEED;
  const budget = input.nearTracks ?? DEFAULT_NEAR_TRACKS;
  const years = spec.hazard.years;
  const places = placesOf(spec.exposure);
  if (places.length > TC_SYNTHETIC_CAPS.places_max) return refused(refusal(422, 'invalid_request', `The exposure holds ${places.length} places; the lane takes up to ${TC_SYNTHETIC_CAPS.places_max}.`, [`exposure may hold up to ${TC_SYNTHETIC_CAPS.places_max} places`]));
  const modeled = places.filter((p) => p.lat !== null && p.lon !== null && Math.abs(p.lat) <= WINDFIELD_DEFAULTS.max_latitude);
  const reference = input.storms.filter((s) => seasonOf(s) >= REFERENCE_FROM_SEASON && s.fixes.length >= 2);
  const seasons = new Set(input.storms.map(seasonOf).filter((y) => y >= REFERENCE_FROM_SEASON));
  const refYears = seasons.size;
  const rate = refYears > 0 ? reference.length / refYears : 0;
  const members = SYNTHETIC_DEFAULTS.members + 1;
  const setSize = reference.length * members;

  // Sample years first (their own stream), so the screening below does not change which storms occur.
  const draw = seededRandom(seed);
  const occurrences: Occurrence[] = [];
  for (let y = 1; y <= years; y++) {
    const n = poisson(draw, rate);
    for (let k = 0; k < n; k++) occurrences.push({ event_id: Math.min(setSize - 1, Math.floor(draw.uniform() * setSize)) + 1, period: y });
  }
  const occurring = [...new Set(occurrences.map((o) => o.event_id))].sort((a, b) => a - b);

  // The event set's tracks, built for the historical tracks whose events occur; members seeded per track.
  const box = modeled.length > 0 ? {
    minLat: Math.min(...modeled.map((p) => p.lat!)), maxLat: Math.max(...modeled.map((p) => p.lat!)),
    minLon: Math.min(...modeled.map((p) => p.lon!)), maxLon: Math.max(...modeled.map((p) => p.lon!)),
  } : null;
  const byParent = new Map<number, number[]>();
  for (const id of occurring) { const h = Math.floor((id - 1) / members); byParent.set(h, [...(byParent.get(h) ?? []), id]); }
  const near: { id: number; track: TcTrack }[] = [];
  let far = 0;
  for (const [h, ids] of byParent) {
    const hist = equalTimestep(trackOfStorm(reference[h]!));
    const walk = seededRandom(BigInt(seed) * 1_000_003n + BigInt(h));
    const set = [hist, ...perturbedTracks(hist, walk)];
    for (const id of ids) {
      const t = set[(id - 1) % members]!;
      if (box && nearBox(t, box)) near.push({ id, track: t }); else far++;
    }
  }
  if (near.length > budget) {
    return refused(refusal(422, 'invalid_request',
      `The run attracts ${near.length} near tracks, more than the lane's budget of ${budget} (caps.near_tracks): ask for fewer sample years (hazard.years) or cluster the exposure more tightly.`,
      [`near tracks ${near.length} > caps.near_tracks ${budget}`, 'levers: fewer sample years (hazard.years), tighter exposure clusters']));
  }
  return ok({ places, modeled: modeled.length, occurrences, occurring, near, far, budget, reference: reference.length, seasons: [...seasons], refYears, rate, members, setSize, seed });
}

/** The seed of a member's decay: its own stream, so screening leaves every member's draws as they are. */
const decaySeed = (seed: number, eventId: number) => (BigInt(seed) << 32n) + BigInt(eventId);

/**
 * The run: the sample (the admission's, when handed one drawn for the same spec), its near members
 * decayed over land (the historical tracks keep their record), winds and losses.
 */
export function runTcSynthetic(input: TcSyntheticInput & { land: LandMask; sample?: SyntheticSample }): Result<Record<string, unknown>> {
  const { spec } = input;
  const sampled = input.sample ? ok(input.sample) : syntheticSample(input);
  if (!sampled.ok) return sampled;
  const { places, occurrences, occurring, near, far, budget, refYears, rate, members, setSize, seed } = sampled.value;
  const tracks = near.map(({ id, track }) => ((id - 1) % members === 0 ? track : applyLandDecay(track, input.land.isLand, seededRandom(decaySeed(seed, id)))));
  const years = spec.hazard.years;
  const { modeled: modeledCount, reference: referenceCount, seasons } = sampled.value;

  const index = placeIndex(places.map((p) => (p.lat === null || Math.abs(p.lat) > WINDFIELD_DEFAULTS.max_latitude ? 1000 : p.lat)), places.map((p) => p.lon ?? 0));
  const rowStart = new Int32Array(near.length + 1);
  const centroid: number[] = [];
  const wind: number[] = [];
  tracks.forEach((track, e) => {
    const w = trackWindfield(track, index);
    for (let k = 0; k < w.place.length; k++) { centroid.push(w.place[k]!); wind.push(w.wind[k]!); }
    rowStart[e + 1] = centroid.length;
    if ((e + 1) % 50 === 0 || e + 1 === near.length) input.onTracks?.(e + 1, near.length);
  });
  const hazard: Hazard = { event_ids: near.map((n) => n.id), frequency: near.map(() => 1 / (refYears * members)), centroidCount: places.length, intensity: { kind: 'sparse', rowStart, centroid, value: wind } };
  const countries = places.map((p) => (p.lat === null || p.lon === null ? null : countryAlpha3(p.lat, p.lon)));
  const curves = impactFunctionsFor(spec.impact_function, countries, input.calibration);
  const exposure = { points: places.map((p, i) => ({ value: p.value, centroid: p.lat === null || Math.abs(p.lat) > WINDFIELD_DEFAULTS.max_latitude ? -1 : i, impf_id: curves.impf[i]! })) };
  const groundUp = (functions: ImpactFunction[]) => MEAN_DAMAGE.groundUp({ hazard, exposures: exposure, functions });
  const base = groundUp(curves.functions);
  if (!base.ok) return base;
  const { eventLosses, places: placeLosses } = impactLosses(base.value, occurrences);
  // Screened-out events occur with no loss: they stay in the occurrence table as zero-loss events.
  const nearIds = new Set(near.map((n) => n.id));
  const allLosses = [...eventLosses, ...occurring.filter((id) => !nearIds.has(id)).map((id) => ({ event_id: id, loss: 0 }))];
  // The object's OED terms, event by event on the same impacts (sensitivity variants too).
  const terms = exposureTerms(spec.exposure, input.perilGroups, LANE_OED_PERILS.tropical_cyclone);
  const screened = allLosses.slice(eventLosses.length);
  const insured = terms ? impactTerms(terms, base.value, occurrences) : null;
  const withScreened = <T extends { il: EventLoss[]; ri: EventLoss[] }>(t: T): T => ({ ...t, il: [...t.il, ...screened], ri: [...t.ri, ...screened] });
  const variants: { factor: number; eventLosses: EventLoss[] }[] = [];
  const termVariants: { factor: number; il: EventLoss[]; ri: EventLoss[] }[] = [];
  for (const factor of SENSITIVITY_FACTORS) {
    const scaled = groundUp(curves.functions.map((f) => ({ ...f, mdd: f.mdd.map((m) => Math.min(1, factor * m)) })));
    if (!scaled.ok) return scaled;
    variants.push({ factor, eventLosses: [...near.map((n, e) => ({ event_id: n.id, loss: scaled.value.at_event[e]! })), ...screened] });
    if (terms) termVariants.push({ factor, ...withScreened(impactTerms(terms, scaled.value)) });
  }
  const warnings: string[] = [];
  const unmodeled = places.length - modeledCount;
  if (unmodeled > 0) warnings.push(`${unmodeled} place${unmodeled === 1 ? ' is' : 's are'} unmodeled (no coordinates, or beyond ${WINDFIELD_DEFAULTS.max_latitude}° latitude).`);
  const lossBasis = 'mean damage ratio (MDD × PAA) per event and place';
  const assumptions = [
      `Event set: the ${spec.hazard.basin} archive's ${referenceCount} tracks of seasons ${REFERENCE_FROM_SEASON} to ${Math.max(...seasons)} (${refYears} seasons), each with ${SYNTHETIC_DEFAULTS.members} members by CLIMADA's directed random walk (calc_perturbed_trajectories), each member's wind and central pressure decayed over land with CLIMADA's global coefficients (_apply_decay_coeffs).`,
      `Land (CLIMADA's rule, coord_on_land of climada/util/coordinates.py): a track step is on land when it lies inside Natural Earth's 1:10m admin 0 countries merged into land, the same in every basin. Ours: the polygons are the land object of world-atlas ${input.land.source.version}'s ${input.land.source.file} (Natural Earth's vertices quantized to 0.0036° of longitude and 0.0017° of latitude, so a step within a few hundred metres of a coast may fall on the other side), and CLIMADA's random offset back at sea is drawn from a seeded stream per member.`,
      `Sample years: a Poisson number of storms per year at the historical rate ${rate.toFixed(3)} per season, each an event of the set picked uniformly; seed ${seed}.`,
      `Tracks never within ${WINDFIELD_DEFAULTS.max_dist_eye_km} km of the places' box are screened out (no wind, no loss).`,
      ...WIND_FIELD_ASSUMPTIONS,
  ];
  const metrics = computeMetrics({ perspective: 'gul', lossBasis, periods: years, eventLosses: allLosses, occurrences, places: placeLosses, assumptions, warnings });
  const sensitivityMethod = 'Every mean damage ratio (MDD × PAA) multiplied by the factor and capped at 1.';
  const sensitivity = { ...sensitivityBlock(years, occurrences, metrics.average_annual_loss.mean, variants), method: sensitivityMethod };
  let perspectives: { il: LabMetrics; ri: LabMetrics } | undefined;
  if (terms && insured) {
    const views = termsPerspectives(withScreened(insured), { lossBasis, periods: years, occurrences, assumptions, warnings });
    const withVariants = (view: LabMetrics, pick: 'il' | 'ri'): LabMetrics => ({
      ...view,
      sensitivity: { ...sensitivityBlock(years, occurrences, view.average_annual_loss.mean, termVariants.map((v) => ({ factor: v.factor, eventLosses: v[pick] }))), method: `${sensitivityMethod} The terms then apply to the scaled losses.` },
    });
    perspectives = { il: withVariants(views.il, 'il'), ri: withVariants(views.ri, 'ri') };
  }
  return ok({
    lane: 'tropical_cyclone_synthetic',
    hazard: { basin: spec.hazard.basin, sample_years: years, sample_storms: occurrences.length, reference_seasons: refYears, historical_tracks: referenceCount, event_set: setSize, annual_rate: rate, seed },
    tracks: { occurring: occurring.length, near: near.length, screened_far: far, budget },
    exposure: { places: places.length, modeled: modeledCount, unmodeled },
    impact_function: { choice: spec.impact_function, curves: curves.curves },
    metrics: { ...metrics, sensitivity },
    ...(terms && perspectives ? { terms: terms.stated(), perspectives } : {}),
  });
}
