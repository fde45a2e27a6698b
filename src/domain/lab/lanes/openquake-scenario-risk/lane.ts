// The OpenQuake scenario-risk lane: a user's own exposure model, vulnerability models and
// ground-motion fields (inputs brought to POST {lab_url}/inputs, named in the spec by id), run as
// OpenQuake's scenario_risk calculator runs given GMFs, with its outputs under its names.
import { ok, refused, type Result } from '../../../../kernel/result.js';
import { runSpecRefusal } from '../../engine/spec-refusal.js';
import { labLane, modelOf, wholeRun, type JsonSchemaFragment } from '../../lane.js';
import { INPUT_ID_PATTERN, type InputKind, type UserInput } from '../../user-inputs.js';
import { SCENARIO_RISK_TABLES } from './exports.js';
import { ASSET_HAZARD_DISTANCE_KM } from './asset-values.js';
import type { OqExposureModel, OqGmfs, OqVulnerabilityModel } from './oq-inputs.js';
import { scenarioRisk } from './scenario-risk.js';

/** OpenQuake's default master_seed (openquake/commonlib/oqvalidation.py). */
export const DEFAULT_MASTER_SEED = 123456;

/** The loss types OpenQuake's vulnerability files are named for, and the spec member naming each one's model. */
export const VULNERABILITY_MEMBERS = {
  structural: 'vulnerability',
  nonstructural: 'nonstructural_vulnerability',
  contents: 'contents_vulnerability',
  business_interruption: 'business_interruption_vulnerability',
  occupants: 'occupants_vulnerability',
} as const;
export type LossType = keyof typeof VULNERABILITY_MEMBERS;
const LOSS_TYPES = Object.keys(VULNERABILITY_MEMBERS) as LossType[];

/** An input a run reads: its id, kind and digest (the result names each), and the value its reader read. */
export interface ReadInput<V> {
  readonly id: string;
  readonly kind: string;
  readonly sha256: string;
  readonly value: V;
}

/** The inputs the lane's run is handed, by spec member. */
export interface ScenarioRiskInputs {
  readonly exposure: ReadInput<OqExposureModel>;
  readonly gmfs: ReadInput<OqGmfs>;
  readonly [member: string]: ReadInput<unknown> | undefined;
}

export interface ScenarioRiskSpec {
  model: string;
  version: string;
  exposure: string;
  gmfs: string;
  /** Input ids of the vulnerability models, by member (vulnerability is the structural one), as the spec gave them. */
  vulnerability?: string;
  nonstructural_vulnerability?: string;
  contents_vulnerability?: string;
  business_interruption_vulnerability?: string;
  occupants_vulnerability?: string;
  loss_types: LossType[];
  minimum_asset_loss: Partial<Record<LossType, number>>;
  ignore_covs: boolean;
  master_seed: number;
  asset_correlation: 0 | 1;
  asset_hazard_distance: number;
}

/** The vulnerability models a spec names, as input ids by loss type. */
export function vulnerabilityIds(spec: Partial<ScenarioRiskSpec>): Partial<Record<LossType, string>> {
  const out: Partial<Record<LossType, string>> = {};
  for (const lt of LOSS_TYPES) {
    const id = spec[VULNERABILITY_MEMBERS[lt]];
    if (id !== undefined) out[lt] = id;
  }
  return out;
}

const INPUT_ID: JsonSchemaFragment = { type: 'string', pattern: INPUT_ID_PATTERN.source };

const vulnerabilityMembers = Object.fromEntries(LOSS_TYPES.map((lt) => [VULNERABILITY_MEMBERS[lt], {
  schema: INPUT_ID,
  description: lt === 'structural'
    ? 'the id of an oq-vulnerability input you brought: the structural vulnerability model (OpenQuake\'s structural_vulnerability_file); optional when another loss type\'s model is given'
    : `optional, the id of an oq-vulnerability input: the ${lt} vulnerability model (OpenQuake's ${lt}_vulnerability_file)`,
}]));

