// The wildfire lane: the empirical annual burn probability per 0.25° cell from the pinned MTBS
// mapped-fire lists, and a loss ceiling (burn probability × value); no average annual loss.
import { ok } from '../../../../kernel/result.js';
import type { PlaceExposure } from '../../engine/places.js';
import { labLane, modelOf, placeCount, placesSpec, wholeRun } from '../../lane.js';
import { snapshotListing } from '../../inputs.js';
import { PLACES_EXPOSURE } from '../places-exposure.js';
import { BURN_CELL_DEG, runWildfire } from './wildfire-lane.js';

export const wildfire = labLane({
  id: 'wildfire',
  lane: 'wildfire',
  engine: 'catrisk',
  version: 'wildfire-1.0.0-r1',
  revision: 'r1',
  label: 'Empirical annual burn probability from the pinned MTBS mapped fires (fires of about 1,000 acres and more), computed by this service: an estimate from mapped fires, not a fire-behaviour simulation. No average annual loss; the only loss figure is a ceiling, burn probability × value.',
  members: {},
  exposure: {
    schema: PLACES_EXPOSURE,
    description: '{points: [{lat, lon, value}]} or {object_id}; a place outside the pinned mapped-fire regions is unmodeled',
  },
  caps: { places_max: 100_000, cell_deg: BURN_CELL_DEG },
  inputs: {
    fires: { reader: 'burn-grid', source: { family: 'fire_lists' }, missing: 'No MTBS mapped-fire list is pinned here: the burn probability has no record to be read from.' },
  },

  normalize(_spec, exposure) {
    const read = placesSpec(exposure, Infinity, () => ({}));
    return read.ok ? ok({ ...modelOf(this), ...read.value }) : read;
  },

  listing(found) {
    return {
      pinned_inputs: {
        maps: found.fires.map((s) => ({ ...snapshotListing(s), title: s.title ?? null, coverage: s.coverage })),
        burn_probability: 'derived from the mapped fires: no burn-probability raster is pinned',
      },
    };
  },

  run({ fires }, spec: { exposure: PlaceExposure }, { progress }) {
    return ok(wholeRun(placeCount(spec.exposure), progress, () =>
      runWildfire(spec.exposure, { model: { id: this.id, version: this.version, label: this.label }, regions: fires.value.regions }, fires.value.grid)));
  },

  progress: (done, total) => `Modeled ${done} of ${total} places.`,

  result: {
    type: 'object',
    required: ['lane', 'model', 'exposure', 'maps_read', 'burn_probability', 'aal', 'no_aal', 'loss_ceiling', 'places', 'unmodeled', 'method', 'warnings'],
    properties: {
      lane: { const: 'wildfire' },
      model: { type: 'object' },
      exposure: { type: 'object' },
      maps_read: { type: 'array', description: 'Each mapped-fire list read, with its version and digest.' },
      burn_probability: { type: 'object' },
      aal: { type: 'null', description: 'No average annual loss: the lane estimates burn probability only.' },
      no_aal: { type: 'string' },
      loss_ceiling: { type: ['number', 'null'], description: 'Burn probability × value summed over the modeled places.' },
      places: { type: 'array' },
      unmodeled: { type: 'object' },
      method: { type: 'array', items: { type: 'string' } },
      warnings: { type: 'array', items: { type: 'string' } },
    },
  },
});
