// The model registry (SPEC: What the service does 4; GET /primitives, POST /models, GET /models/{id},
// POST /models/{id}/runs): the v1 vocabulary, a composition checked against it and the published
// model schema, the mandatory validation pass (in a compute thread: two replays over the full
// period of record and the price of a reference cover) before the model exists, and runs that
// price an object with the composed model through the same replay and price as the price verb.
// Models belong to the account that composed them; v1 publishes none to other accounts.
import { createHash } from 'node:crypto';
import {
  compositionOf, perilOf, REFERENCE_YEAR, strayParameters, termsOfComposition, vocabularyFaults, type Composition,
} from '../domain/models/compose.js';
import { MEASUREMENTS, PAYOUT_FUNCTIONS, TRANSFORMS } from '../domain/models/primitives.js';
import {
  determinismCheck, failedDetails, modelCard, paysCheck, payoutCheck, recordCheck, REFERENCE_FINANCIAL, unitsCheck, VALIDATION_CHECKS,
  type Check,
} from '../domain/models/validation.js';
import type { PriceDocument } from '../domain/pricing/technical-price.js';
import { recordYears } from '../domain/triggers/feed.js';
import type { FinancialStructure, PeriodTerms, StructureTerms } from '../domain/triggers/terms.js';
import { backtestSummary } from '../domain/list-summaries.js';
import { canonicalJson, contentAddress } from '../kernel/canonical-json.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { refusal, refusals } from '../kernel/refusal.js';
import { MODEL_SCHEMA_VERSION, MODEL_RUN_SCHEMA_VERSION, PRIMITIVES_SCHEMA_VERSION } from '../kernel/versions.js';
import { feedClass, feedEntry } from '../feeds/catalog.js';
import { coverageOf } from '../feeds/coverage.js';
import type { FeedStore } from '../feeds/store.js';
import type { ModelDocument } from '../store/models.js';
import { modelViolations } from '../schemas.js';
import { replay } from './backtest.js';
import { priceOfReplay, type PriceTaskInput } from './price.js';
import { requireActive } from './accounts.js';
import { queueJob, type QueuedJob } from './jobs.js';
import type { AppDeps } from './deps.js';

type Document = Record<string, unknown>;

/** Every model document says what it is, as the lab's runs say theirs. */
export const REGISTRY_LABEL = 'validated model (registry): composed from the service\'s primitives and validated, backtested and carded before it exists; distinct from the lab\'s externally built models';

// ---------------------------------------------------------------------------------------------
// GET /primitives

/** The kind a measurement reads, of a pinned snapshot (as the trigger checks class it). */
function kindOf(manifest: Parameters<typeof feedClass>[0]): string {
  return feedClass(manifest).kind;
}

/** GET /primitives: the v1 vocabulary, feeds listed from the pinned snapshots a measurement reads. */
export function primitivesDocument(deps: Pick<AppDeps, 'feeds'>): Result<Document> {
  const store = deps.feeds;
  const feeds = (store?.feeds() ?? []).flatMap((feedId) => {
    const snapshots = store!.versions(feedId).map((v) => store!.get(feedId, v)!);
    const latest = snapshots[snapshots.length - 1]!.manifest;
    const kind = kindOf(latest);
    const measurements = MEASUREMENTS.filter((m) => (m.feed_kinds as readonly string[]).includes(kind)).map((m) => m.id);
    if (measurements.length === 0) return [];
    const entry = feedEntry(latest);
    const units = entry?.native_unit ?? (latest as { units?: unknown }).units ?? null;
    return [{
      id: feedId,
      kind,
      title: latest.title ?? null,
      publisher: latest.publisher ?? null,
      units,
      series: entry?.series ?? entry?.report ?? null,
      versions: snapshots.map((s) => ({ version: s.version, sha256: s.sha256, period_of_record: s.manifest.period_of_record ?? null })),
      connects_to: { measurements },
    }];
  });
  return ok({
    schema_version: PRIMITIVES_SCHEMA_VERSION,
    vocabulary: 'v1',
    composition: 'POST /models with {name, version?, description?, feed: {id, version}, measurement, transforms: [...], payout_function, parameters: {<primitive id>: {...}}}; the model schema is published at /schema/model.v0.json on the docs host.',
    feeds,
    measurements: MEASUREMENTS.map((m) => ({
      id: m.id, sentence: m.sentence, parameters: m.parameters,
      connects_to: { feed_kinds: m.feed_kinds, perils: m.perils, transforms_required: m.requires, transforms: TRANSFORMS.filter((t) => t.designs.includes(m.design) && !m.excludes.includes(t.id)).map((t) => t.id), payout_functions: PAYOUT_FUNCTIONS.map((p) => p.id) },
      trigger_design: m.design,
    })),
    transforms: TRANSFORMS.map((t) => ({
      id: t.id, sentence: t.sentence, parameters: t.parameters,
      connects_to: { measurements: MEASUREMENTS.filter((m) => t.designs.includes(m.design) && !m.excludes.includes(t.id)).map((m) => m.id) },
    })),
    payout_functions: PAYOUT_FUNCTIONS.map((p) => ({
      id: p.id, sentence: p.sentence, parameters: p.parameters, connects_to: { measurements: MEASUREMENTS.map((m) => m.id) },
    })),
  });
}