/** The spec read, defaults filled in; every fault named. */
export function readScenarioRiskSpec(spec: Readonly<Record<string, unknown>>): Result<Omit<ScenarioRiskSpec, 'model' | 'version'>> {
  const faults: string[] = [];
  const id = (v: unknown, member: string) => {
    if (typeof v !== 'string' || !INPUT_ID_PATTERN.test(v)) faults.push(`${member} must be the id of an input you brought (inp_ and 32 hex digits, as POST /inputs answered it)`);
    return typeof v === 'string' ? v : '';
  };
  const vulnerability: Partial<Record<(typeof VULNERABILITY_MEMBERS)[LossType], string>> = {};
  for (const lt of LOSS_TYPES) {
    const member = VULNERABILITY_MEMBERS[lt];
    if (spec[member] !== undefined) vulnerability[member] = id(spec[member], member);
  }
  if (Object.keys(vulnerability).length === 0) faults.push(`name at least one vulnerability model: ${Object.values(VULNERABILITY_MEMBERS).join(', ')}`);
  const given = LOSS_TYPES.filter((lt) => vulnerability[VULNERABILITY_MEMBERS[lt]] !== undefined);
  const lossTypes = (spec.loss_types as LossType[] | undefined) ?? given;
  for (const lt of lossTypes) if (!given.includes(lt)) faults.push(`loss_types names ${lt}, whose vulnerability model (${VULNERABILITY_MEMBERS[lt] ?? 'none'}) the spec does not give`);
  const minimum = (spec.minimum_asset_loss ?? {}) as Partial<Record<LossType, number>>;
  for (const lt of Object.keys(minimum)) if (!lossTypes.includes(lt as LossType)) faults.push(`minimum_asset_loss names ${lt}, which is not a loss type of the run (${lossTypes.join(', ')})`);
  const out = {
    exposure: id(spec.exposure, 'exposure'),
    gmfs: id(spec.gmfs, 'gmfs'),
    ...vulnerability,
    loss_types: [...lossTypes].sort(),
    minimum_asset_loss: minimum,
    ignore_covs: (spec.ignore_covs as boolean | undefined) ?? false,
    master_seed: (spec.master_seed as number | undefined) ?? DEFAULT_MASTER_SEED,
    asset_correlation: ((spec.asset_correlation as number | undefined) ?? 0) as 0 | 1,
    asset_hazard_distance: (spec.asset_hazard_distance as number | undefined) ?? ASSET_HAZARD_DISTANCE_KM,
  };
  return faults.length > 0 ? refused(runSpecRefusal(faults)) : ok(out);
}

/** The spec member each input of a run is read from, with the kind it takes. */
export function scenarioRiskInputKinds(spec: ScenarioRiskSpec): Record<string, { id: string; kind: InputKind }> {
  const out: Record<string, { id: string; kind: InputKind }> = {
    exposure: { id: spec.exposure, kind: 'oq-exposure' },
    gmfs: { id: spec.gmfs, kind: 'oq-gmfs' },
  };
  for (const [lt, id] of Object.entries(vulnerabilityIds(spec))) out[VULNERABILITY_MEMBERS[lt as LossType]] = { id: id!, kind: 'oq-vulnerability' };
  return out;
}

const RULES = {
  loss: 'per event and asset, value × loss ratio at the ground motion of the asset\'s closest site; the ratio read as openquake/risklib/scientific.py VulnerabilityFunction.interpolate (clipped to the last level, 0 below the first, linear between)',
  values: 'openquake/risklib/asset.py CostCalculator: aggregated, per_asset × number, per_area × area (× number when the area type is per_asset); occupants the mean over the occupancy periods',
  association: 'openquake/commonlib/readinput.py get_sitecol_assetcol: each asset takes its closest site within asset_hazard_distance; one farther from every site is discarded',
  minimum_asset_loss: 'scientific.py VulnerabilityFunction.__call__: a loss not above the loss type\'s minimum is dropped',
  insured: 'scientific.py insured_losses over each asset\'s deductible and insuranceLimit (absolute unless the exposure\'s conversions say isAbsolute="false", then fractions of the value)',
  aggrisk: 'loss_value is the mean over all events of the portfolio loss (events without loss count as 0); loss_ratio is loss_value over the exposed value',
  statistics: 'per asset, the mean over all events and the sample standard deviation (ddof 1), as the engine\'s asset-loss.csv',
  sampling: `with covLR > 0 and ignore_covs false, loss ratios are drawn as scientific.py MultiEventRNG does (LN: mean × exp(ε σ) / √(1 + CoV²), σ = √ln(1 + CoV²); BT: beta with the function's mean and CoV; PM: the loss ratio whose cumulative probability first exceeds a uniform draw) from one stream per event seeded master_seed + event id, as OpenQuake seeds its per-event generators; the streams are this service's (xoshiro128**), not numpy's Philox, so single draws differ from OpenQuake's while their law is the same. A PMF under ignore_covs gives its expected loss ratio`,
};

