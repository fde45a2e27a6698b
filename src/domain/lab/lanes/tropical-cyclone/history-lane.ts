// The tropical-cyclone history lane (SPEC: Model lab, tropical-cyclone history spec): the pinned
// best tracks of one basin, for the seasons asked (and, optionally, the named storms), each storm's
// wind at each place by Holland (2008) as CLIMADA computes it (holland-2008.ts), its loss through
// the loss engine's mean-damage kernel (engine/impact.ts) with the chosen impact functions (impact-functions.ts).
// The result is a season-by-season replay: season totals, each storm with its publisher id, dates,
// peak wind at each place and loss. A replay has no return periods.
import { ok, refused, type Result } from '../../../../kernel/result.js';
import { runSpecRefusal } from '../../engine/spec-refusal.js';
import { MEAN_DAMAGE, type Hazard } from '../../engine/impact.js';
import type { Storm } from '../../../hazard/records.js';
import { placesOf, readPoints, type PlaceExposure } from '../../engine/places.js';
import { equalTimestep, placeIndex, trackWindfield, WIND_FIELD_ASSUMPTIONS, WINDFIELD_DEFAULTS } from './holland-2008.js';
import { trackOfStorm } from './track.js';
import { countryAlpha3 } from '../../../country.js';
import { exposureTerms, impactTerms, PLACE_TERMS_RULE, type TermsLosses } from '../../engine/place-terms.js';
import type { PerilGroups } from '../../../financial/oed-fields.js';
import { LANE_OED_PERILS } from '../oed-terms.js';
import { impactFunctionsFor, IMPACT_FUNCTION_CHOICES, type Calibration, type CurveUse, type ImpactFunctionChoice } from './impact-functions.js';

/** The basins a history run may name, each read from one pinned best-track archive. */
export const TC_BASINS = ['NA', 'EP', 'WP', 'NI', 'SH'] as const;
export type TcBasin = (typeof TC_BASINS)[number];
export const TC_BASIN_NAMES: Readonly<Record<TcBasin, string>> = {
  NA: 'North Atlantic (HURDAT2)',
  EP: 'Northeast and North Central Pacific (HURDAT2)',
  WP: 'Western North Pacific (JTWC best track)',
  NI: 'North Indian (JTWC best track)',
  SH: 'Southern hemisphere (JTWC best track)',
};

export const TC_HISTORY_CAPS = { places_max: 10_000, years_max: 60, storms_max: 1_000 } as const;

export interface TcHistoryHazard {
  basin: TcBasin;
  /** Seasons, ascending and unique. */
  years: number[];
  /** Storm names or publisher ids, upper-case, sorted; none = every storm of the seasons. */
  storms: string[];
}

export interface TcHistorySpec {
  impact_function: ImpactFunctionChoice;
  hazard: TcHistoryHazard;
  exposure: PlaceExposure;
}

/** The members of a history spec besides model and exposure. */
export const TC_HISTORY_MEMBERS = ['impact_function', 'hazard'] as const;

/**
 * impact_function and hazard read, their defaults filled (impact_function auto, storms none), every
 * fault named in details; years sorted and unique, storm names upper-cased.
 */
export function readTcHistoryMembers(s: Readonly<Record<string, unknown>>, details: string[]): { impact_function: ImpactFunctionChoice; hazard: TcHistoryHazard } {
  const choice = s.impact_function ?? 'auto';
  if (!IMPACT_FUNCTION_CHOICES.includes(choice as ImpactFunctionChoice)) details.push(`impact_function must be one of ${IMPACT_FUNCTION_CHOICES.join(', ')}`);
  const h = s.hazard as Record<string, unknown> | undefined;
  let years: number[] = [];
  let storms: string[] = [];
  let basin = '' as TcBasin;
  if (typeof h !== 'object' || h === null || Array.isArray(h)) details.push('hazard must be an object {basin, years, storms?}');
  else {
    for (const k of Object.keys(h)) if (!['basin', 'years', 'storms'].includes(k)) details.push(`unknown member hazard.${k} (hazard has basin, years, storms)`);
    if (!TC_BASINS.includes(h.basin as TcBasin)) details.push(`hazard.basin must be one of ${TC_BASINS.join(', ')}`);
    else basin = h.basin as TcBasin;
    if (!Array.isArray(h.years) || h.years.length === 0) details.push('hazard.years must be a non-empty array of seasons (integers)');
    else if (!h.years.every((y) => Number.isInteger(y) && (y as number) >= 1800 && (y as number) <= 2100)) details.push('hazard.years must hold integers (seasons, e.g. 1992)');
    else {
      years = [...new Set(h.years as number[])].sort((a, b) => a - b);
      if (years.length > TC_HISTORY_CAPS.years_max) details.push(`hazard.years may name up to ${TC_HISTORY_CAPS.years_max} seasons; it names ${years.length}`);
    }
    if (h.storms !== undefined && h.storms !== null) {
      if (!Array.isArray(h.storms) || !h.storms.every((n) => typeof n === 'string' && n.trim() !== '')) details.push('hazard.storms must be an array of storm names or publisher ids');
      else storms = [...new Set((h.storms as string[]).map((n) => n.trim().toUpperCase()))].sort();
    }
  }
  return { impact_function: choice as ImpactFunctionChoice, hazard: { basin, years, storms } };
}

