// Both flood lanes' declaration (river-flood/lane.ts, coastal-flood/lane.ts): the same members,
// inputs and run over every pinned depth map of the lane's kind and the JRC tables.
import { ok } from '../../../../kernel/result.js';
import type { PlaceExposure } from '../../engine/places.js';
import { labLane, modelOf, placeCount, placesSpec, wholeRun, type LabModelIdentity } from '../../lane.js';
import { snapshotListing, type InputFamily } from '../../inputs.js';
import { FLOOD_SECTORS, type FloodSector } from './depth-damage.js';
import type { FloodKind } from './depth-map.js';
import { readFloodSector, runFlood } from './flood-lane.js';
import { PLACES_EXPOSURE } from '../places-exposure.js';
import { exposureTerms } from '../../engine/place-terms.js';
import { LANE_OED_PERILS, oedSpecIdentity, PERIL_GROUPS_INPUT, termsResultProperties } from '../oed-terms.js';

export interface FloodLaneFacts extends Omit<LabModelIdentity, 'lane'> {
  readonly lane: 'river-flood' | 'coastal-flood';
  readonly flood: FloodKind;
  readonly maps: InputFamily;
  readonly exposure: string;
}

export function floodLane(facts: FloodLaneFacts) {
  const { flood, maps, exposure, ...identity } = facts;
  return labLane({
    ...identity,
    members: {
      sector: {
        schema: { enum: [...FLOOD_SECTORS], default: 'residential' },
        description: `${FLOOD_SECTORS.join(' | ')} (default residential): the JRC depth-damage curve's sector`,
      },
    },
    exposure: { schema: PLACES_EXPOSURE, description: exposure },
    caps: { places_max: 100_000 },
    inputs: {
      maps: { reader: 'flood-maps', source: { family: maps } },
      depth_damage: { reader: 'depth-damage-tables', source: { family: 'depth_damage_tables' }, missing: 'The JRC depth-damage tables are not pinned here.' },
      peril_groups: PERIL_GROUPS_INPUT,
    },

    normalize(spec, ex) {
      const read = placesSpec(ex, Infinity, (details) => ({ sector: readFloodSector(spec.sector, details) }));
      return read.ok ? ok({ ...modelOf(this), ...read.value }) : read;
    },

    listing(found) {
      const tables = found.depth_damage[0];
      return {
        pinned_inputs: {
          maps: found.maps.map((s) => ({ ...snapshotListing(s), title: s.title ?? null, coverage: s.coverage, return_periods: s.return_periods })),
          depth_damage: tables ? { ...snapshotListing(tables), title: tables.title ?? null } : { available: false },
          reads: `every pinned ${flood} flood depth map the feed catalog recognises (by its manifest), so a map pinned with catrisk feeds add is read without code changes`,
        },
      };
    },

    run(inputs, spec: { sector: FloodSector; exposure: PlaceExposure }, { progress }) {
      const tables = inputs.depth_damage.value;
      const terms = exposureTerms(spec.exposure, inputs.peril_groups.value, flood === 'river' ? LANE_OED_PERILS.river_flood : LANE_OED_PERILS.coastal_flood);
      const result = wholeRun(placeCount(spec.exposure), progress, () => runFlood({ sector: spec.sector, exposure: spec.exposure }, {
        lane: this.lane as FloodLaneFacts['lane'], flood,
        model: { id: this.id, version: this.version, label: this.label },
        maps: inputs.maps.value, curves: tables.curves, countries: tables.countries, curveSource: tables.identity, terms,
      }));
      return ok({ ...result, oed_spec: oedSpecIdentity(inputs.peril_groups.snapshot) });
    },

    progress: (done, total) => `Modeled ${done} of ${total} places.`,

    result: {
      type: 'object',
      required: ['lane', 'model', 'sector', 'exposure', 'maps_read', 'curves', 'aal', 'places', 'unmodeled', 'method', 'warnings'],
      properties: {
        lane: { const: identity.lane },
        model: { type: 'object' },
        sector: { enum: [...FLOOD_SECTORS] },
        exposure: { type: 'object' },
        maps_read: { type: 'array', description: 'Each map read: feed id, version, sha256, kind, conditions, return periods, grid, place.' },
        curves: { type: 'object', description: 'The JRC tables read and each curve used: continent, sector.' },
        aal: { type: ['number', 'null'], description: 'The portfolio\'s average annual loss (null when no place is modeled).' },
        aal_parts: { type: ['object', 'null'] },
        return_period_losses: { type: 'array', description: 'The portfolio loss at each return period every used map publishes.' },
        by_map: { type: 'array' },
        places: { type: 'array', description: 'Per modeled place: depths per map and return period, the map whose loss is taken, losses, AAL.' },
        unmodeled: { type: 'object' },
        no_loss_figure: { type: 'string' },
        method: { type: 'array', items: { type: 'string' } },
        warnings: { type: 'array', items: { type: 'string' } },
        ...termsResultProperties('each {perspective, aal, return_period_losses}: the terms applied once per return period the used maps share, every modeled place at its return-period depth; places[] then carry insured and net {aal, losses}'),
      },
    },
  });
}
