// The lab's windstorm lane through an open loss framework: the Oasis LMF PiWind model data, keyed as
// the framework's built-in lookup keys it (lookup.ts), through the loss engine's sampled-damage kernel
// (ground-up.ts) with the financial module's terms of revision r3 (financial.ts), and the shared
// lab-metrics/1 block (metrics.ts) with the damage-curve sensitivity (sensitivity.ts).
//
// Result (pure data; amounts in the unit of the exposure values):
//   metrics          lab-metrics/1, ground-up; null when no place is modeled (no loss figure)
//   mean_damage      the analytical mean-damage AAL (always reported when a place is modeled)
//   perspectives     with terms: { il, ri }, full lab-metrics/1 blocks of the insured and net views
//   terms_summary    with terms: where the ground-up AAL went
//   unmodeled        count and places [{index, reason}]

import { keyLocations, UNMODELED_REASONS, POINT_OCCUPANCY_CODE, DEFAULT_PERILS_COVERED, DEFAULT_OCCUPANCY_CODE } from './lookup.js';
import type { LabLocation } from '../../engine/places.js';
import { SAMPLED_DAMAGE, DEFAULT_WINDSTORM_SEED, MAX_SAMPLES, type GroundUpRun } from '../../engine/ground-up.js';
import { readTerms, describeTerms, type FinancialTerms, type NormalizedTerms } from '../../engine/financial.js';
import { ok, refused, type Result } from '../../../../kernel/result.js';
import { runSpecRefusal } from '../../engine/spec-refusal.js';
import { computeMetrics, type LabMetrics, type Occurrence, type EventLoss } from '../../engine/metrics.js';
import { SENSITIVITY_FACTORS, sensitivityBlock } from '../../engine/sensitivity.js';
import type { GridExtent, PiwindModel } from './piwind-model.js';
import { readCorrelation, describeDamageGroups, type CorrelationSpec } from '../../engine/correlation.js';
import { objectTerms, TermsEvaluator, type OedSetRecords } from '../../../financial/object-terms.js';
import type { PerilGroups } from '../../../financial/oed-fields.js';
import type { OedTermsHook } from '../../engine/oed-losses.js';
import type { KeyedPortfolio } from '../../engine/model-data.js';

export const WINDSTORM_LABEL = 'Externally built open model: the Oasis LMF PiWind demonstration (toy) windstorm model, run through this service\'s own re-implementation of the framework\'s ground-up calculation; distinct from the registry\'s validated models. Its hazard is synthetic, not observed.';

export interface WindstormPoint {
  lat: number;
  lon: number;
  value: number;
}

/** Points, or a stored object's locations (with its OED set when it has one: its terms then apply). */
export type WindstormExposure = { points: WindstormPoint[] } | { locations: LabLocation[]; oed?: OedSetRecords };

export interface WindstormSpec {
  samples: number;
  exposure: WindstormExposure;
  terms?: FinancialTerms | null;
  /** Damage correlation groups (correlation.ts); the framework's default when absent. */
  correlation?: CorrelationSpec | null;
}

export interface ModelDataIdentity {
  feed_id: string;
  version: string;
  sha256: string | Record<string, string>;
  credit_line?: string;
  license?: string;
}

export interface WindstormOptions {
  modelData: ModelDataIdentity;
  /** Model identifier as the lab names it (e.g. "<engine>-windstorm"). */
  modelId?: string;
  /** Model revision; terms need r3 (the default). */
  revision?: string;
  /** Seed of the Monte-Carlo samples; DEFAULT_WINDSTORM_SEED when absent. */
  seed?: number | bigint;
  returnPeriods?: readonly number[];
  /** Told how many of the model's events are done, of all, now and then (a job's progress). */
  onEvents?: (done: number, total: number) => void;
  /** OED's peril groups: needed to apply an object's OED terms. */
  perilGroups?: PerilGroups;
}

export interface TermsSummary {
  basis: string;
  ground_up: number;
  retained_by_deductibles: { place: number; account: number; total: number };
  above_limits: { place: number; account: number; total: number };
  insured: number;
  ceded: { quota_share: number; layers: { attachment: number; limit: number; aal: number }[]; total: number };
  net: number;
  check: { parts_total: number; difference: number };
  conservation: { checks: number; max_relative_gap: number };
}