/** A whole spec with bare points read (what a test or a caller without stored objects hands the lane). */
export function readTcHistorySpec(raw: unknown): Result<TcHistorySpec> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return refused(runSpecRefusal(['the spec must be an object']));
  const s = raw as Record<string, unknown>;
  const allowed = ['model', 'version', 'exposure', ...TC_HISTORY_MEMBERS];
  const details: string[] = Object.keys(s).filter((k) => !allowed.includes(k)).map((k) => `unknown member ${k} (a spec has model, impact_function, hazard, exposure)`);
  const members = readTcHistoryMembers(s, details);
  const points = readPoints(s.exposure, details);
  if (points.length > TC_HISTORY_CAPS.places_max) details.push(`exposure may hold up to ${TC_HISTORY_CAPS.places_max} places; it holds ${points.length}`);
  if (details.length > 0) return refused(runSpecRefusal(details));
  return ok({ ...members, exposure: { points } });
}

/** The season of a storm: the year its publisher's id carries (ATCF ids end in the season year). */
export function seasonOf(storm: Storm): number {
  const m = /(\d{4})$/.exec(storm.storm_id);
  return m ? Number(m[1]) : new Date(storm.fixes[0]?.epoch_ms ?? 0).getUTCFullYear();
}

/** The storms of the seasons asked, and of the names or ids asked when some are; a name or id not found is refused. */
export function selectStorms(storms: readonly Storm[], spec: TcHistorySpec['hazard']): Result<Storm[]> {
  const years = new Set(spec.years);
  const inSeasons = storms.filter((s) => years.has(seasonOf(s)));
  if (spec.storms.length === 0) return capped(inSeasons);
  const wanted = new Set(spec.storms);
  const found = new Set<string>();
  const chosen = inSeasons.filter((s) => {
    const keys = [s.storm_id.toUpperCase(), ...(s.name ? [s.name.toUpperCase()] : [])];
    const hit = keys.filter((k) => wanted.has(k));
    hit.forEach((k) => found.add(k));
    return hit.length > 0;
  });
  const missing = spec.storms.filter((n) => !found.has(n));
  if (missing.length > 0) {
    return refused(runSpecRefusal(missing.map((n) => `hazard.storms: no storm named or numbered ${n} in the ${spec.basin} archive in season${spec.years.length === 1 ? '' : 's'} ${spec.years.join(', ')}`)));
  }
  return capped(chosen);
}

function capped(storms: Storm[]): Result<Storm[]> {
  if (storms.length > TC_HISTORY_CAPS.storms_max) return refused(runSpecRefusal([`the seasons asked hold ${storms.length} storms; a run replays up to ${TC_HISTORY_CAPS.storms_max} (name fewer seasons or storms)`]));
  return ok(storms);
}

export interface InputIdentity {
  feed_id: string;
  version: string;
  sha256: string;
}

export interface TcHistoryInput {
  spec: TcHistorySpec;
  /** Every storm of the basin's archive; the lane selects. */
  storms: readonly Storm[];
  calibration: Calibration;
  identities: { tracks: InputIdentity; impact_functions: InputIdentity };
  model: { id: string; version: string; label: string };
  /** Told how many storms are done, of all, now and then (a job's progress). */
  onStorms?: (done: number, total: number) => void;
  /** OED's peril groups: an object's OED terms apply with them. */
  perilGroups?: PerilGroups;
}

/** One view (insured or net) of a replay: the totals, each season's and each storm's loss. */
function replayView(perspective: string, losses: readonly { loss: number }[], replays: readonly StormReplay[], years: readonly number[]) {
  return {
    perspective,
    loss: losses.reduce((a, l) => a + l.loss, 0),
    seasons: years.map((season) => ({ season, loss: replays.reduce((a, r, e) => (r.season === season ? a + losses[e]!.loss : a), 0) })),
    storms: replays.map((r, e) => ({ storm_id: r.storm_id, name: r.name, season: r.season, loss: losses[e]!.loss })),
  };
}