// ---------------------------------------------------------------------------------------------
// The validation pass (compute thread)

export interface ModelValidationInput {
  name: string;
  version: string;
  description: string | null;
  composition: Composition;
  feedsDir: string | undefined;
}

export interface ModelValidationOutput {
  passed: boolean;
  checks: Check[];
  /** When the replay or the reference price was refused: which, its message and details. */
  refused: { stage: 'replay' | 'price'; message: string; details: string[] } | null;
  report: Document;
  card: Document | null;
  backtest: { id: string; json: string } | null;
}

/** The terms the validation pass replays: the reference cover over the seasonal term, or the calendar year. */
export function validationTerms(c: Composition): StructureTerms {
  const calendar: PeriodTerms = { start: `${REFERENCE_YEAR}-01-01`, end: `${REFERENCE_YEAR}-12-31` };
  return termsOfComposition(c, { financial_structure: { ...REFERENCE_FINANCIAL }, period: calendar })!;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** Runs in a compute thread: two replays over the full period of record and a reference price, checked. */
export async function modelValidationTask(input: ModelValidationInput, store: FeedStore | undefined): Promise<Result<ModelValidationOutput>> {
  const terms = validationTerms(input.composition);
  const first = await replay(store, terms, null, 'backtest');
  if (!first.ok) {
    const why = { stage: 'replay' as const, message: first.refusal.message, details: [...(first.refusal.details ?? [])] };
    return ok({ passed: false, checks: [], refused: why, report: { passed: false, checks: [], refused: why }, card: null, backtest: null });
  }
  const second = await replay(store, terms, null, 'backtest');
  if (!second.ok) throw new Error(`the second replay was refused after the first ran: ${second.refusal.message}`);
  const run = first.value;
  const a = canonicalJson(run.artifact);
  const b = canonicalJson(second.value.artifact);
  const structure = run.validation.structure!;
  const artifact = run.artifact;
  const checks: Check[] = [
    determinismCheck(a, b, sha(a), sha(b)),
    payoutCheck(structure, artifact),
    recordCheck(artifact),
    paysCheck(artifact),
    unitsCheck(structure, artifact),
  ];
  let price: PriceDocument | null = null;
  let priceRefusal: { stage: 'price'; message: string; details: string[] } | null = null;
  if (checks.every((c) => c.passed)) {
    const priced = priceOfReplay(run);
    if (priced.ok) price = priced.value;
    else priceRefusal = { stage: 'price', message: priced.refusal.message, details: [...(priced.refusal.details ?? [])] };
  }
  const passed = checks.every((c) => c.passed) && price !== null;
  const report: Document = {
    passed,
    checks: VALIDATION_CHECKS.map((name) => checks.find((c) => c.name === name)!),
    reference_financial_structure: { ...REFERENCE_FINANCIAL, annual_limit: structure.financial.annual_cap },
    term: { start: terms.period.start.slice(5), end: terms.period.end.slice(5) },
    backtest: { id: artifact.id, window: { from_year: artifact.window.from_year, to_year: artifact.window.to_year }, links: artifact.links },
    ...(priceRefusal ? { refused: priceRefusal } : {}),
  };
  const m = run.snapshot.manifest as unknown as Record<string, unknown>;
  const card = price ? modelCard({
    name: input.name, version: input.version, description: input.description, composition: input.composition, peril: perilOf(input.composition),
    structure, artifact, price,
    manifest: { publisher: m.publisher as string, license: m.license, title: m.title as string, period_of_record: m.period_of_record },
  }) : null;
  return ok({ passed, checks, refused: priceRefusal, report, card, backtest: { id: artifact.id, json: a } });
}

// ---------------------------------------------------------------------------------------------
// POST /models

export interface ComposeInput {
  accountId: string;
  /** The model document as sent: {name, version?, description?, feed, measurement, transforms, payout_function, parameters}. */
  body: unknown;
}

export interface ComposedModel {
  /** True when this POST made the model; false when the account already held it (the same name, version and composition). */
  created: boolean;
  model: Document;
}

function modelId(name: string, version: string, c: Composition): string {
  return `mdl_${contentAddress({ name, version, composition: c }).slice(0, 24)}`;
}

/** The version given to a POST naming none: one above the highest whole-number version of the name. */
function nextVersion(versions: readonly { version: string }[]): string {
  const whole = versions.map((v) => v.version).filter((v) => /^\d+$/.test(v)).map(Number);
  return String((whole.length > 0 ? Math.max(...whole) : 0) + 1);
}

/**
 * POST /models: the vocabulary (422 invalid_composition), the published schema (422 invalid_model),
 * then the validation pass (422 model_validation_failed); a model that passes is stored with its
 * report and card. Immutable: the same name and version with another composition is refused; a
 * new version is a new POST with the same name.
 */
export async function composeModel(
  deps: Pick<AppDeps, 'accounts' | 'models' | 'structures' | 'feeds' | 'compute' | 'config' | 'now'>,
  input: ComposeInput,
): Promise<Result<ComposedModel>> {
  const active = await requireActive(deps, input.accountId);
  if (!active.ok) return active;
  const body = input.body;
  const pinned = (feedId: string, version: string) => {
    const s = deps.feeds?.get(feedId, version);
    return s && s.version === version ? { feed_id: s.feed_id, version: s.version, kind: kindOf(s.manifest) } : undefined;
  };
  const vocabulary = vocabularyFaults(body, pinned);
  if (vocabulary.length > 0) {
    return refused(refusal(422, 'invalid_composition', `The composition is outside the v1 vocabulary (GET /primitives lists it): ${vocabulary[0]}.`, vocabulary));
  }
  const violations = [...modelViolations(body), ...strayParameters(body as Document)];
  if (violations.length > 0) {
    return refused(refusal(422, 'invalid_model', `The model does not validate against the published model schema (/schema/model.v0.json): ${violations.length} violation${violations.length === 1 ? '' : 's'}.`, violations));
  }
  const doc = body as Document;
  const composition = compositionOf(doc);
  const name = doc.name as string;
  const versions = await deps.models.versions(input.accountId, name);
  let version = doc.version as string | undefined;
  if (version === undefined) {
    // A POST without a version whose composition is the newest version's reads that version.
    const newest = versions[versions.length - 1];
    if (newest && newest.id === modelId(name, newest.version, composition)) version = newest.version;
    else version = nextVersion(versions);
  }
  const id = modelId(name, version, composition);
  const existing = versions.find((v) => v.version === version);
  if (existing) {
    if (existing.id === id) return ok({ created: false, model: JSON.parse((await deps.models.json(id, input.accountId))!) as Document });
    return refused(refusal(422, 'invalid_model', `Model ${name} version ${version} exists with another composition; models are immutable: POST a new version.`,
      [`model.version ${version} of ${name} is ${existing.id}; send another version (or none, for ${nextVersion(versions)})`]));
  }
  const description = typeof doc.description === 'string' ? doc.description : null;
  const task: ModelValidationInput = { name, version, description, composition, feedsDir: deps.config.feedsDir };
  const out = await deps.compute('model-validation', task);
  if (!out.ok) return out;
  const v = out.value;
  if (!v.passed) {
    // A composition the structure rules refuse (a unit the variable is not read in, a ladder out of
    // order) is named by those rules' own faults.
    const why = v.refused?.stage === 'price' ? 'the reference cover cannot be priced' : 'the composition cannot be replayed over its record';
    // The structure rules' faults name what the replay refused; a price refusal is its message, then its figures.
    const named = v.refused === null ? [] : v.refused.stage === 'replay' && v.refused.details.length > 0 ? v.refused.details : [v.refused.message, ...v.refused.details];
    const details = v.refused ? named.map((d, i) => (i === 0 || v.refused!.stage === 'replay' ? `${why}: ${d}` : d)) : failedDetails(v.checks);
    const first = details[0] ?? 'the validation pass failed';
    return refused(refusal(422, 'model_validation_failed', `The model was refused by the mandatory validation pass; no model was created: ${first}`, details));
  }
  const createdAt = deps.now().toISOString();
  const model: ModelDocument = {
    schema_version: MODEL_SCHEMA_VERSION,
    id,
    name,
    version,
    description,
    kind: 'validated_model',
    label: REGISTRY_LABEL,
    peril: perilOf(composition),
    composition,
    visibility: 'account',
    created_at: createdAt,
    validation: v.report,
    card: v.card,
    links: { self: `/models/${id}`, runs: `/models/${id}/runs`, backtest: `/backtests/${v.backtest!.id}`, schema: '/schema/model.v0.json' },
  };
  // The validation backtest is kept as the account's artifact, so the card's summary can be read whole.
  const artifact = JSON.parse(v.backtest!.json) as Document;
  await deps.structures.putBacktest(input.accountId, v.backtest!.id, v.backtest!.json, backtestSummary(artifact));
  const json = canonicalJson(model);
  if (!(await deps.models.insert(input.accountId, model, json, createdAt))) {
    // Composed at the same moment by another request of the account: read what was stored.
    const stored = await deps.models.json(id, input.accountId);
    if (stored) return ok({ created: false, model: JSON.parse(stored) as Document });
    return refused(refusal(422, 'invalid_model', `Model ${name} version ${version} was just composed with another composition; POST a new version.`, [`model.version ${version} of ${name} is taken`]));
  }
  return ok({ created: true, model });
}

/** GET /models/{id}: the account's model, its validation report and card, as stored. */
export async function readModel(deps: Pick<AppDeps, 'models'>, input: { accountId: string; id: string }): Promise<Result<string>> {
  const json = await deps.models.json(input.id, input.accountId);
  if (json === undefined) return refused(refusals.notFound(`No model ${input.id} for this key`));
  return ok(json);
}

// ---------------------------------------------------------------------------------------------
// POST /models/{id}/runs

export interface ModelRunRequest {
  object_id: string;
  financial_structure?: FinancialStructure;
  period?: PeriodTerms;
}

/** POST /models/{id}/runs: the model and the object must be the account's; the run is a job. */
export async function requestModelRun(
  deps: Pick<AppDeps, 'accounts' | 'models' | 'objects' | 'jobs' | 'wakeWorker'>,
  input: { accountId: string; id: string; body: ModelRunRequest },
): Promise<Result<QueuedJob>> {
  const { accountId, id, body } = input;
  const active = await requireActive(deps, accountId);
  if (!active.ok) return active;
  // Front doors without a request schema (the tool server) reach here with whatever was sent.
  if (typeof body !== 'object' || body === null || typeof body.object_id !== 'string') {
    return refused(refusals.invalidRequest(422, 'A model run names the object it prices: {"object_id": "obj_…"}.', ['object_id is required: the id of one of the account\'s risk objects']));
  }
  if ((await deps.models.json(id, accountId)) === undefined) return refused(refusals.notFound(`No model ${id} for this key`));
  if (!(await deps.objects.head(body.object_id, accountId))) return refused(refusals.notFound(`No object ${body.object_id} for this key`));
  const run = {
    model_id: id, object_id: body.object_id,
    financial_structure: body.financial_structure ?? null, period: body.period ?? null,
  };
  return ok(await queueJob(deps, { accountId, verb: 'model_run', subject: { model_id: id, object_id: body.object_id }, input: run }));
}

const unrunnable = (message: string, details?: string[]) => refused(refusal(422, 'unrunnable_object', message, details));

type Located = { ref?: unknown; latitude?: unknown; longitude?: unknown };

/**
 * The model run job: the object's peril must be the model's, a financial structure and a term
 * must be given (by the request or the object), and a located location must lie in the feed's
 * reach (GET /feeds' coverage); then the composed terms are priced as the price verb prices, and
 * the result is labelled with the model, metered as a model run.
 */
export async function modelRunJob(
  deps: Pick<AppDeps, 'models' | 'objects' | 'accounts' | 'feeds' | 'compute' | 'config'>,
  job: { id: string; accountId: string; input: { model_id: string; object_id: string; financial_structure: FinancialStructure | null; period: PeriodTerms | null } },
): Promise<Result<unknown>> {
  const { model_id: modelId, object_id: objectId } = job.input;
  const json = await deps.models.json(modelId, job.accountId);
  if (json === undefined) return refused(refusal(404, 'not_found', `Model ${modelId} no longer exists.`));
  const object = await deps.objects.get(objectId, job.accountId);
  if (!object) return refused(refusal(404, 'not_found', `Object ${objectId} no longer exists.`));
  const model = JSON.parse(json) as ModelDocument & { composition: Composition; peril: string };
  const c = model.composition;
  const o = object as unknown as Document;
  const objectPeril = (o.peril as { code?: string } | undefined)?.code;
  if (objectPeril !== model.peril) {
    return unrunnable(`Model ${model.name} ${model.version} prices ${model.peril}; object ${objectId} is ${objectPeril === undefined ? 'written for no peril' : `a ${objectPeril} object`} (peril mismatch).`);
  }
  const financial = (job.input.financial_structure ?? o.financial_structure ?? null) as FinancialStructure | null;
  if (financial === null) {
    return unrunnable(`Object ${objectId} has no financial structure and the run gave none: a price needs a limit and a currency (send financial_structure, or PATCH it onto the object).`);
  }
  const period = (job.input.period ?? o.period ?? null) as PeriodTerms | null;
  const terms = termsOfComposition(c, { financial_structure: financial, period });
  if (terms === null) return unrunnable(`Model ${model.name} ${model.version} has no seasonal term and object ${objectId} has no period: send period {start, end} with the run.`);

  // The feed's reach: at least one located location inside its coverage.
  const snapshot = deps.feeds?.get(c.feed.id, c.feed.version);
  if (!snapshot) return unrunnable(`Feed ${c.feed.id} version ${c.feed.version}, which model ${model.name} ${model.version} reads, is not pinned here.`);
  const locations = (((o.exposure as { locations?: Located[] } | undefined)?.locations) ?? [])
    .filter((l): l is { ref?: unknown; latitude: number; longitude: number } => typeof l.latitude === 'number' && typeof l.longitude === 'number');
  if (locations.length === 0) return unrunnable(`Object ${objectId} has no located location: the model cannot tell whether its exposure lies in ${c.feed.id}'s reach.`);
  const reached = locations.filter((l) => coverageOf(snapshot, { latitude: l.latitude, longitude: l.longitude }).covered);
  if (reached.length === 0) {
    const first = locations[0]!;
    const cov = coverageOf(snapshot, { latitude: first.latitude, longitude: first.longitude });
    const how = cov.distance_km !== undefined ? ` (${String(first.ref ?? 'the first location')} is ${cov.distance_km.toFixed(1)} km from the feed's point; it answers within ${cov.radius_km} km)` : '';
    return unrunnable(`No location of object ${objectId} lies within the reach of ${c.feed.id} (${cov.type} coverage)${how}: the model's index does not measure this exposure.`,
      locations.slice(0, 5).map((l) => `location ${String(l.ref ?? '?')} at ${l.latitude}, ${l.longitude} is outside ${c.feed.id}'s coverage`));
  }

  const input: PriceTaskInput = { objectId, terms, window: null, feedsDir: deps.config.feedsDir };
  const computed = await deps.compute('price', input);
  if (!computed.ok) {
    // What stops the price stops the run, as the model cannot run against this object.
    return refused({ ...computed.refusal, code: 'unrunnable_object', message: `Model ${model.name} ${model.version} cannot run against object ${objectId}: ${computed.refusal.message}` });
  }
  const price = JSON.parse(computed.value) as PriceDocument & { id: string; backtest: unknown };
  const id = `mr_${contentAddress({ model_id: modelId, object_id: objectId, inputs: price.inputs }).slice(0, 32)}`;
  const years = recordYears(snapshot.manifest);
  const document = {
    schema_version: MODEL_RUN_SCHEMA_VERSION,
    id,
    kind: 'model_run',
    statement: price.statement,
    composed_model: { id: model.id, name: model.name, version: model.version, kind: 'validated_model', links: { self: `/models/${model.id}` } },
    object_id: objectId,
    price,
    assumptions: [
      `Priced by the composed model ${model.name} version ${model.version} (${model.id}), written as ${terms.trigger.type} terms over ${c.feed.id} ${c.feed.version}, by ${price.model.name} ${price.model.version}.`,
      `Financial structure from ${job.input.financial_structure ? 'the run request' : `object ${objectId}`}: limit ${financial.limit} ${financial.currency}, annual aggregate attachment ${financial.attachment ?? 0}, annual limit ${terms.financial_structure.annual_limit ?? financial.limit}.`,
      c.transforms.includes('seasonal_term')
        ? `Term: the model's seasonal term ${terms.period.start.slice(5)} to ${terms.period.end.slice(5)}, replayed in every year of the record.`
        : `Term: ${job.input.period ? 'the run request\'s' : `object ${objectId}'s`} period ${terms.period.start} to ${terms.period.end}, replayed in every year of the record.`,
      `Window: the full period of record${years ? ` (${years.from} to ${years.to})` : ''}.`,
      `Reach: ${reached.length} of ${locations.length} located locations lie within ${c.feed.id}'s coverage; the index is measured at the feed, not at the locations.`,
      'Every pricing parameter is named in price.inputs.parameters; the price is technical, never a quote.',
    ],
    links: { self: `/jobs/${job.id}`, model: `/models/${model.id}`, object: `/objects/${objectId}` },
  };
  await deps.accounts.recordUsage(job.accountId, 'model_run', id);
  return ok(JSON.parse(canonicalJson(document)) as Document);
}
