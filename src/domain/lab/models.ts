// The lab's models: identifiers, versions with their revision, the pinned model data they read, caps.
// Which lane runs a model, and what it reads, is the lane table of app/lab-lanes.ts.
import { MAX_SAMPLES } from './engine/ground-up.js';
import { FLOOD_SECTORS } from './lanes/flood/depth-damage.js';
import { BURN_CELL_DEG } from './lanes/wildfire/wildfire-lane.js';
import { DEFAULT_VS30, MAGNITUDE_RANGE, MECHANISM_DEFAULTS, SCENARIO_FIELDS, SCENARIO_PLACES_MAX, SCENARIO_REACH_KM, VS30_RANGE } from './lanes/earthquake/scenario-lane.js';
import { DEFAULT_VULNERABILITY, VULNERABILITY_CURVES } from './lanes/earthquake/vulnerability.js';
import { HISTORICAL_EVENTS, HISTORICAL_FIELDS, HISTORICAL_PLACES_MAX, runnableEvents, type ShakeMapPins } from './lanes/earthquake/historical-lane.js';
import { DEEPEST_HYPOCENTRE_KM } from './lanes/earthquake/logic-tree.js';
import { TECTONIC_REGION_RULE } from './lanes/earthquake/tectonic-regions.js';
import { BUILDING_CLASSES, ESHM20_BRANCHES, ESHM20_PLACES_MAX, ESHM20_REACH_KM, ESHM20_YEARS_PER_BRANCH, SITE_VS30 } from './lanes/earthquake/eshm20-lane.js';
import { DEMO_SOURCE_MODEL } from './lanes/earthquake/demo-source-model.js';
import { TC_BASIN_NAMES, TC_BASINS, TC_HISTORY_CAPS, type TcBasin } from './lanes/tropical-cyclone/history-lane.js';
import { IMPACT_FUNCTION_CHOICES } from './lanes/tropical-cyclone/impact-functions.js';
import { WINDFIELD_DEFAULTS } from './lanes/tropical-cyclone/holland-2008.js';
import { MAX_SAMPLE_YEARS, REFERENCE_FROM_SEASON, TC_SYNTHETIC_CAPS } from './lanes/tropical-cyclone/synthetic-lane.js';
import { SYNTHETIC_DEFAULTS } from './lanes/tropical-cyclone/synthetic-tracks.js';

export type LabLaneName = 'windstorm' | 'river-flood' | 'coastal-flood' | 'wildfire' | 'scenario-earthquake' | 'historical-earthquake' | 'tropical-cyclone-history' | 'tropical-cyclone-synthetic' | 'eshm20-earthquake';

/** The pinned inputs of the tropical-cyclone lanes: one best-track archive per basin, and the impact-function tables. */
export const TC_TRACK_ARCHIVES: Readonly<Record<TcBasin, { readonly feed_id: string; readonly version: string }>> = {
  NA: { feed_id: 'noaa-nhc-hurdat2-atlantic', version: '2024-11-18' },
  EP: { feed_id: 'noaa-nhc-hurdat2-northeast-central-pacific', version: '2024-11-07' },
  WP: { feed_id: 'jtwc-best-track-western-north-pacific', version: '2024-12-25' },
  NI: { feed_id: 'jtwc-best-track-north-indian', version: '2024-12-04' },
  SH: { feed_id: 'jtwc-best-track-southern-hemisphere', version: '2024-05-22' },
};
/** The engine whose method the tropical-cyclone lanes re-implement. */
const CLIMADA_ENGINE = 'climada';

/**
 * The historical earthquake lane's ShakeMaps: the pinned snapshot of each event that has one, and
 * whether it holds a grid of means and deviations (runnable) or contour lines only. An event absent
 * here has none pinned. test/feeds/shakemap-grids.test.ts checks this table against the store.
 */
export const HISTORICAL_SHAKEMAPS: ShakeMapPins = {
  'northridge-1994': { feed_id: 'usgs-shakemap-northridge-1994', version: '2026-04-02', holds: 'grid' },
  'loma-prieta-1989': { feed_id: 'usgs-shakemap-loma-prieta-1989', version: '2014-10-25', holds: 'grid' },
  'anchorage-2018': { feed_id: 'usgs-shakemap-anchorage-2018', version: '2019-03-08', holds: 'grid' },
  'ridgecrest-2019': { feed_id: 'usgs-shakemap-ridgecrest-2019', version: '2019-08-15', holds: 'contours' },
};

