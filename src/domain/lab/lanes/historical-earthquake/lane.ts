// The historical earthquake lane: seeded ground-motion fields conditioned on an event's pinned USGS
// ShakeMap grid or, where no grid is pinned, on its recording stations (OpenQuake's conditioned
// ground-motion fields), and the GEM vulnerability functions.
import { ok } from '../../../../kernel/result.js';
import type { LabLocation } from '../../engine/places.js';
import { valuedPlaces } from '../earthquake/field-losses.js';
import { labLane, modelOf, wholeRun } from '../../lane.js';
import { snapshotListing, unavailable } from '../../inputs.js';
import { STATION_REACH_KM } from '../earthquake/station-fields.js';
import { PLACES_EXPOSURE } from '../places-exposure.js';
import { exposureTerms } from '../../engine/place-terms.js';
import { LANE_OED_PERILS, OBJECT_TERMS_WORDS, oedSpecIdentity, PERIL_GROUPS_INPUT, termsResultProperties } from '../oed-terms.js';
import { GEM_VULNERABILITY, VULNERABILITY_MEMBER, vulnerabilityInput, vulnerabilityListing } from '../earthquake/vulnerability-listing.js';
import {
  HISTORICAL_EVENTS, HISTORICAL_FIELDS, HISTORICAL_PLACES_MAX, missingInput, readHistoricalSpec, runHistoricalQuake, runnableEvents,
  type HistoricalPlace, type HistoricalSpec, type ShakeMapPins,
} from '../earthquake/historical-lane.js';

/**
 * The ShakeMaps: the pinned snapshot of each event that has one, and whether it holds a grid of
 * means and deviations (runnable), the station data a grid is made from (runnable, conditioned on
 * the stations) or contour lines only. An event absent here has none pinned.
 * test/feeds/shakemap-grids.test.ts checks this table against the store.
 */
export const HISTORICAL_SHAKEMAPS: ShakeMapPins = {
  'northridge-1994': { feed_id: 'usgs-shakemap-northridge-1994', version: '2026-04-02', holds: 'grid' },
  'loma-prieta-1989': { feed_id: 'usgs-shakemap-loma-prieta-1989', version: '2014-10-25', holds: 'grid' },
  'anchorage-2018': { feed_id: 'usgs-shakemap-anchorage-2018', version: '2019-03-08', holds: 'grid' },
  'ridgecrest-2019': { feed_id: 'usgs-shakemap-ridgecrest-2019', version: '2019-08-15', holds: 'contours' },
  'south-napa-2014': { feed_id: 'usgs-shakemap-inputs-south-napa-2014', version: '2021-11-24', holds: 'stations' },
  'kahramanmaras-2023': { feed_id: 'usgs-shakemap-stations-kahramanmaras-2023', version: '2023-02-23', holds: 'stations' },
};

type HistoricalRunSpec = Omit<HistoricalSpec, 'exposure'> & { exposure: { points: HistoricalPlace[] } | { locations: LabLocation[] } };