export interface WindstormResult {
  lane: 'windstorm';
  model: { id: string; revision: string; engine: string; label: string; version: string | null };
  model_data: ModelDataIdentity & { periods: number; periods_source: string; events: number; footprint: GridExtent | null };
  run: { samples: number; seed: string | null; loss_basis: string | null; allocation_rule: 1; correlation: CorrelationSpec };
  exposure: {
    places: number;
    modeled: number;
    items: number;
    items_by_peril_coverage: { peril: string; coverage_type: number; items: number; value: number }[];
  };
  unmodeled: { count: number; places: { index: number; reason: string }[]; reasons: Record<string, string> };
  mean_damage: { aal: number; basis: string } | null;
  metrics: LabMetrics | null;
  ground_up_by_peril_coverage: { peril: string; coverage_type: number; aal: number }[] | null;
  terms?: Record<string, unknown>;
  perspectives?: { il: LabMetrics; ri: LabMetrics } | null;
  terms_summary?: TermsSummary | null;
  no_loss_figure?: string;
  assumptions: string[];
  warnings: string[];
}

function finite(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

export interface WindstormRunSpec {
  readonly samples: number;
  readonly locations: LabLocation[];
  readonly points: boolean;
  readonly terms: NormalizedTerms | null;
  readonly correlation: CorrelationSpec;
  /** The object's OED set, when its exposure is an object ingested from one. */
  readonly oed: OedSetRecords | null;
}

/** Validates the spec, naming every fault, and turns points into locations. */
export function readWindstormSpec(spec: unknown, revision = 'r3'): Result<WindstormRunSpec> {
  const details: string[] = [];
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) return refused(runSpecRefusal(['the spec must be an object']));
  const s = spec as Record<string, unknown>;
  const samples = s.samples;
  if (!Number.isInteger(samples) || (samples as number) < 0 || (samples as number) > MAX_SAMPLES) {
    details.push(`samples must be an integer from 0 to ${MAX_SAMPLES}`);
  }
  let locations: LabLocation[] = [];
  let points = false;
  const ex = s.exposure as Record<string, unknown> | undefined;
  if (typeof ex !== 'object' || ex === null || Array.isArray(ex)) details.push('exposure must be an object with points or locations');
  else if (('points' in ex) === ('locations' in ex)) details.push('exposure must hold exactly one of points and locations');
  else if ('points' in ex) {
    points = true;
    if (!Array.isArray(ex.points)) details.push('exposure.points must be an array');
    else {
      (ex.points as unknown[]).forEach((p, i) => {
        const o = p as Record<string, unknown>;
        if (typeof p !== 'object' || p === null) { details.push(`exposure.points[${i}] must be an object`); return; }
        if (!finite(o.lat) || o.lat < -90 || o.lat > 90) details.push(`exposure.points[${i}].lat must be a latitude`);
        if (!finite(o.lon) || o.lon < -180 || o.lon > 180) details.push(`exposure.points[${i}].lon must be a longitude`);
        if (!finite(o.value) || o.value < 0) details.push(`exposure.points[${i}].value must be a non-negative number`);
        locations.push({
          latitude: finite(o.lat) ? o.lat : null,
          longitude: finite(o.lon) ? o.lon : null,
          perils_covered: DEFAULT_PERILS_COVERED,
          occupancy_code: POINT_OCCUPANCY_CODE,
          buildings_value: finite(o.value) ? o.value : 0,
          contents_value: 0,
        });
      });
    }
  } else if (!Array.isArray(ex.locations)) details.push('exposure.locations must be an array');
  else locations = ex.locations as LabLocation[];
  const oed = ex !== null && typeof ex === 'object' && 'oed' in ex && ex.oed ? ex.oed as OedSetRecords : null;
  if (oed !== null && s.terms !== undefined && s.terms !== null) details.push('terms apply to points and to objects without OED terms; this object has OED terms, which apply: send no terms');
  let terms: NormalizedTerms | null = null;
  if (s.terms !== undefined && s.terms !== null) {
    if (revision !== 'r3') details.push(`terms need model revision r3; this run is ${revision}`);
    else {
      const read = readTerms(s.terms);
      if (read.ok) terms = read.value;
      else details.push(...(read.refusal.details ?? []));
    }
  }
  const correlation = readCorrelation(s.correlation, details);
  if (details.length > 0) return refused(runSpecRefusal(details));
  return ok({ samples: samples as number, locations, points, terms, correlation, oed });
}

function footprintText(f: GridExtent | null): string {
  return f === null
    ? 'The model data has no area-peril cell: every point is unmodeled.'
    : `The footprint is the model's grid, the extent of its area-peril cells (lat ${f.min_lat} to ${f.max_lat}, lon ${f.min_lon} to ${f.max_lon}, edges included); a point is unmodeled only when the lookup finds no area-peril cell for it (outside that extent, or in no cell of a covered peril).`;
}