/**
 * The pinned inputs of the probabilistic European and Turkish earthquake lane besides its
 * vulnerability functions (model_data): the catalog its demonstration source model is built from,
 * and the ESHM20 shallow-crust GMPE logic tree as ESRM20 publishes it.
 */
export const ESHM20_INPUTS = {
  catalog: { feed_id: 'usgs-comcat-m6-turkey', version: '2023-02-20' },
  gmpe_logic_tree: { feed_id: 'esrm20-scenario-events', version: '2023-03-08', file: 'gmpe_logic_tree_5br_shallow_default.xml' },
} as const;

export const TC_IMPACT_FUNCTION_TABLES = { feed_id: 'tc-impact-functions', version: '2025-09-30' } as const;

export interface LabModel {
  /** <engine>-<lane> for third-party engine lanes. */
  readonly id: string;
  readonly lane: LabLaneName;
  readonly engine: string;
  /** Version string with its revision: behaviour such as financial terms is tied to the revision. */
  readonly version: string;
  readonly revision: string;
  /** The one pinned snapshot a lane reads whole; lanes reading every pinned map of a family list them in GET /models. */
  readonly model_data?: { readonly feed_id: string; readonly version: string };
  readonly caps: Readonly<Record<string, unknown>>;
  readonly spec: Readonly<Record<string, string>>;
  readonly label: string;
}