export const historicalEarthquake = labLane({
  id: 'openquake-historical-eq',
  lane: 'historical-earthquake',
  engine: 'openquake',
  version: 'historical-eq-1.0.0-r1',
  revision: 'r1',
  label: 'Historical earthquake computed by this service in the manner of the OpenQuake engine\'s ShakeMap-based scenario: seeded ground-motion fields conditioned on the event\'s pinned USGS ShakeMap grid or, where only its station data is pinned, on the stations as OpenQuake\'s conditioned ground-motion fields are, GEM vulnerability functions (CC BY-NC-SA 4.0, non-commercial use only); distinct from the registry\'s validated models. One event: no annual figure.',
  members: {
    event: {
      schema: { enum: [...HISTORICAL_EVENTS] },
      description: `one of ${HISTORICAL_EVENTS.join(', ')}; runnable only where its ShakeMap grid (mean and standard deviation) or its station list is pinned: ${runnableEvents(HISTORICAL_SHAKEMAPS).join(', ')} (pinned_inputs.events says which, on what, and why)`,
    },
    vulnerability: VULNERABILITY_MEMBER,
  },
  exposure: {
    schema: PLACES_EXPOSURE,
    description: `{points: [{lat, lon, value}]} (up to ${HISTORICAL_PLACES_MAX}) or {object_id} (a location's value is its buildings plus contents value; ${OBJECT_TERMS_WORDS}); a place outside the ShakeMap grid (or, on stations, farther than ${STATION_REACH_KM} km from the rupture) is unmodeled`,
  },
  notes: {
    ground_motion: `${HISTORICAL_FIELDS} seeded fields conditioned on the event's ShakeMap grid: its mean plus its standard deviation times a standard normal residual correlated between places after Jayaram and Baker (2009); or, for an event with station data and no grid (${HISTORICAL_EVENTS.filter((e) => HISTORICAL_SHAKEMAPS[e]?.holds === 'stations').join(', ')}), conditioned on its stations as OpenQuake's conditioned ground-motion fields are (Engler et al. 2022), the GMPE logic tree of its tectonic region; the result's ground_motion.basis says which`,
  },
  caps: { places_max: HISTORICAL_PLACES_MAX, fields: HISTORICAL_FIELDS, events: [...HISTORICAL_EVENTS], runnable_events: runnableEvents(HISTORICAL_SHAKEMAPS) },
  inputs: {
    vulnerability: { reader: 'structural-vulnerability', source: { pin: GEM_VULNERABILITY } },
    shakemap: { reader: 'shakemap', source: { pins: HISTORICAL_SHAKEMAPS, pick: (spec: HistoricalRunSpec) => spec.event } },
    peril_groups: PERIL_GROUPS_INPUT,
  },

  normalize(spec, exposure) {
    const read = readHistoricalSpec({ event: spec.event, vulnerability: spec.vulnerability, exposure: exposure.byObject ? { object_id: exposure.object_id } : exposure.value }, HISTORICAL_SHAKEMAPS);
    if (!read.ok) return read;
    const { event, vulnerability } = read.value;
    return ok({ ...modelOf(this), event, vulnerability, exposure: read.value.exposure });
  },

  // Each event: runnable when its ShakeMap grid is pinned (and held by this store), else the missing input.
  listing(found) {
    const events = HISTORICAL_EVENTS.map((event) => {
      const pin = HISTORICAL_SHAKEMAPS[event];
      const snapshot = pin ? found.shakemap[event] : undefined;
      const missing = missingInput(event, HISTORICAL_SHAKEMAPS) ?? (snapshot ? null : `event ${event} cannot run here: its ShakeMap ${pin!.holds === 'stations' ? 'station data' : 'grid'} ${pin!.feed_id} ${pin!.version} is not in this feed store`);
      return {
        event, runnable: missing === null,
        ...(pin && pin.holds !== 'contours' ? { runs_on: pin.holds === 'grid' ? 'shakemap_grid' : 'stations' } : {}),
        shakemap: pin ? (snapshot ? { ...snapshotListing(snapshot), holds: snapshot.holds } : unavailable(pin)) : null,
        ...(missing ? { missing } : {}),
      };
    });
    return { pinned_inputs: { events, ...vulnerabilityListing(found.vulnerability) } };
  },

  run({ vulnerability, shakemap, peril_groups }, spec: HistoricalRunSpec, { progress }) {
    const places = valuedPlaces(spec.exposure);
    const terms = exposureTerms(spec.exposure, peril_groups.value, LANE_OED_PERILS.earthquake);
    const result = wholeRun(places.length, progress, () => runHistoricalQuake(spec as unknown as HistoricalSpec, places, {
      map: shakemap.value, functions: vulnerability.value,
      vulnerabilityData: vulnerabilityInput(vulnerability.snapshot),
      terms,
    }));
    return ok({ model: { id: this.id, version: this.version, label: this.label }, ...result, inputs: [...(result.inputs as unknown[]), { input: 'peril_groups', ...oedSpecIdentity(peril_groups.snapshot) }] });
  },

  progress: (done, total) => `Modeled ${done} of ${total} places.`,

  result: {
    type: 'object',
    required: ['lane', 'model', 'inputs', 'event', 'shakemap', 'ground_motion', 'vulnerability', 'places', 'aggregate', 'unmodeled', 'frequency', 'licence'],
    properties: {
      lane: { const: 'historical_earthquake' },
      model: { type: 'object' },
      inputs: { type: 'array', description: 'Every pinned input read: feed id, version, SHA-256 and the files read.' },
      event: { enum: [...HISTORICAL_EVENTS] },
      shakemap: { type: 'object', description: 'The ShakeMap read: its snapshot, product and what it holds (a grid, with the basis of its standard deviations; or station data, with the event\'s origin).' },
      ground_motion: { type: 'object', description: 'basis shakemap_grid or stations; on stations: the stations used, the measures conditioned on, the rupture, the GMPE logic tree, the correlation models and each branch\'s nominal bias.' },
      vulnerability: { type: 'object' },
      places: { type: 'array' },
      aggregate: { type: ['object', 'null'] },
      unmodeled: { type: 'object' },
      frequency: { type: 'string', description: 'One event: no annual figure.' },
      licence: { type: 'string' },
      ...termsResultProperties('each {perspective, aggregate}: the portfolio\'s insured or net loss over the fields (mean, median, percentiles), the terms applied field by field; places[] then carry their mean insured and net loss', false),
    },
  },
});