export interface StormReplay {
  season: number;
  storm_id: string;
  name: string | null;
  start: string;
  end: string;
  /** Largest wind over the places, m/s (0 when it reached none above the threshold). */
  peak_wind_m_s: number;
  loss: number;
  /** Places reached by winds at or above the threshold: wind and loss at each. */
  places: { index: number; wind_m_s: number; loss: number }[];
}

export const TC_HISTORY_ASSUMPTIONS: readonly string[] = [
  ...WIND_FIELD_ASSUMPTIONS,
  `Intensity: the largest 1-minute sustained wind at 10 m over the storm's life; winds below ${WINDFIELD_DEFAULTS.intensity_threshold_m_s} m/s count as 0; no wind beyond ${WINDFIELD_DEFAULTS.max_dist_eye_km} km of the eye; places beyond ${WINDFIELD_DEFAULTS.max_latitude}° latitude are unmodeled. CLIMADA's gradient-to-surface factor ${WINDFIELD_DEFAULTS.gradient_to_surface} does not scale the H08 profile, which gives surface winds directly; it sets the interval b is clipped to.`,
  'Loss = value × MDD(wind) × PAA(wind), MDD and PAA interpolated linearly on the curve\'s 5 m/s grid and held at its ends; the value of a point (or of a location\'s buildings and contents) is its replacement value in the unit given.',
  'Seasons are the publisher\'s season years (the year in the storm id). A replay: no frequencies, no return periods.',
];