const laneAssumptions = (model: PiwindModel, correlation: CorrelationSpec): string[] => [
  'Keys as the PiWind built-in lookup (lookup_config.json): LocPerilsCovered split on ";" and expanded by the OED peril groups, kept for WTC (wind) and WSS (storm surge); the area-peril cell by point-in-polygon against areaperil_dict, boundaries inside, no nearest fallback (a point on an edge shared by two cells takes the lower area-peril id); one item per peril and coverage type (1 buildings from the buildings value, 3 contents from the contents value), zero values dropped; the vulnerability from vulnerability_dict on (peril, coverage type, OED occupancy code).',
  `Bare points: the value is a buildings value, occupancy OED ${POINT_OCCUPANCY_CODE} (residential), perils ${DEFAULT_PERILS_COVERED} (wind with storm surge). Locations without LocPerilsCovered take ${DEFAULT_PERILS_COVERED}; without an occupancy code, OED's default ${DEFAULT_OCCUPANCY_CODE}.`,
  footprintText(model.extent),
  'Effective damage distribution per event and item: footprint intensity probabilities times vulnerability damage probabilities, the CDF cut where it first exceeds 0.99999994 (getmodel); mean damage ratio = sum of probability x bin interpolation value.',
  describeDamageGroups(model, model.lookup.modelPerils, correlation.damage_group),
  'Allocation rule 1: perils on one coverage summed, capped at the coverage value, split back pro rata, on every sample and on the mean.',
  'An event\'s loss is the mean over its samples (terms applied sample by sample first), or the analytical mean with samples 0. Post-loss amplification (lossfactors) is not applied: the lookup strategy does not key amplification ids.',
  'Periods come from the occurrence file; events outside events_p are not run.',
  'Financial terms (r3): place deductible then place limit on each place\'s ground-up loss; account deductible then account limit on the sum of the places; quota share on the insured loss; layers, lowest first, each recovering min(limit, max(0, retained - attachment)) on the loss retained after the quota share; net is what remains. Conservation is checked at every event (and sample).',
];

function eventLosses(run: GroundUpRun, values: Float64Array): EventLoss[] {
  const out: EventLoss[] = [];
  for (let e = 0; e < run.eventIds.length; e++) out.push({ event_id: run.eventIds[e]!, loss: values[e]! });
  return out;
}

/**
 * The object's OED terms for the kernel: the financial module's structures over the locations, for
 * the model's perils, and where each kernel location's coverages are among the module's items.
 */
function oedHook(locations: readonly LabLocation[], oed: OedSetRecords, portfolio: KeyedPortfolio, perilGroups: PerilGroups): OedTermsHook | null {
  const terms = objectTerms(locations, oed, perilGroups, new Set(portfolio.perils));
  if (terms === null) return null;
  const p = terms.insurance;
  const nC = portfolio.coverageTypes.length;
  const itemOf = new Map<string, number>();
  for (let i = 0; i < p.itemLocation.length; i++) itemOf.set(`${p.itemLocation[i]}:${p.itemCoverage[i]}`, i);
  const item = new Int32Array(portfolio.locPlace.length * nC).fill(-1);
  const kernelLocation = new Int32Array(locations.length).fill(-1);
  portfolio.locPlace.forEach((place, l) => {
    kernelLocation[place] = l;
    for (let c = 0; c < nC; c++) item[l * nC + c] = itemOf.get(`${place}:${portfolio.coverageTypes[c]}`) ?? -1;
  });
  return { evaluator: new TermsEvaluator(terms), item, kernelLocation };
}

/** The OED terms' hook, stated in the result (where they come from, what of them is not applied). */
function statedOedTerms(base: WindstormResult, samples: number, hook: OedTermsHook | null): OedTermsHook | null {
  if (hook === null) return null;
  base.terms = { source: 'the object\'s OED terms (docs/financial-module.md)', warnings: [...hook.evaluator.terms.warnings] };
  if (samples === 0) base.warnings.push('With samples 0 the OED terms act on mean losses, which misstates deductibles and limits against sampled losses; run with samples for the insured and net views.');
  return hook;
}


