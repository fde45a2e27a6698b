// The windstorm lane: the Oasis LMF PiWind demonstration model data run through this service's
// re-implementation of the framework's ground-up calculation, financial terms from r3.
import { ok } from '../../../../kernel/result.js';
import { MAX_SAMPLES } from '../../engine/ground-up.js';
import { termsSpec } from '../../engine/financial.js';
import { DAMAGE_GROUP_RULES } from '../../engine/correlation.js';
import { labLane, modelOf } from '../../lane.js';
import { snapshotListing, unavailable } from '../../inputs.js';
import { PLACES_EXPOSURE } from '../places-exposure.js';
import { PERIL_GROUPS_INPUT } from '../oed-terms.js';
import { readWindstormSpec, runWindstorm, type WindstormSpec } from '../windstorm-piwind/windstorm-lane.js';

const PIWIND = { feed_id: 'oasis-piwind', version: '2026-07-30' } as const;
const REINSURANCE_LAYERS_MAX = 3;

const AMOUNT = { type: 'number', minimum: 0 } as const;

export const windstorm = labLane({
  id: 'oasislmf-windstorm',
  lane: 'windstorm',
  engine: 'oasislmf',
  version: 'piwind-1.0.0-r3',
  revision: 'r3',
  label: 'Externally built open model (Oasis LMF PiWind demonstration windstorm data) run through this service\'s re-implementation of the framework\'s ground-up calculation; distinct from the registry\'s validated models.',
  members: {
    samples: {
      schema: { type: 'integer', minimum: 0, maximum: MAX_SAMPLES, default: 0 },
      description: `integer 0 to ${MAX_SAMPLES}; 0 = analytical mean damage only (always reported)`,
    },
    terms: {
      schema: {
        type: ['object', 'null'],
        properties: {
          policy: { type: 'object', properties: { place_deductible: AMOUNT, place_limit: AMOUNT, account_deductible: AMOUNT, account_limit: AMOUNT } },
          reinsurance: {
            type: 'object',
            properties: {
              quota_share: { type: 'object', properties: { ceded_share: { type: 'number', minimum: 0, maximum: 1 } } },
              layers: { type: 'array', maxItems: REINSURANCE_LAYERS_MAX, items: { type: 'object', properties: { attachment: AMOUNT, limit: AMOUNT } } },
            },
          },
        },
      },
      description: 'from r3, optional: {policy: {place_deductible, place_limit, account_deductible, account_limit}, reinsurance: {quota_share: {ceded_share}, layers: [{attachment, limit}] (up to three, stacked from the lowest)}}',
    },
    correlation: {
      schema: { type: ['object', 'null'], properties: { damage_group: { enum: [...DAMAGE_GROUP_RULES] } } },
      description: 'optional: {damage_group: "location_peril_group" (default, the framework\'s: one random set per location and peril correlation group; PiWind samples wind and storm surge independently) | "location" (one set per location, perils fully correlated) | "item" (one set per item)}; part of the run\'s content address; no effect with samples 0',
    },
  },
  exposure: {
    schema: PLACES_EXPOSURE,
    description: '{points: [{lat, lon, value}]} (buildings, residential occupancy 1050, perils WW1; a point is modeled when it falls in an area-peril cell of the model\'s grid, caps.footprint with its edges) or {object_id} (the stored schedule, keyed as the framework\'s lookup does; an object ingested from an OED set has its location, account and reinsurance terms applied through the financial module, giving perspectives il and ri, and then takes no terms member)',
  },
  caps: { samples_max: MAX_SAMPLES, places_max: 100_000, reinsurance_layers_max: REINSURANCE_LAYERS_MAX },
  inputs: {
    model_data: { reader: 'piwind-model', source: { pin: PIWIND }, missing: 'The lab model data is not available here.' },
    // OED's peril groups, to apply an object's OED terms (LocPerilsCovered, PolPerilsCovered...).
    peril_groups: PERIL_GROUPS_INPUT,
  },

  normalize(spec, exposure) {
    const samples = spec.samples ?? 0;
    // Object exposure is read on the job; validate the rest with an empty schedule in its place.
    const read = readWindstormSpec({ samples, exposure: exposure.byObject ? { points: [] } : exposure.value, terms: spec.terms, correlation: spec.correlation }, this.revision);
    if (!read.ok) return read;
    return ok({
      ...modelOf(this),
      samples,
      exposure: exposure.byObject ? { object_id: exposure.object_id } : { points: read.value.locations.map((l) => ({ lat: l.latitude, lon: l.longitude, value: l.buildings_value })) },
      terms: read.value.terms ? termsSpec(read.value.terms) : null,
      correlation: read.value.correlation,
    });
  },

  listing({ model_data: found }) {
    return {
      pinned_inputs: found ? { ...snapshotListing(found), files: found.files.map((f) => ({ name: f.name, sha256: f.sha256 })) } : unavailable(PIWIND),
      // footprint: the model's grid from the pinned area-peril dictionary (null when not pinned here).
      caps: { ...this.caps, footprint: found?.footprint ?? null },
    };
  },

  run({ model_data, peril_groups }, spec: WindstormSpec, { progress }) {
    const s = model_data.snapshot;
    const run = runWindstorm(model_data.value, spec, {
      modelData: { feed_id: s.feed_id, version: s.version, sha256: s.sha256, credit_line: s.credit_line, license: s.license },
      modelId: this.id,
      revision: this.revision,
      perilGroups: peril_groups.value,
      ...(progress ? { onEvents: progress } : {}),
    });
    // The OED specification read for its peril groups, named with its digest as every pinned input is.
    const o = peril_groups.snapshot;
    return run.ok ? ok({ ...run.value, oed_spec: { feed_id: o.feed_id, version: o.version, sha256: o.sha256 } }) : run;
  },

  progress: (done, total) => `Computed the losses of ${done} of the model's ${total} events.`,

  result: {
    type: 'object',
    required: ['lane', 'model', 'model_data', 'run', 'exposure', 'unmodeled', 'mean_damage', 'metrics', 'assumptions', 'warnings'],
    properties: {
      lane: { const: 'windstorm' },
      model: { type: 'object' },
      model_data: { type: 'object', description: 'The pinned PiWind snapshot read, its periods, events and footprint.' },
      run: { type: 'object', description: 'Samples, seed, loss basis, allocation rule and damage correlation.' },
      exposure: { type: 'object' },
      unmodeled: { type: 'object' },
      mean_damage: { type: ['object', 'null'] },
      metrics: { oneOf: [{ $ref: '#/components/schemas/lab-metrics.v1' }, { type: 'null' }], description: 'Ground-up lab-metrics/1; null when no place is modeled.' },
      ground_up_by_peril_coverage: { type: ['array', 'null'] },
      terms: { type: 'object' },
      perspectives: { type: ['object', 'null'], description: 'il (insured) and ri (net of reinsurance), each lab-metrics/1, when the spec has terms.' },
      terms_summary: { type: ['object', 'null'] },
      oed_spec: { type: 'object', description: 'The pinned OED specification read for its peril groups (an object\'s OED terms).' },
      no_loss_figure: { type: 'string' },
      assumptions: { type: 'array', items: { type: 'string' } },
      warnings: { type: 'array', items: { type: 'string' } },
    },
  },
});
