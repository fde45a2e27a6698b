// The tropical-cyclone synthetic lane: CLIMADA's probabilistic tracks (a directed random walk of
// the basin's best tracks, decay over land), the wind field and impact functions, and
// lab-metrics/1 over seeded sample years. A spec needing more near tracks than the budget is refused.
import { ok } from '../../../../kernel/result.js';
import { labLane, modelOf, placesSpec } from '../../lane.js';
import { snapshotListing } from '../../inputs.js';
import { PLACES_EXPOSURE } from '../places-exposure.js';
import { OBJECT_TERMS_WORDS, oedSpecIdentity, termsResultProperties } from '../oed-terms.js';
import { IMPACT_FUNCTION_CHOICES } from '../tropical-cyclone/impact-functions.js';
import { WINDFIELD_DEFAULTS } from '../tropical-cyclone/holland-2008.js';
import { SYNTHETIC_DEFAULTS } from '../tropical-cyclone/synthetic-tracks.js';
import { BASIN_SCHEMA, CLIMADA_ENGINE, TC_INPUTS, impactFunctionMember, tropicalCycloneListing } from '../tropical-cyclone/inputs.js';
import { TC_BASINS } from '../tropical-cyclone/history-lane.js';
import { MAX_SAMPLE_YEARS, readTcSyntheticMembers, REFERENCE_FROM_SEASON, runTcSynthetic, syntheticSample, TC_SYNTHETIC_CAPS, type SyntheticSample, type TcSyntheticSpec } from '../tropical-cyclone/synthetic-lane.js';

export const tropicalCycloneSynthetic = labLane({
  id: `${CLIMADA_ENGINE}-tc-synthetic`,
  lane: 'tropical-cyclone-synthetic',
  engine: CLIMADA_ENGINE,
  // r2: land and sea over Natural Earth's land, and CLIMADA v6.1's three wind rules (a run under r1
  // keeps its id and result).
  version: 'h08-synthetic-1.1.0-r2',
  revision: 'r2',
  label: 'Externally built open method (CLIMADA\'s probabilistic tropical-cyclone tracks, wind field and calibrated impact functions) over the pinned best-track archives, re-implemented and run by this service; distinct from the registry\'s validated models.',
  members: {
    impact_function: impactFunctionMember(`${IMPACT_FUNCTION_CHOICES.join(' | ')} (default auto, as the history lane)`),
    hazard: {
      schema: {
        type: 'object', required: ['basin'], additionalProperties: false,
        properties: { basin: BASIN_SCHEMA, years: { type: 'integer', minimum: 1, maximum: MAX_SAMPLE_YEARS, default: MAX_SAMPLE_YEARS } },
      },
      description: `{basin: ${TC_BASINS.join(' | ')}; years: optional number of sample years, 1 to ${MAX_SAMPLE_YEARS} (default ${MAX_SAMPLE_YEARS})}`,
    },
  },
  exposure: {
    schema: PLACES_EXPOSURE,
    description: `{points: [{lat, lon, value}]} (up to ${TC_SYNTHETIC_CAPS.places_max}) or {object_id} (${OBJECT_TERMS_WORDS})`,
  },
  notes: {
    event_set: `the basin's tracks of seasons ${REFERENCE_FROM_SEASON} on, each with ${SYNTHETIC_DEFAULTS.members} members by CLIMADA's directed random walk (start shift ±${SYNTHETIC_DEFAULTS.max_shift_ini_deg}°, speed ±${SYNTHETIC_DEFAULTS.max_dspeed_rel * 100}%, direction ±π/360 per hour), each member's wind and pressure decayed over land with CLIMADA's global coefficients, land being inside Natural Earth's 1:10m countries merged into land (CLIMADA's coord_on_land; the land object of world-atlas countries-10m.json) in every basin; sample years draw a Poisson number of storms at the historical rate, seeded`,
    near_tracks: `tracks never within ${WINDFIELD_DEFAULTS.max_dist_eye_km} km of the places are screened out and counted; a run needing more near tracks than caps.near_tracks is refused (levers: fewer sample years, tighter exposure clusters)`,
    result: 'lab-metrics/1 (AAL with standard deviation and error, OEP/AEP with TVaR, 1,000-year blocks, per-place shares, largest events, event and year loss tables, damage-curve sensitivity)',
  },
  caps: { ...TC_SYNTHETIC_CAPS },
  inputs: TC_INPUTS,

  normalize(spec, exposure) {
    const read = placesSpec(exposure, TC_SYNTHETIC_CAPS.places_max, (details) => readTcSyntheticMembers(spec, details));
    return read.ok ? ok({ ...modelOf(this), ...read.value }) : read;
  },

  listing: tropicalCycloneListing,

  // The near-track budget: the sample years and the screening are drawn as the run will draw them,
  // and the sample is handed on to the run (context.admitted) when this process runs the job.
  admit({ tracks, impact_functions }, spec: TcSyntheticSpec) {
    return syntheticSample({ spec, storms: tracks.value.storms, calibration: impact_functions.value });
  },

  run({ tracks, impact_functions, peril_groups }, spec: TcSyntheticSpec, { progress, land, admitted }) {
    const mask = land();
    const result = runTcSynthetic({
      spec, storms: tracks.value.storms, calibration: impact_functions.value, land: mask, perilGroups: peril_groups.value,
      ...(admitted ? { sample: admitted as SyntheticSample } : {}),
      ...(progress ? { onTracks: progress } : {}),
    });
    if (!result.ok) return result;
    return ok({
      ...result.value,
      model: { id: this.id, version: this.version, engine: this.engine, label: this.label },
      inputs: { tracks: snapshotListing(tracks.snapshot), impact_functions: snapshotListing(impact_functions.snapshot), land: mask.source },
      oed_spec: oedSpecIdentity(peril_groups.snapshot),
    });
  },

  progress: (done, total) => `Computed the winds of ${done} of ${total} near tracks.`,

  result: {
    type: 'object',
    required: ['lane', 'model', 'inputs', 'hazard', 'impact_function', 'exposure', 'tracks', 'metrics'],
    properties: {
      lane: { const: 'tropical_cyclone_synthetic' },
      model: { type: 'object' },
      inputs: { type: 'object', description: 'The best-track archive and impact-function tables read, and the land polygons the decay reads (package, version, file, sha256).' },
      hazard: { type: 'object', description: 'The basin, sample years and seed.' },
      impact_function: { type: 'object' },
      exposure: { type: 'object' },
      tracks: { type: 'object', description: 'The event set: reference tracks, members, near tracks screened and counted.' },
      metrics: { oneOf: [{ $ref: '#/components/schemas/lab-metrics.v1' }, { type: 'null' }] },
      ...termsResultProperties('each lab-metrics/1 with its damage-curve sensitivity, the terms applied event by event'),
    },
  },
});
