// The lab's models: identifiers, versions with their revision, the pinned model data they read, caps.
// Which lane runs a model, and what it reads, is the lane table of app/lab-lanes.ts.
import { MAX_SAMPLES } from './kernel/ground-up.js';
import { FLOOD_SECTORS } from './lanes/flood/depth-damage.js';
import { BURN_CELL_DEG } from './lanes/wildfire/wildfire-lane.js';

export type LabLaneName = 'windstorm' | 'river-flood' | 'coastal-flood' | 'wildfire';

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
];

export function labModel(id: unknown): LabModel | undefined {
  return LAB_MODELS.find((m) => m.id === id);
}
