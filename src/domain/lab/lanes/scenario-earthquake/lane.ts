// The scenario earthquake lane: one rupture, seeded correlated ground-motion fields through the
// GMPE logic tree of its tectonic region, and the GEM vulnerability functions.
import { ok } from '../../../../kernel/result.js';
import type { LabLocation } from '../../engine/places.js';
import { valuedPlaces } from '../earthquake/field-losses.js';
import { labLane, modelOf, wholeRun } from '../../lane.js';
import { OBJECT_EXPOSURE } from '../places-exposure.js';
import { exposureTerms } from '../../engine/place-terms.js';
import { LANE_OED_PERILS, OBJECT_TERMS_WORDS, oedSpecIdentity, PERIL_GROUPS_INPUT, termsResultProperties } from '../oed-terms.js';
import { DEEPEST_HYPOCENTRE_KM } from '../earthquake/logic-tree.js';
import { TECTONIC_REGION_RULE } from '../earthquake/tectonic-regions.js';
import { GEM_VULNERABILITY, VULNERABILITY_MEMBER, vulnerabilityInput, vulnerabilityListing } from '../earthquake/vulnerability-listing.js';
import { ASPECT_RATIO_MAX, DEFAULT_ASPECT_RATIO, DEFAULT_PLACEMENT, LOWER_SEISMOGENIC_DEPTH_MAX_KM, PLACEMENTS } from '../earthquake/rupture-placement.js';
import {
  DEFAULT_VS30, MAGNITUDE_RANGE, MECHANISM_DEFAULTS, SCENARIO_FIELDS, SCENARIO_PLACES_MAX, SCENARIO_REACH_KM, VS30_RANGE,
  readScenarioSpec, runScenarioQuake, type ScenarioPlace, type ScenarioSpec,
} from '../earthquake/scenario-lane.js';

const byMechanism = (of: 'dip' | 'rake') => Object.entries(MECHANISM_DEFAULTS).map(([m, d]) => `${m} ${d[of]}`).join(', ');

