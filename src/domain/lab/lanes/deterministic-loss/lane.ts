// The deterministic-loss lane: an object's OED terms run at fixed loss factors, as
// `oasislmf exposure run` does, through the financial module.
import { ok, refused } from '../../../../kernel/result.js';
import { labLane, modelOf } from '../../lane.js';
import { snapshotListing, unavailable } from '../../inputs.js';
import { runSpecRefusal } from '../../engine/spec-refusal.js';
import { OBJECT_EXPOSURE } from '../places-exposure.js';
import { OED_SPEC_PIN, PERIL_GROUPS_INPUT } from '../oed-terms.js';
import { locSummaryRows } from '../../../exports/loc-summary.js';
import { MAX_LOSS_FACTORS, readLossFactors, runDeterministic, type DeterministicSpec } from './deterministic-loss.js';


export const deterministicLoss = labLane({
  id: 'deterministic-loss',
  lane: 'deterministic-loss',
  engine: 'catrisk',
  version: 'fm-1.0.0-r1',
  revision: 'r1',
  label: 'Deterministic losses of an object\'s OED terms: every covered coverage loses its TIV × a loss factor, then the financial module with the Oasis FM\'s semantics (as oasislmf exposure run). No hazard, no model: a check of the terms.',
  members: {
    loss_factors: {
      schema: { type: 'array', minItems: 1, maxItems: MAX_LOSS_FACTORS, items: { type: 'number', minimum: 0 }, default: [1] },
      description: `1 to ${MAX_LOSS_FACTORS} damage ratios (default [1.0]): each coverage's ground-up loss is its TIV × the factor`,
    },
  },
  exposure: {
    schema: OBJECT_EXPOSURE,
    description: '{object_id} (or object_id at the top of the spec): a stored object ingested from an OED set; its location, account and reinsurance terms apply',
  },
  caps: { loss_factors_max: MAX_LOSS_FACTORS },
  inputs: {
    peril_groups: PERIL_GROUPS_INPUT,
  },

  normalize(spec, exposure) {
    const details: string[] = [];
    const factors = readLossFactors(spec.loss_factors, details);
    if (!exposure.byObject) details.push('exposure must be {object_id}: the deterministic run reads a stored object\'s OED terms');
    if (details.length > 0) return refused(runSpecRefusal(details));
    return ok({ ...modelOf(this), loss_factors: factors, exposure: { object_id: (exposure as { object_id: string }).object_id } });
  },

  listing({ peril_groups: found }) {
    return { pinned_inputs: found ? snapshotListing(found) : unavailable(OED_SPEC_PIN) };
  },

  run({ peril_groups }, spec: DeterministicSpec, { progress }) {
    progress?.(0, 1);
    const run = runDeterministic(spec, peril_groups.value);
    progress?.(1, 1);
    const o = peril_groups.snapshot;
    return run.ok ? ok({ ...run.value, model: { ...modelOf(this), label: this.label }, oed_spec: { feed_id: o.feed_id, version: o.version, sha256: o.sha256 } }) : run;
  },

  progress: (done, total) => `Applied the terms at ${done} of ${total} step(s).`,

  // CSV: oasislmf's loc_summary, served by GET /runs/{id}?format=csv (its one table, so the default).
  tables: {
    loc_summary: {
      description: 'Losses per location and loss factor, as oasislmf writes loc_summary.csv: PortNumber, AccNumber, LocNumber, [loss_factor_idx,] loss_gul, loss_il[, loss_ri].',
      rows: locSummaryRows,
    },
  },

  result: {
    type: 'object',
    required: ['lane', 'loss_factors', 'has_reinsurance', 'locations', 'policies', 'accounts', 'portfolio', 'assumptions', 'warnings'],
    properties: {
      lane: { const: 'deterministic-loss' },
      model: { type: 'object' },
      loss_factors: { type: 'array', items: { type: 'number' } },
      has_reinsurance: { type: 'boolean' },
      locations: { type: 'array', description: 'Per location (object order): PortNumber, AccNumber, LocNumber and losses [{loss_gul, loss_il, loss_ri}] per factor; loss_ri null without reinsurance.' },
      policies: { type: 'array', description: 'Per policy (PortNumber, AccNumber, PolNumber): losses per factor.' },
      accounts: { type: 'array', description: 'Per account (PortNumber, AccNumber): losses per factor.' },
      portfolio: { type: 'array', description: 'The whole object: losses per factor.' },
      oed_spec: { type: 'object', description: 'The pinned OED specification read for its peril groups.' },
      assumptions: { type: 'array', items: { type: 'string' } },
      warnings: { type: 'array', items: { type: 'string' } },
    },
  },
});
