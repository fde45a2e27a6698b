// The tropical-cyclone history lane: CLIMADA's Holland (2008) wind field and calibrated impact
// functions over the pinned best tracks of the chosen seasons, replayed season by season.
import { ok } from '../../../../kernel/result.js';
import { labLane, modelOf, placesSpec } from '../../lane.js';
import { snapshotListing } from '../../inputs.js';
import { PLACES_EXPOSURE } from '../places-exposure.js';
import { OBJECT_TERMS_WORDS, oedSpecIdentity, termsResultProperties } from '../oed-terms.js';
import { IMPACT_FUNCTION_CHOICES } from '../tropical-cyclone/impact-functions.js';
import { WINDFIELD_DEFAULTS } from '../tropical-cyclone/holland-2008.js';
import { BASIN_SCHEMA, CLIMADA_ENGINE, TC_INPUTS, impactFunctionMember, tropicalCycloneListing } from '../tropical-cyclone/inputs.js';
import { readTcHistoryMembers, runTcHistory, TC_BASIN_NAMES, TC_BASINS, TC_HISTORY_CAPS, type TcHistorySpec } from '../tropical-cyclone/history-lane.js';

export const tropicalCycloneHistory = labLane({
  // <engine>-<lane>, as SPEC names the third-party engine lanes.
  id: `${CLIMADA_ENGINE}-tc-history`,
  lane: 'tropical-cyclone-history',
  engine: CLIMADA_ENGINE,
  // r2: CLIMADA v6.1's resampling, Holland b clip and missing-pressure rules (a run under r1 keeps its id and result).
  version: 'h08-1.1.0-r2',
  revision: 'r2',
  label: 'Externally built open method (CLIMADA\'s tropical-cyclone wind field and calibrated impact functions) over the pinned best-track archives, re-implemented and run by this service; distinct from the registry\'s validated models.',
  members: {
    impact_function: impactFunctionMember(`${IMPACT_FUNCTION_CHOICES.join(' | ')} (default auto: the US curve, emanuel-2011-usa, at places in the United States; the regional TDR 1.0 curve, eberenz-2021-tdr1.0, elsewhere, by the country of each point; the global calibration at sea and in countries of no calibrated region)`),
    hazard: {
      schema: {
        type: 'object', required: ['basin', 'years'], additionalProperties: false,
        properties: {
          basin: BASIN_SCHEMA,
          years: { type: 'array', minItems: 1, maxItems: TC_HISTORY_CAPS.years_max, items: { type: 'integer' } },
          storms: { type: 'array', items: { type: 'string' } },
        },
      },
      description: `{basin: ${TC_BASINS.map((b) => `${b} (${TC_BASIN_NAMES[b]})`).join(', ')}; years: [seasons, integers, up to ${TC_HISTORY_CAPS.years_max}]; storms: optional [names or publisher ids]; default every storm of the seasons}`,
    },
  },
  exposure: {
    schema: PLACES_EXPOSURE,
    description: `{points: [{lat, lon, value}]} (up to ${TC_HISTORY_CAPS.places_max}) or {object_id} (a location's value is its buildings plus contents value; ${OBJECT_TERMS_WORDS}); a place beyond ${WINDFIELD_DEFAULTS.max_latitude}° latitude or without coordinates is unmodeled`,
  },
  notes: {
    wind_field: `Holland (2008) as CLIMADA v6.1 computes it: tracks on ${WINDFIELD_DEFAULTS.time_step_h}-hour steps (other variables than position linear as numpy's interp), every central pressure of a track estimated when one is missing and a missing radius of maximum wind at each step, as CLIMADA does, translational wind added, intensity threshold ${WINDFIELD_DEFAULTS.intensity_threshold_m_s} m/s, ${WINDFIELD_DEFAULTS.max_dist_eye_km} km from the eye, gradient-to-surface factor ${WINDFIELD_DEFAULTS.gradient_to_surface} (the Holland b clipped to [1, 2.5] × ${WINDFIELD_DEFAULTS.gradient_to_surface}²), air density ${WINDFIELD_DEFAULTS.rho_air_kg_m3} kg/m³; the run's assumptions say which rules are CLIMADA's and which the lab's own`,
    result: 'a season-by-season replay: season totals, each storm with its publisher id, dates, peak wind at each place and loss; no return periods',
  },
  caps: { ...TC_HISTORY_CAPS },
  inputs: TC_INPUTS,

  normalize(spec, exposure) {
    const read = placesSpec(exposure, TC_HISTORY_CAPS.places_max, (details) => readTcHistoryMembers(spec, details));
    return read.ok ? ok({ ...modelOf(this), ...read.value }) : read;
  },

  listing: tropicalCycloneListing,

  run({ tracks, impact_functions, peril_groups }, spec: TcHistorySpec, { progress }) {
    const result = runTcHistory({
      spec, storms: tracks.value.storms, calibration: impact_functions.value, perilGroups: peril_groups.value,
      identities: { tracks: snapshotListing(tracks.snapshot), impact_functions: snapshotListing(impact_functions.snapshot) },
      model: { id: this.id, version: this.version, label: this.label },
      ...(progress ? { onStorms: progress } : {}),
    });
    return result.ok ? ok({ ...result.value, oed_spec: oedSpecIdentity(peril_groups.snapshot) }) : result;
  },

  progress: (done, total) => `Replayed ${done} of ${total} storms.`,

  result: {
    type: 'object',
    required: ['lane', 'model', 'inputs', 'hazard', 'exposure', 'seasons', 'storms', 'totals', 'places', 'return_periods', 'method', 'assumptions', 'warnings'],
    properties: {
      lane: { const: 'tropical_cyclone_history' },
      model: { type: 'object' },
      inputs: { type: 'object', description: 'The best-track archive and impact-function tables read.' },
      hazard: { type: 'object' },
      exposure: { type: 'object' },
      seasons: { type: 'array', description: 'Season totals.' },
      storms: { type: 'array', description: 'Each storm with its publisher id, dates, peak wind at each place and loss.' },
      totals: { type: 'object' },
      places: { type: 'array', description: 'Per place: its loss over the storms, and with an object\'s OED terms its insured and net losses.' },
      ...termsResultProperties('each {perspective, loss, seasons [{season, loss}], storms [{storm_id, name, season, loss}]}, the terms applied storm by storm'),
      return_periods: { type: 'null', description: 'A replay of history: no return periods.' },
      note: { type: 'string' },
      method: { type: 'object' },
      assumptions: { type: 'array', items: { type: 'string' } },
      warnings: { type: 'array', items: { type: 'string' } },
    },
  },
});