export const scenarioEarthquake = labLane({
  id: 'openquake-scenario-eq',
  lane: 'scenario-earthquake',
  engine: 'openquake',
  // r2: the plane placed by OpenQuake's point-rupture rule by default (r1's 20 km layer rule on request);
  // each place reports PGA and the curve's measure per GMPE, for the weighted tree and over the fields.
  version: 'scenario-eq-1.1.0-r2',
  revision: 'r2',
  label: 'Scenario earthquake computed by this service in the manner of the OpenQuake engine\'s scenario calculator: ground-motion models implemented from their papers and checked against OpenQuake\'s verification tables, seeded correlated ground-motion fields, GEM vulnerability functions (CC BY-NC-SA 4.0, non-commercial use only); distinct from the registry\'s validated models. One event: no annual figure.',
  members: {
    rupture: {
      schema: {
        type: 'object',
        required: ['magnitude', 'lat', 'lon', 'depth_km'],
        additionalProperties: false,
        properties: {
          magnitude: { type: 'number', minimum: MAGNITUDE_RANGE[0], maximum: MAGNITUDE_RANGE[1] },
          lat: { type: 'number', minimum: -90, maximum: 90 },
          lon: { type: 'number', minimum: -180, maximum: 180 },
          depth_km: { type: 'number', minimum: 0, maximum: DEEPEST_HYPOCENTRE_KM },
          strike: { type: 'number', default: 0 },
          dip: { type: 'number' },
          rake: { type: 'number' },
          mechanism: { enum: Object.keys(MECHANISM_DEFAULTS) },
          placement: { enum: [...PLACEMENTS], default: DEFAULT_PLACEMENT },
          aspect_ratio: { type: 'number', exclusiveMinimum: 0, maximum: ASPECT_RATIO_MAX, default: DEFAULT_ASPECT_RATIO },
          upper_seismogenic_depth_km: { type: 'number', minimum: 0, maximum: LOWER_SEISMOGENIC_DEPTH_MAX_KM, default: 0 },
          lower_seismogenic_depth_km: { type: 'number', exclusiveMinimum: 0, maximum: LOWER_SEISMOGENIC_DEPTH_MAX_KM },
        },
      },
      description: `{magnitude (${MAGNITUDE_RANGE[0]} to ${MAGNITUDE_RANGE[1]}), lat, lon, depth_km (0 to ${DEEPEST_HYPOCENTRE_KM}; tectonic region ${TECTONIC_REGION_RULE}), strike? (degrees, default 0), dip? (default by mechanism: ${byMechanism('dip')}), rake? (default by mechanism: ${byMechanism('rake')}; strike-slip when neither is given), mechanism? (strike-slip | reverse | normal; must agree with rake), placement? (${PLACEMENTS.join(' | ')}, default ${DEFAULT_PLACEMENT}: OpenQuake's point-rupture plane, WC1994 area split by aspect_ratio? (default ${DEFAULT_ASPECT_RATIO}), kept between upper_seismogenic_depth_km? (default 0) and lower_seismogenic_depth_km? (default none: no floor), hypocentre at the centre; seismogenic_layer_20km: revision r1's rule, Wells and Coppersmith (1994) area and width kept between the surface and 20 km, and takes none of the three)}`,
    },
    vulnerability: VULNERABILITY_MEMBER,
  },
  exposure: {
    schema: {
      oneOf: [
        {
          type: 'object', required: ['points'], additionalProperties: false,
          properties: { points: { type: 'array', maxItems: SCENARIO_PLACES_MAX, items: { type: 'object', required: ['lat', 'lon', 'value'], properties: { lat: { type: 'number' }, lon: { type: 'number' }, value: { type: 'number', minimum: 0 }, vs30: { type: 'number', minimum: VS30_RANGE[0], maximum: VS30_RANGE[1], default: DEFAULT_VS30 } } } } },
        },
        OBJECT_EXPOSURE,
      ],
    },
    description: `{points: [{lat, lon, value, vs30?}]} (vs30 in m/s, ${VS30_RANGE[0]} to ${VS30_RANGE[1]}, default ${DEFAULT_VS30}) or {object_id} (a location's value is its buildings plus contents value, vs30 ${DEFAULT_VS30}; ${OBJECT_TERMS_WORDS}); a place more than ${SCENARIO_REACH_KM} km from the rupture is unmodeled`,
  },
  caps: { places_max: SCENARIO_PLACES_MAX, reach_km: SCENARIO_REACH_KM, fields: SCENARIO_FIELDS, magnitude: [...MAGNITUDE_RANGE], depth_km_max: DEEPEST_HYPOCENTRE_KM },
  inputs: {
    vulnerability: { reader: 'structural-vulnerability', source: { pin: GEM_VULNERABILITY }, missing: 'The pinned vulnerability functions are not available here.' },
    peril_groups: PERIL_GROUPS_INPUT,
  },

  normalize(spec, exposure) {
    const read = readScenarioSpec({ rupture: spec.rupture, vulnerability: spec.vulnerability, exposure: exposure.byObject ? { object_id: exposure.object_id } : exposure.value });
    if (!read.ok) return read;
    const { rupture, vulnerability } = read.value;
    return ok({ ...modelOf(this), rupture, vulnerability, exposure: read.value.exposure });
  },

  listing(found) {
    return { pinned_inputs: vulnerabilityListing(found.vulnerability) };
  },

  run({ vulnerability, peril_groups }, spec: Omit<ScenarioSpec, 'exposure'> & { exposure: { points: ScenarioPlace[] } | { locations: LabLocation[] } }, { progress }) {
    const places = valuedPlaces(spec.exposure);
    const terms = exposureTerms(spec.exposure, peril_groups.value, LANE_OED_PERILS.earthquake);
    const result = wholeRun(places.length, progress, () => runScenarioQuake(spec as ScenarioSpec, places, {
      functions: vulnerability.value,
      vulnerabilityData: vulnerabilityInput(vulnerability.snapshot),
      terms,
    }));
    return ok({ model: { id: this.id, version: this.version, label: this.label }, ...result, inputs: [...(result.inputs as unknown[]), { input: 'peril_groups', ...oedSpecIdentity(peril_groups.snapshot) }] });
  },

  progress: (done, total) => `Modeled ${done} of ${total} places.`,

  result: {
    type: 'object',
    required: ['lane', 'model', 'inputs', 'rupture', 'tectonic_region', 'ground_motion', 'vulnerability', 'places', 'aggregate', 'unmodeled', 'frequency', 'licence'],
    properties: {
      lane: { const: 'scenario_earthquake' },
      model: { type: 'object' },
      inputs: { type: 'array', description: 'Every pinned input read: feed id, version, SHA-256 and the files read.' },
      rupture: { type: 'object', description: 'The rupture with its defaults filled in, its size and the placement rule used.' },
      rules: { type: 'object', description: 'Which rules of the run are OpenQuake\'s (file and function named) and which are this service\'s.' },
      tectonic_region: { type: 'object', description: 'The region chosen and why.' },
      ground_motion: { type: 'object', description: 'The logic tree, fields, seed, spatial correlation and what each place reports.' },
      vulnerability: { type: 'object' },
      places: { type: 'array', description: 'Per place: distances, PGA and the curve\'s measure per GMPE, for the weighted tree and over the fields, and loss percentiles over the fields.' },
      aggregate: { type: ['object', 'null'], description: 'The portfolio\'s loss over the fields (null when no place is modeled).' },
      unmodeled: { type: 'object' },
      frequency: { type: 'string', description: 'One event: no annual figure.' },
      licence: { type: 'string' },
      ...termsResultProperties('each {perspective, aggregate}: the portfolio\'s insured or net loss over the fields (mean, median, percentiles), the terms applied field by field; places[] then carry their mean insured and net loss', false),
    },
  },
});