export const openquakeScenarioRisk = labLane({
  id: 'openquake-scenario-risk',
  lane: 'openquake-scenario-risk',
  engine: 'openquake',
  version: 'scenario-risk-1.0.0-r1',
  revision: 'r1',
  label: 'OpenQuake scenario risk over your own files: an NRML exposure model, NRML vulnerability models and ground-motion fields (gmf_data.csv with sites.csv), computed by this service in the manner of the OpenQuake engine\'s scenario_risk calculator and checked against its QA expectations. One scenario: no annual figure.',
  members: {
    gmfs: { schema: INPUT_ID, description: 'the id of an oq-gmfs input you brought: OpenQuake\'s gmf_data.csv with its sites.csv' },
    ...vulnerabilityMembers,
    loss_types: { schema: { type: 'array', items: { enum: LOSS_TYPES }, minItems: 1, uniqueItems: true }, description: `optional, the loss types to compute (${LOSS_TYPES.join(', ')}); default every loss type whose vulnerability model is given` },
    minimum_asset_loss: { schema: { type: 'object', propertyNames: { enum: LOSS_TYPES }, additionalProperties: { type: 'number', minimum: 0 } }, description: 'optional, {loss_type: amount}: a loss not above it is dropped, as OpenQuake\'s minimum_asset_loss' },
    ignore_covs: { schema: { type: 'boolean', default: false }, description: 'optional, default false: true uses the mean loss ratio even where covLR > 0 (OpenQuake\'s ignore_covs)' },
    master_seed: { schema: { type: 'integer', minimum: 0, maximum: 2 ** 31 - 1, default: DEFAULT_MASTER_SEED }, description: `optional, default ${DEFAULT_MASTER_SEED} (OpenQuake's): event e's draws come from a stream seeded master_seed + e` },
    asset_correlation: { schema: { enum: [0, 1], default: 0 }, description: 'optional, 0 (default) or 1: with 1 every asset of an event shares the event\'s lognormal deviate (OpenQuake\'s asset_correlation)' },
    asset_hazard_distance: { schema: { type: 'number', exclusiveMinimum: 0, maximum: 1000, default: ASSET_HAZARD_DISTANCE_KM }, description: `optional, km, default ${ASSET_HAZARD_DISTANCE_KM} (OpenQuake's): an asset farther than this from every site is discarded` },
  },
  exposure: { schema: INPUT_ID, description: 'the id of an oq-exposure input you brought (POST /inputs): an NRML 0.4 or 0.5 exposure model' },
  notes: { result: 'aggrisk, risk_by_event, avg_losses and insured_losses, as OpenQuake names its outputs. CSV: ?table=aggrisk, risk_by_event, avg_losses, insured_losses.' },
  caps: { loss_types: LOSS_TYPES, asset_hazard_distance_km: ASSET_HAZARD_DISTANCE_KM, master_seed: DEFAULT_MASTER_SEED },
  inputs: {},
  userInputs: {
    exposure: 'oq-exposure',
    gmfs: 'oq-gmfs',
    ...Object.fromEntries(Object.values(VULNERABILITY_MEMBERS).map((m) => [m, 'oq-vulnerability' as const])),
  },
  tables: SCENARIO_RISK_TABLES,

  normalize(spec) {
    const read = readScenarioRiskSpec(spec);
    if (!read.ok) return read;
    return ok({ ...modelOf(this), ...read.value });
  },

  listing() {
    return { pinned_inputs: { none: 'this lane reads only inputs you bring: oq-exposure, oq-vulnerability and oq-gmfs (POST /inputs)' } };
  },

  run(_inputs, spec: ScenarioRiskSpec, context) {
    const inputs = context.userInputs as (ScenarioRiskInputs & Readonly<Record<string, UserInput>>) | undefined;
    if (!inputs?.exposure || !inputs.gmfs) return refused(runSpecRefusal(['the run was handed none of its inputs']));
    return runScenarioRiskLane(this, inputs, spec, context.progress);
  },

  progress: (done, total) => `Computed losses for ${done} of ${total} assets.`,

  result: {
    type: 'object',
    required: ['lane', 'model', 'inputs', 'rules', 'events', 'assets', 'loss_types', 'aggrisk', 'risk_by_event', 'avg_losses', 'insured_losses', 'sampling', 'frequency'],
    properties: {
      lane: { const: 'openquake_scenario_risk' },
      model: { type: 'object' },
      inputs: { type: 'array', description: 'Every input read: spec member, id, kind and SHA-256.' },
      rules: { type: 'object', description: 'Which of OpenQuake\'s rules each step follows (file and function named).' },
      events: { type: 'integer' },
      assets: { type: 'object', description: 'Assets in the exposure, associated with a site, discarded (farther than asset_hazard_distance), and without a cost of a loss type.' },
      loss_types: { type: 'array' },
      aggrisk: { type: 'array', description: 'Per loss type (and <loss type>_ins): loss_value, loss_ratio, exposed_value and the standard deviation over events.' },
      risk_by_event: { type: 'array', description: 'event_id, loss, loss_type for every event with a loss, by loss type then ascending loss.' },
      avg_losses: { type: 'array', description: 'Per asset and loss type: mean and standard deviation over the events.' },
      insured_losses: { type: 'array', description: 'Per asset and loss type with a deductible and insuranceLimit: the insured loss\'s mean and standard deviation.' },
      sampling: { type: 'object' },
      frequency: { type: 'string' },
    },
  },
});