/** The exposure's items and values per peril and coverage type (the pairs that hold an item). */
function itemsByPerilCoverage(portfolio: ReturnType<typeof keyLocations>): WindstormResult['exposure']['items_by_peril_coverage'] {
  const byPC: WindstormResult['exposure']['items_by_peril_coverage'] = [];
  for (let p = 0; p < portfolio.perils.length; p++) {
    for (let c = 0; c < portfolio.coverageTypes.length; c++) {
      let items = 0;
      let value = 0;
      for (let i = 0; i < portfolio.itemPeril.length; i++) {
        if (portfolio.itemPeril[i] === p && portfolio.itemCoverage[i] === c) { items++; value += portfolio.itemTiv[i]!; }
      }
      if (items > 0) byPC.push({ peril: portfolio.perils[p]!, coverage_type: portfolio.coverageTypes[c]!, items, value });
    }
  }
  return byPC;
}

/** Runs the windstorm lane over a parsed PiWind model. */
export function runWindstorm(model: PiwindModel, spec: WindstormSpec | unknown, options: WindstormOptions): Result<WindstormResult> {
  const revision = options.revision ?? 'r3';
  const read = readWindstormSpec(spec, revision);
  if (!read.ok) return read;
  const { samples, locations, terms, correlation, oed } = read.value;
  const seed = options.seed ?? DEFAULT_WINDSTORM_SEED;
  const portfolio = keyLocations(model, locations);
  const periods = model.occurrence.periods;
  const warnings = [...model.notes];
  const modeled = portfolio.locPlace.length;

  const byPC = itemsByPerilCoverage(portfolio);
  const unmodeledReasons: Record<string, string> = {};
  for (const u of portfolio.unmodeled) unmodeledReasons[u.reason] = UNMODELED_REASONS[u.reason];
  if (portfolio.dropped.boundary_ties > 0) warnings.push(`${portfolio.dropped.boundary_ties} place-peril(s) lie on an edge shared by cells and took the lower area-peril id.`);
  if (portfolio.dropped.zero_value > 0) warnings.push(`${portfolio.dropped.zero_value} item(s) with a zero coverage value were dropped.`);
  if (portfolio.dropped.no_vulnerability > 0) warnings.push(`${portfolio.dropped.no_vulnerability} item(s) had no vulnerability for their occupancy code and were dropped.`);
  const defaultSamples = model.settings?.defaultSamples ?? null;
  if (samples > 0 && defaultSamples !== null && samples < defaultSamples) {
    warnings.push(`${samples} samples per event is fewer than the model's default of ${defaultSamples}.`);
  }
  if (samples === 0 && terms) warnings.push('With samples 0 the terms act on mean losses, which misstates deductibles and limits against sampled losses; run with samples for the insured and net views.');
  if (samples === 1 && terms?.nonlinearAcrossPlaces) warnings.push('With one sample the account terms and layers act on a single draw per event.');

  const base: WindstormResult = {
    lane: 'windstorm',
    model: {
      id: options.modelId ?? 'oasislmf-windstorm',
      revision,
      engine: SAMPLED_DAMAGE.method,
      label: WINDSTORM_LABEL,
      version: model.version,
    },
    model_data: { ...options.modelData, periods, periods_source: model.occurrence.periodsSource, events: model.events.length, footprint: model.extent },
    run: { samples, seed: null, loss_basis: null, allocation_rule: 1, correlation },
    exposure: { places: locations.length, modeled, items: portfolio.itemPeril.length, items_by_peril_coverage: byPC },
    unmodeled: { count: portfolio.unmodeled.length, places: portfolio.unmodeled.map((u) => ({ index: u.index, reason: u.reason })), reasons: unmodeledReasons },
    mean_damage: null,
    metrics: null,
    ground_up_by_peril_coverage: null,
    assumptions: laneAssumptions(model, correlation),
    warnings,
  };
  if (terms) base.terms = describeTerms(terms);

  if (modeled === 0) {
    base.no_loss_figure = locations.length === 0
      ? 'The exposure holds no place: no loss figure.'
      : 'No place is modeled (every place is unmodeled, see unmodeled): no loss figure; metrics is null.';
    if (terms) {
      base.perspectives = null;
      base.terms_summary = null;
    }
    return ok(base);
  }

  const factors = [1, ...SENSITIVITY_FACTORS];
  const hook = oed !== null ? statedOedTerms(base, samples, oedHook(locations, oed, portfolio, options.perilGroups ?? new Map())) : null;
  const groundUp = SAMPLED_DAMAGE.groundUp({
    model, portfolio,
    options: { samples, seed, factors, terms, oed: hook, damageGroup: correlation.damage_group, ...(options.onEvents ? { onEvents: options.onEvents } : {}) },
  });
  if (!groundUp.ok) return groundUp;
  const run = groundUp.value;
  const lossBasis = samples === 0
    ? 'analytical mean damage per event (gulcalc sidx -1) with allocation rule 1'
    : `mean over ${samples} Latin-hypercube samples per event with allocation rule 1`;
  base.run = { samples, seed: samples > 0 ? run.seed : null, loss_basis: lossBasis, allocation_rule: 1, correlation };
  if (run.massless > 0) warnings.push(`${run.massless} item-event(s) had a damage distribution without probability mass and no loss.`);

  const occurrences: Occurrence[] = [];
  for (let r = 0; r < model.occurrence.eventId.length; r++) {
    const d = model.occurrence.date;
    occurrences.push({
      event_id: model.occurrence.eventId[r]!, period: model.occurrence.period[r]!,
      ...(d ? { date: { year: d[r * 5]!, month: d[r * 5 + 1]!, day: d[r * 5 + 2]!, hour: d[r * 5 + 3]!, minute: d[r * 5 + 4]! } } : {}),
    });
  }
  const perspective = (name: string, values: Float64Array[], places: Float64Array): LabMetrics => {
    const baseLosses = eventLosses(run, values[0]!);
    let weighted = 0;
    for (let e = 0; e < run.eventIds.length; e++) weighted += run.occurrences[e]! * values[0]![e]!;
    const baseAal = weighted / periods;
    const sens = sensitivityBlock(periods, occurrences, baseAal,
      factors.slice(1).map((f, i) => ({ factor: f, eventLosses: eventLosses(run, values[i + 1]!) })), options.returnPeriods);
    return computeMetrics({
      perspective: name,
      lossBasis,
      periods,
      eventLosses: baseLosses,
      occurrences,
      places: Array.from(portfolio.locPlace, (index, l) => ({ index, loss: places[l]! })),
      returnPeriods: options.returnPeriods,
      sensitivity: sens,
      warnings,
    });
  };

  let aAal = 0;
  for (let e = 0; e < run.eventIds.length; e++) aAal += run.occurrences[e]! * run.analytical[e]!;
  base.mean_damage = { aal: aAal / periods, basis: 'analytical mean damage (gulcalc sidx -1) with allocation rule 1, summed over the occurrences and divided by the periods' };
  base.metrics = perspective('ground_up', run.groundUp, run.placeGroundUp);
  const pc: { peril: string; coverage_type: number; aal: number }[] = [];
  for (let p = 0; p < portfolio.perils.length; p++) {
    for (let c = 0; c < portfolio.coverageTypes.length; c++) {
      if (byPC.some((x) => x.peril === portfolio.perils[p] && x.coverage_type === portfolio.coverageTypes[c])) {
        pc.push({ peril: portfolio.perils[p]!, coverage_type: portfolio.coverageTypes[c]!, aal: run.byPerilCoverage[p * portfolio.coverageTypes.length + c]! / periods });
      }
    }
  }
  base.ground_up_by_peril_coverage = pc;

  if (hook !== null && run.insured && run.net) {
    base.perspectives = { il: perspective('insured', run.insured, run.placeInsured!), ri: perspective('net', run.net, run.placeNet!) };
    base.terms_summary = null;
  }
  if (terms && run.terms && run.insured && run.net) {
    base.perspectives = {
      il: perspective('insured', run.insured, run.placeInsured!),
      ri: perspective('net', run.net, run.placeNet!),
    };
    const t = run.terms;
    const a = (x: number) => x / periods;
    const layers = terms.layers.map((l, k) => ({ attachment: l.attachment, limit: l.limit, aal: a(t.layers[k]!) }));
    const cededLayers = layers.reduce((s, l) => s + l.aal, 0);
    const parts = a(t.place_deductible) + a(t.account_deductible) + a(t.place_above_limit) + a(t.account_above_limit)
      + a(t.ceded_quota_share) + cededLayers + a(t.net);
    base.terms_summary = {
      basis: 'average annual amounts: event means summed over the occurrences and divided by the periods',
      ground_up: a(t.ground_up),
      retained_by_deductibles: { place: a(t.place_deductible), account: a(t.account_deductible), total: a(t.place_deductible + t.account_deductible) },
      above_limits: { place: a(t.place_above_limit), account: a(t.account_above_limit), total: a(t.place_above_limit + t.account_above_limit) },
      insured: a(t.insured),
      ceded: { quota_share: a(t.ceded_quota_share), layers, total: a(t.ceded_quota_share) + cededLayers },
      net: a(t.net),
      check: { parts_total: parts, difference: a(t.ground_up) - parts },
      conservation: run.conservation,
    };
  }
  return ok(base);
}