export function runTcHistory(input: TcHistoryInput): Result<Record<string, unknown>> {
  const { spec } = input;
  const selected = selectStorms(input.storms, spec.hazard);
  if (!selected.ok) return selected;
  const storms = [...selected.value].sort((a, b) => (a.fixes[0]?.epoch_ms ?? 0) - (b.fixes[0]?.epoch_ms ?? 0) || (a.storm_id < b.storm_id ? -1 : 1));
  const points = placesOf(spec.exposure);
  // A stored schedule is read on the job, so its size is checked here.
  if (points.length > TC_HISTORY_CAPS.places_max) return refused(runSpecRefusal([`exposure may hold up to ${TC_HISTORY_CAPS.places_max} places; it holds ${points.length}`]));
  const unmodeled: { index: number; reason: string }[] = [];
  points.forEach((p, i) => {
    if (p.lat === null || p.lon === null) unmodeled.push({ index: i, reason: 'no coordinates' });
    else if (Math.abs(p.lat) > WINDFIELD_DEFAULTS.max_latitude) unmodeled.push({ index: i, reason: `beyond ${WINDFIELD_DEFAULTS.max_latitude}° latitude` });
  });
  const out = new Set(unmodeled.map((u) => u.index));
  const lat = points.map((p, i) => (out.has(i) ? 0 : p.lat!));
  const lon = points.map((p, i) => (out.has(i) ? 0 : p.lon!));
  const index = placeIndex(lat.map((l, i) => (out.has(i) ? 1000 : l)), lon);
  // Unmodeled places sit at latitude 1000, beyond every cell a step visits.
  const countries = points.map((p, i) => (out.has(i) ? null : countryAlpha3(p.lat!, p.lon!)));
  const curves = impactFunctionsFor(spec.impact_function, countries, input.calibration);

  const rowStart = new Int32Array(storms.length + 1);
  const centroid: number[] = [];
  const wind: number[] = [];
  storms.forEach((s, e) => {
    const w = trackWindfield(equalTimestep(trackOfStorm(s)), index);
    for (let k = 0; k < w.place.length; k++) { centroid.push(w.place[k]!); wind.push(w.wind[k]!); }
    rowStart[e + 1] = centroid.length;
    if ((e + 1) % 10 === 0 || e + 1 === storms.length) input.onStorms?.(e + 1, storms.length);
  });
  const hazard: Hazard = {
    event_ids: storms.map((_, e) => e + 1),
    frequency: storms.map(() => 1),
    centroidCount: points.length,
    intensity: { kind: 'sparse', rowStart, centroid, value: wind },
  };
  const impact = MEAN_DAMAGE.groundUp({ hazard, exposures: { points: points.map((p, i) => ({ value: p.value, centroid: out.has(i) ? -1 : i, impf_id: curves.impf[i]! })) }, functions: curves.functions });
  if (!impact.ok) return impact;
  const m = impact.value.imp_mat;

  const replays: StormReplay[] = storms.map((s, e) => {
    const lossAt = new Map<number, number>();
    for (let k = m.rowStart[e]!; k < m.rowStart[e + 1]!; k++) lossAt.set(m.place[k]!, m.loss[k]!);
    const places: StormReplay['places'] = [];
    let peak = 0;
    for (let k = rowStart[e]!; k < rowStart[e + 1]!; k++) {
      places.push({ index: centroid[k]!, wind_m_s: wind[k]!, loss: lossAt.get(centroid[k]!) ?? 0 });
      peak = Math.max(peak, wind[k]!);
    }
    return {
      season: seasonOf(s), storm_id: s.storm_id, name: s.name,
      start: s.fixes[0]!.time, end: s.fixes.at(-1)!.time,
      peak_wind_m_s: peak, loss: impact.value.at_event[e]!, places,
    };
  });
  const seasons = spec.hazard.years.map((season) => {
    const of = replays.filter((r) => r.season === season);
    return {
      season,
      storms: of.length,
      storms_reaching_places: of.filter((r) => r.places.length > 0).length,
      loss: of.reduce((a, r) => a + r.loss, 0),
      peak_wind_m_s: of.reduce((a, r) => Math.max(a, r.peak_wind_m_s), 0),
      largest_storm: of.filter((r) => r.loss > 0).sort((a, b) => b.loss - a.loss)[0]?.storm_id ?? null,
    };
  });
  // The object's OED terms, storm by storm.
  const terms = exposureTerms(spec.exposure, input.perilGroups, LANE_OED_PERILS.tropical_cyclone);
  const insured: TermsLosses | null = terms ? impactTerms(terms, impact.value) : null;
  const placeLoss = new Float64Array(points.length);
  for (let k = 0; k < m.place.length; k++) placeLoss[m.place[k]!]! += m.loss[k]!;
  const totalValue = points.reduce((a, p) => a + p.value, 0);
  const warnings: string[] = [];
  if (unmodeled.length > 0) warnings.push(`${unmodeled.length} place${unmodeled.length === 1 ? ' is' : 's are'} unmodeled (no coordinates, or beyond ${WINDFIELD_DEFAULTS.max_latitude}° latitude).`);
  if (storms.length === 0) warnings.push(`No storm of the ${spec.hazard.basin} archive falls in the seasons asked.`);
  const noReach = replays.filter((r) => r.places.length === 0).length;
  if (storms.length > 0 && noReach === storms.length) warnings.push('No storm brought winds of 17.5 m/s or more to any place.');
  return ok({
    lane: 'tropical_cyclone_history',
    model: { ...input.model, engine: 'climada' },
    inputs: input.identities,
    method: {
      wind_field: { ...WINDFIELD_DEFAULTS },
      impact_function: { choice: spec.impact_function, curves: curves.curves.map((c: CurveUse) => ({ ...c, intensity_m_s: 'grid 0 to 120 every 5, PAA 1' })) },
    },
    hazard: { basin: spec.hazard.basin, archive: TC_BASIN_NAMES[spec.hazard.basin], years: spec.hazard.years, storms_asked: spec.hazard.storms },
    exposure: {
      places: points.length,
      modeled: points.length - unmodeled.length,
      total_value: totalValue,
      unmodeled: { count: unmodeled.length, places: unmodeled },
      countries: countryCounts(countries, out),
    },
    totals: {
      seasons: seasons.length,
      storms: replays.length,
      storms_reaching_places: replays.length - noReach,
      loss: replays.reduce((a, r) => a + r.loss, 0),
    },
    seasons,
    storms: replays,
    ...(terms && insured ? {
      terms: terms.stated(),
      perspectives: { il: replayView('insured', insured.il, replays, spec.hazard.years), ri: replayView('net', insured.ri, replays, spec.hazard.years) },
    } : {}),
    places: points.map((_, i) => ({ index: i, loss: placeLoss[i]!, ...(insured ? { insured: insured.placeIl[i]!, net: insured.placeRi[i]! } : {}), curve: out.has(i) ? null : curves.curves.find((c) => c.impf_id === curves.impf[i])!.curve, country: countries[i] })),
    return_periods: null,
    note: 'A season-by-season replay of the storms asked: no frequencies, no return periods.',
    assumptions: terms ? [...TC_HISTORY_ASSUMPTIONS, PLACE_TERMS_RULE] : TC_HISTORY_ASSUMPTIONS,
    warnings,
  });
}

function countryCounts(countries: readonly (string | null)[], out: ReadonlySet<number>): Record<string, number> {
  const counts: Record<string, number> = {};
  countries.forEach((c, i) => { if (!out.has(i)) { const k = c ?? 'none (at sea)'; counts[k] = (counts[k] ?? 0) + 1; } });
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1)));
}