export const LAB_MODELS: readonly LabModel[] = [
  {
    id: 'oasislmf-windstorm',
    lane: 'windstorm',
    engine: 'oasislmf',
    version: 'piwind-1.0.0-r3',
    revision: 'r3',
    model_data: { feed_id: 'oasis-piwind', version: '2026-07-30' },
    caps: {
      samples_max: MAX_SAMPLES,
      places_max: 100_000,
      reinsurance_layers_max: 3,
    },
    spec: {
      model: 'this identifier',
      samples: `integer 0 to ${MAX_SAMPLES}; 0 = analytical mean damage only (always reported)`,
      exposure: '{points: [{lat, lon, value}]} (buildings, residential occupancy 1050, perils WW1; a point is modeled when it falls in an area-peril cell of the model\'s grid, caps.footprint with its edges) or {object_id} (the stored schedule, keyed as the framework\'s lookup does)',
      correlation: 'optional: {damage_group: "location_peril_group" (default, the framework\'s: one random set per location and peril correlation group; PiWind samples wind and storm surge independently) | "location" (one set per location, perils fully correlated) | "item" (one set per item)}; part of the run\'s content address; no effect with samples 0',
      terms: 'from r3, optional: {policy: {place_deductible, place_limit, account_deductible, account_limit}, reinsurance: {quota_share: {ceded_share}, layers: [{attachment, limit}] (up to three, stacked from the lowest)}}',
    },
    label: 'Externally built open model (Oasis LMF PiWind demonstration windstorm data) run through this service\'s re-implementation of the framework\'s ground-up calculation; distinct from the registry\'s validated models.',
  },
  {
    id: 'river-flood',
    lane: 'river-flood',
    engine: 'catrisk',
    version: 'flood-1.0.0-r1',
    revision: 'r1',
    caps: { places_max: 100_000 },
    spec: {
      model: 'this identifier',
      sector: `${FLOOD_SECTORS.join(' | ')} (default residential): the JRC depth-damage curve's sector`,
      exposure: '{points: [{lat, lon, value}]} or {object_id} (a location\'s value is its buildings plus contents value); a place no pinned map covers is unmodeled',
    },
    label: 'Externally built open flood depth maps (pinned river-flood maps, undefended) with the JRC global depth-damage functions (Huizinga et al. 2017), run by this service; distinct from the registry\'s validated models.',
  },
  {
    id: 'coastal-flood',
    lane: 'coastal-flood',
    engine: 'catrisk',
    version: 'flood-1.0.0-r1',
    revision: 'r1',
    caps: { places_max: 100_000 },
    spec: {
      model: 'this identifier',
      sector: `${FLOOD_SECTORS.join(' | ')} (default residential): the JRC depth-damage curve's sector`,
      exposure: '{points: [{lat, lon, value}]} or {object_id}; a place no pinned coastal map covers is unmodeled (with none pinned, every place)',
    },
    label: 'Externally built open coastal flood depth maps (undefended) with the JRC global depth-damage functions (Huizinga et al. 2017), run by this service; distinct from the registry\'s validated models. No coastal map is pinned yet: every place comes back unmodeled.',
  },
  {
    id: 'wildfire',
    lane: 'wildfire',
    engine: 'catrisk',
    version: 'wildfire-1.0.0-r1',
    revision: 'r1',
    caps: { places_max: 100_000, cell_deg: BURN_CELL_DEG },
    spec: {
      model: 'this identifier',
      exposure: '{points: [{lat, lon, value}]} or {object_id}; a place outside the pinned mapped-fire regions is unmodeled',
    },
    label: 'Empirical annual burn probability from the pinned MTBS mapped fires (fires of about 1,000 acres and more), computed by this service: an estimate from mapped fires, not a fire-behaviour simulation. No average annual loss; the only loss figure is a ceiling, burn probability × value.',
  },
  {
    id: 'openquake-scenario-eq',
    lane: 'scenario-earthquake',
    engine: 'openquake',
    version: 'scenario-eq-1.0.0-r1',
    revision: 'r1',
    model_data: { feed_id: 'gem-vulnerability-europe', version: '2024-07-29' },
    caps: { places_max: SCENARIO_PLACES_MAX, reach_km: SCENARIO_REACH_KM, fields: SCENARIO_FIELDS, magnitude: [...MAGNITUDE_RANGE], depth_km_max: DEEPEST_HYPOCENTRE_KM },
    spec: {
      model: 'this identifier',
      rupture: `{magnitude (${MAGNITUDE_RANGE[0]} to ${MAGNITUDE_RANGE[1]}), lat, lon, depth_km (0 to ${DEEPEST_HYPOCENTRE_KM}; tectonic region ${TECTONIC_REGION_RULE}), strike? (degrees, default 0), dip? (default by mechanism: ${Object.entries(MECHANISM_DEFAULTS).map(([m, d]) => `${m} ${d.dip}`).join(', ')}), rake? (default by mechanism: ${Object.entries(MECHANISM_DEFAULTS).map(([m, d]) => `${m} ${d.rake}`).join(', ')}; strike-slip when neither is given), mechanism? (strike-slip | reverse | normal; must agree with rake)}`,
      exposure: `{points: [{lat, lon, value, vs30?}]} (vs30 in m/s, ${VS30_RANGE[0]} to ${VS30_RANGE[1]}, default ${DEFAULT_VS30}) or {object_id} (a location's value is its buildings plus contents value, vs30 ${DEFAULT_VS30}); a place more than ${SCENARIO_REACH_KM} km from the rupture is unmodeled`,
      vulnerability: `optional, one of ${VULNERABILITY_CURVES.map((c) => `${c.id} (${c.function_id})`).join(', ')}; default ${DEFAULT_VULNERABILITY}`,
    },
    label: 'Scenario earthquake computed by this service in the manner of the OpenQuake engine\'s scenario calculator: ground-motion models implemented from their papers and checked against OpenQuake\'s verification tables, seeded correlated ground-motion fields, GEM vulnerability functions (CC BY-NC-SA 4.0, non-commercial use only); distinct from the registry\'s validated models. One event: no annual figure.',
  },
  {
    id: 'openquake-historical-eq',
    lane: 'historical-earthquake',
    engine: 'openquake',
    version: 'historical-eq-1.0.0-r1',
    revision: 'r1',
    model_data: { feed_id: 'gem-vulnerability-europe', version: '2024-07-29' },
    caps: { places_max: HISTORICAL_PLACES_MAX, fields: HISTORICAL_FIELDS, events: [...HISTORICAL_EVENTS], runnable_events: runnableEvents(HISTORICAL_SHAKEMAPS) },
    spec: {
      model: 'this identifier',
      event: `one of ${HISTORICAL_EVENTS.join(', ')}; runnable only where its ShakeMap grid (mean and standard deviation) is pinned: ${runnableEvents(HISTORICAL_SHAKEMAPS).join(', ')} (pinned_inputs.events says which and why)`,
      exposure: `{points: [{lat, lon, value}]} (up to ${HISTORICAL_PLACES_MAX}) or {object_id} (a location's value is its buildings plus contents value); a place outside the ShakeMap grid is unmodeled`,
      vulnerability: `optional, one of ${VULNERABILITY_CURVES.map((c) => `${c.id} (${c.function_id})`).join(', ')}; default ${DEFAULT_VULNERABILITY}`,
      ground_motion: `${HISTORICAL_FIELDS} seeded fields conditioned on the event's ShakeMap: its mean plus its standard deviation times a standard normal residual correlated between places after Jayaram and Baker (2009)`,
    },
    label: 'Historical earthquake computed by this service in the manner of the OpenQuake engine\'s ShakeMap-based scenario: seeded ground-motion fields conditioned on the event\'s pinned USGS ShakeMap, GEM vulnerability functions (CC BY-NC-SA 4.0, non-commercial use only); distinct from the registry\'s validated models. One event: no annual figure.',
  },
  {
    // <engine>-<lane>, as SPEC names the third-party engine lanes.
    id: `${CLIMADA_ENGINE}-tc-history`,
    lane: 'tropical-cyclone-history',
    engine: CLIMADA_ENGINE,
    version: 'h08-1.0.0-r1',
    revision: 'r1',
    caps: { ...TC_HISTORY_CAPS },
    spec: {
      model: 'this identifier',
      impact_function: `${IMPACT_FUNCTION_CHOICES.join(' | ')} (default auto: the US curve, emanuel-2011-usa, at places in the United States; the regional TDR 1.0 curve, eberenz-2021-tdr1.0, elsewhere, by the country of each point; the global calibration at sea and in countries of no calibrated region)`,
      hazard: `{basin: ${TC_BASINS.map((b) => `${b} (${TC_BASIN_NAMES[b]})`).join(', ')}; years: [seasons, integers, up to ${TC_HISTORY_CAPS.years_max}]; storms: optional [names or publisher ids]; default every storm of the seasons}`,
      exposure: `{points: [{lat, lon, value}]} (up to ${TC_HISTORY_CAPS.places_max}) or {object_id} (a location's value is its buildings plus contents value); a place beyond ${WINDFIELD_DEFAULTS.max_latitude}° latitude or without coordinates is unmodeled`,
      wind_field: `Holland (2008) as CLIMADA computes it: tracks on ${WINDFIELD_DEFAULTS.time_step_h}-hour steps, missing central pressure and radius of maximum wind estimated as CLIMADA does, translational wind added, intensity threshold ${WINDFIELD_DEFAULTS.intensity_threshold_m_s} m/s, ${WINDFIELD_DEFAULTS.max_dist_eye_km} km from the eye, gradient-to-surface factor ${WINDFIELD_DEFAULTS.gradient_to_surface} (Holland 1980 variant only), air density ${WINDFIELD_DEFAULTS.rho_air_kg_m3} kg/m³`,
      result: 'a season-by-season replay: season totals, each storm with its publisher id, dates, peak wind at each place and loss; no return periods',
    },
    label: 'Externally built open method (CLIMADA\'s tropical-cyclone wind field and calibrated impact functions) over the pinned best-track archives, re-implemented and run by this service; distinct from the registry\'s validated models.',
  },
  {
    id: `${CLIMADA_ENGINE}-tc-synthetic`,
    lane: 'tropical-cyclone-synthetic',
    engine: CLIMADA_ENGINE,
    version: 'h08-synthetic-1.0.0-r1',
    revision: 'r1',
    caps: { ...TC_SYNTHETIC_CAPS },
    spec: {
      model: 'this identifier',
      impact_function: `${IMPACT_FUNCTION_CHOICES.join(' | ')} (default auto, as the history lane)`,
      hazard: `{basin: ${TC_BASINS.join(' | ')}; years: optional number of sample years, 1 to ${MAX_SAMPLE_YEARS} (default ${MAX_SAMPLE_YEARS})}`,
      exposure: `{points: [{lat, lon, value}]} (up to ${TC_SYNTHETIC_CAPS.places_max}) or {object_id}`,
      event_set: `the basin's tracks of seasons ${REFERENCE_FROM_SEASON} on, each with ${SYNTHETIC_DEFAULTS.members} members by CLIMADA's directed random walk (start shift ±${SYNTHETIC_DEFAULTS.max_shift_ini_deg}°, speed ±${SYNTHETIC_DEFAULTS.max_dspeed_rel * 100}%, direction ±π/360 per hour) with decay over land; sample years draw a Poisson number of storms at the historical rate, seeded`,
      near_tracks: `tracks never within ${WINDFIELD_DEFAULTS.max_dist_eye_km} km of the places are screened out and counted; a run needing more near tracks than caps.near_tracks is refused (levers: fewer sample years, tighter exposure clusters)`,
      result: 'lab-metrics/1 (AAL with standard deviation and error, OEP/AEP with TVaR, 1,000-year blocks, per-place shares, largest events, event and year loss tables, damage-curve sensitivity)',
    },
    label: 'Externally built open method (CLIMADA\'s probabilistic tropical-cyclone tracks, wind field and calibrated impact functions) over the pinned best-track archives, re-implemented and run by this service; distinct from the registry\'s validated models.',
  },
  {
    id: 'openquake-eshm20-eq',
    lane: 'eshm20-earthquake',
    engine: 'openquake',
    version: 'eshm20-demonstration-1.0.0-r1',
    revision: 'r1',
    model_data: { feed_id: 'gem-vulnerability-europe', version: '2024-07-29' },
    caps: {
      places_max: ESHM20_PLACES_MAX, sample_years: ESHM20_BRANCHES * ESHM20_YEARS_PER_BRANCH, branches: ESHM20_BRANCHES, years_per_branch: ESHM20_YEARS_PER_BRANCH,
      site_model_reach_km: DEMO_SOURCE_MODEL.site_reach_km, rupture_reach_km: ESHM20_REACH_KM,
    },
    spec: {
      model: 'this identifier',
      building_class: `required, one of ${BUILDING_CLASSES.map((c) => `${c.id} (${c.taxonomy})`).join(', ')}: the GEM taxonomy string of the pinned structural vulnerability function it reads`,
      exposure: `{points: [{lat, lon, value}]} (up to ${ESHM20_PLACES_MAX}) or {object_id} (a location's value is its buildings plus contents value); every place at Vs30 ${SITE_VS30} m/s; a place more than ${DEMO_SOURCE_MODEL.site_reach_km} km from the site model's grid (the demonstration source model's ${DEMO_SOURCE_MODEL.grid_spacing_deg}° grid over the catalog's Turkey box) is unmodeled`,
      sample: `${ESHM20_BRANCHES} logic-tree branches sampled by weight (b-value, Mmax, ESHM20 ground-motion branch), ${ESHM20_YEARS_PER_BRANCH} sample years each: ${ESHM20_BRANCHES * ESHM20_YEARS_PER_BRANCH} years; seeded, so one spec gives one result`,
      source_model: 'demonstration, not ESHM20 (its source and site models are not pinned): smoothed seismicity and a Gutenberg-Richter law fitted (Aki-Utsu) on the pinned ComCat Turkey catalog; stated on every result',
      result: 'lab-metrics/1 (AAL with standard deviation and error, OEP/AEP to 1 in 1,000 with TVaR, 1,000-year blocks, per-place shares, largest events, event and year loss tables) with the source model, the sampled branches and their AALs',
    },
    label: 'Probabilistic earthquake losses computed by this service in the manner of the OpenQuake engine\'s event-based risk calculator, on a demonstration source model built from the pinned ComCat Turkey catalog (not ESHM20), the ESHM20 ground-motion logic tree, seeded correlated fields and GEM vulnerability functions (CC BY-NC-SA 4.0, non-commercial use only); distinct from the registry\'s validated models.',
  },
];

export function labModel(id: unknown): LabModel | undefined {
  return LAB_MODELS.find((m) => m.id === id);
}
