// The lab's models: identifiers, versions with their revision, the pinned model data they read, caps.
import { MAX_SAMPLES } from './kernel/ground-up.js';

export interface LabModel {
  /** <engine>-<lane> for third-party engine lanes. */
  readonly id: string;
  readonly lane: 'windstorm';
  readonly engine: string;
  /** Version string with its revision: behaviour such as financial terms is tied to the revision. */
  readonly version: string;
  readonly revision: 'r3';
  readonly model_data: { readonly feed_id: string; readonly version: string };
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
];

export function labModel(id: unknown): LabModel | undefined {
  return LAB_MODELS.find((m) => m.id === id);
}