/** The lane's result over its read inputs. */
export function runScenarioRiskLane(
  model: { id: string; version: string; label: string },
  inputs: ScenarioRiskInputs,
  spec: ScenarioRiskSpec,
  progress?: (done: number, total: number) => void,
): Result<Record<string, unknown>> {
  const vulnerability = new Map<string, OqVulnerabilityModel>();
  for (const [lt, id] of Object.entries(vulnerabilityIds(spec))) {
    const input = inputs[VULNERABILITY_MEMBERS[lt as LossType]];
    if (!input || input.id !== id) return refused(runSpecRefusal([`${VULNERABILITY_MEMBERS[lt as LossType]}: input ${id} was not read`]));
    vulnerability.set(lt, input.value as OqVulnerabilityModel);
  }
  const exposure = inputs.exposure.value;
  const computed = wholeRun(exposure.assets.length, progress, () => scenarioRisk(exposure, vulnerability, inputs.gmfs.value, {
    loss_types: spec.loss_types,
    minimum_asset_loss: spec.minimum_asset_loss,
    ignore_covs: spec.ignore_covs,
    master_seed: spec.master_seed,
    asset_correlation: spec.asset_correlation,
    asset_hazard_distance_km: spec.asset_hazard_distance,
  }));
  if (!computed.ok) return computed;
  const { sampled, ...tables } = computed.value;
  const read = Object.entries(scenarioRiskInputKinds(spec)).map(([member]) => {
    const i = inputs[member]!;
    return { member, id: i.id, kind: i.kind, sha256: i.sha256 };
  });
  return ok({
    lane: 'openquake_scenario_risk',
    model: { id: model.id, version: model.version, label: model.label },
    inputs: read,
    rules: RULES,
    ...tables,
    sampling: sampled
      ? { sampled: true, master_seed: spec.master_seed, asset_correlation: spec.asset_correlation, rule: RULES.sampling }
      : { sampled: false, reason: spec.ignore_covs ? 'ignore_covs: mean loss ratios' : 'every covLR is 0: mean loss ratios, deterministic' },
    frequency: 'One scenario: no annual figure.',
  });
}
