// The loss engine's sampled-damage kernel (SAMPLED_DAMAGE, loss-engine.ts): the framework's
// ground-up calculation (Oasis getmodel + gulcalc/gulpy), reproduced for keyed items of any
// ModelData, with the financial module's terms applied per sample on the way (financial.ts).
//
// Per event and item (vulnerability v, area-peril a):
//   - effective damage distribution P(d) = Σ_i P(i | event, a) · P(d | v, i) over the footprint's
//     intensity bins; its CDF is cut, as getmodel does, at the first damage bin where the running sum
//     exceeds 0.999999940 (single-precision one);
//   - analytical mean damage ratio = Σ_d P(d) · interpolation_d over the kept bins (gulcalc sidx -1);
//   - sampled damage ratio for a uniform u: the first bin whose cumulative probability exceeds u,
//     then inside that bin: bin_to for a zero-width bin, linear between bin_from and bin_to when the
//     interpolation value is the bin's midpoint (|x - 1/2| <= 5e-6), the framework's quadratic rule
//     otherwise; u at or above the last cumulative value becomes that value less 3e-8 in the last bin
//     (gulpy's cap).
// Random numbers: one set of `samples` uniforms per event and damage group (correlation.ts: by
// default location × peril correlation group, as the framework's damage group ids are; optionally
// per location or per item); a group's items share its set. The set is a Latin hypercube, as gulpy's
// default generator draws it: strata k = 0..S-1 each get one uniform (k + 1 - v_k)/S, v_k from one
// 32-bit output ((x + 0.5)/2^32), in a random order. Streams: xoshiro128** (src/domain/stats/random.ts)
// seeded per event with SplitMix64(seed) XOR (2·event_id + s), s = 0 for the damage uniforms and
// s = 1 for the order of the strata. Damage uniforms are drawn location by location, locations
// grouped by class (same area-perils, vulnerabilities, coverages and groups; classes in the order of
// their first location in the schedule, schedule order inside a class), a location's groups in
// order, strata in order. Every group also draws an order of its strata (stream 1), used only where
// the pairing of samples matters: across places when terms act on sums of places (account terms,
// layers), and inside a location with more than one group when its samples are combined (several
// perils on a coverage, or terms). Drawing it always keeps both streams independent of the terms,
// so the ground-up figures are the same with or without terms (up to floating-point rounding). Numbers of different locations are independent
// (the damage correlation values of correlation_settings are not applied).
// Allocation rule 1 (gulcalc -a1): the items (perils) of one coverage are summed, capped at the
// coverage value, and split back pro rata; applied to every sample and to the mean, as gulpy does.
// A location's ground-up loss is the sum over its coverages. With samples > 0 an event's loss is the
// mean over the samples (terms applied sample by sample first); with samples = 0 it is the
// analytical mean (terms applied to mean losses).

import { ok, refused, type Result } from '../../../kernel/result.js';
import { seededRandom, splitMix64, type SeededRandom } from '../../stats/random.js';
import type { DamageBins, KeyedPortfolio, ModelData } from './model-data.js';
import { CONSERVATION_TOLERANCE, accountAndReinsurance, lossNotConserved, type NormalizedTerms } from './financial.js';
import type { LossKernel, TermsBreakdown } from './loss-engine.js';
import { binMode, scaledBinMeans } from './sensitivity.js';
import {
  accumulate, accumulateWithTerms, combineRows, Distributions, drawStrata, drawStrataWithPrefix, shuffle, sumByPrefix, sweep,
} from './damage-sampling.js';
import { DEFAULT_DAMAGE_GROUP, itemDamageGroups, type DamageGroupRule } from './correlation.js';
import { OedEventLosses, type OedTermsHook } from './oed-losses.js';

/** The lane's seed when the caller gives none (the pinned PiWind vintage as a number). */
export const DEFAULT_WINDSTORM_SEED = 20260730;
export const MAX_SAMPLES = 1000;
/** From this many samples, sums over samples use prefix sums per damage bin instead of a sweep. */
const PREFIX_MIN_SAMPLES = 24;

export interface GroundUpOptions {
  /** 0 = analytical mean only; otherwise Monte-Carlo samples per event. */
  samples: number;
  seed?: number | bigint;
  /** Damage-ratio scale factors; the first must be 1 (the base run), the others are sensitivities. */
  factors?: readonly number[];
  terms?: NormalizedTerms | null;
  /** An object's OED terms through the financial module (oed-losses.ts); not with terms. */
  oed?: OedTermsHook | null;
  /** Which items share random numbers (correlation.ts); DEFAULT_DAMAGE_GROUP when absent. */
  damageGroup?: DamageGroupRule;
  /** Told how many events are done, of all, every few events and once at the end (a job's progress). */
  onEvents?: (done: number, total: number) => void;
}

/** Occurrence-weighted sums (Σ over events of occurrences × event mean): divide by periods for AAL. */
export type TermsTotals = TermsBreakdown;

export interface GroundUpRun {
  samples: number;
  seed: string;
  factors: number[];
  /** events_p ids, ascending; every per-event array is aligned with it. */
  eventIds: Int32Array;
  /** How many times each event occurs in the occurrence table. */
  occurrences: Int32Array;
  /** Ground-up analytical mean loss per event (rule 1 on the means), always computed. */
  analytical: Float64Array;
  /** Per factor: event loss (mean over samples, or analytical with samples 0). */
  groundUp: Float64Array[];
  insured: Float64Array[] | null;
  net: Float64Array[] | null;
  /** Per modeled location (portfolio order): occurrence-weighted sum of its event losses (base factor). */
  placeGroundUp: Float64Array;
  placeInsured: Float64Array | null;
  placeNet: Float64Array | null;
  placeAnalytical: Float64Array;
  /** [peril * nCoverages + coverage]: occurrence-weighted ground-up sums after allocation (base factor). */
  byPerilCoverage: Float64Array;
  terms: TermsTotals | null;
  conservation: { checks: number; max_relative_gap: number };
  eventsWithFootprint: number;
  /** Item-events whose damage distribution had no probability mass (no loss). */
  massless: number;
}

export interface SampledDamageInputs {
  model: ModelData;
  portfolio: KeyedPortfolio;
  options: GroundUpOptions;
}

/** The loss engine's kernel over Oasis-style model data: damage sampled per item and event, as gulcalc does. */
export const SAMPLED_DAMAGE: LossKernel<SampledDamageInputs, GroundUpRun> = {
  method: 'Oasis LMF method (getmodel, gulcalc allocation rule 1) re-implemented in this service',
  groundUp: ({ model, portfolio, options }) => runGroundUp(model, portfolio, options),
};

/** Per-event stream seed: SplitMix64(seed) XOR (2·event_id + stream). */
export function eventStreamSeed(seed: number | bigint, eventId: number, stream: 0 | 1): bigint {
  const base = splitMix64(BigInt.asUintN(64, BigInt(seed)))[1];
  return base ^ BigInt.asUintN(64, BigInt(eventId) * 2n + BigInt(stream));
}

const DONE: Result<void> = ok(undefined);

/** The run's settings, checked: samples, seed, damage-ratio factors, terms and how samples pair. */
interface RunSettings {
  S: number;
  /** Samples per event, or 1 (the mean) with samples 0. */
  K: number;
  seed: number | bigint;
  factors: number[];
  F: Float64Array;
  terms: NormalizedTerms | null;
  oed: OedTermsHook | null;
  /** Account terms or layers (or OED terms) with several samples: a sample's places are paired across the event. */
  order: boolean;
  slots: number;
  nLayers: number;
}

function runSettings(options: GroundUpOptions): RunSettings {
  const S = options.samples;
  if (!Number.isInteger(S) || S < 0 || S > MAX_SAMPLES) throw new RangeError(`samples must be an integer from 0 to ${MAX_SAMPLES}, got ${S}`);
  const factors = [...(options.factors ?? [1])];
  if (factors[0] !== 1) throw new RangeError('the first damage-ratio factor must be 1 (the base run)');
  for (const f of factors) if (!(f > 0) || !Number.isFinite(f)) throw new RangeError(`damage-ratio factor ${f} must be positive`);
  const terms = options.terms ?? null;
  const oed = options.oed ?? null;
  if (terms !== null && oed !== null) throw new RangeError('terms and OED terms are not applied together');
  const K = S > 0 ? S : 1;
  const order = ((terms !== null && terms.nonlinearAcrossPlaces) || oed !== null) && S > 1;
  return {
    S, K, seed: options.seed ?? DEFAULT_WINDSTORM_SEED, factors, F: Float64Array.from(factors), terms, oed,
    order, slots: order ? K : 1, nLayers: terms?.layers.length ?? 0,
  };
}

/** The damage bins as the sampler reads them: widths, interpolation modes and means per factor. */
interface DamageBinShapes {
  nD: number;
  width: Float64Array;
  /** 0 point, 1 linear, 2 quadratic. */
  mode: Uint8Array;
  binX: Float64Array;
  binMeans: Float64Array;
  from: Float64Array;
  to: Float64Array;
}

function damageBinShapes(bins: DamageBins, factors: readonly number[]): DamageBinShapes {
  const nD = bins.count;
  const width = new Float64Array(nD);
  const mode = new Uint8Array(nD);
  const binX = new Float64Array(nD);
  for (let b = 0; b < nD; b++) {
    width[b] = bins.to[b]! - bins.from[b]!;
    const m = binMode(bins.from[b]!, bins.to[b]!, bins.interpolation[b]!);
    mode[b] = m === 'point' ? 0 : m === 'linear' ? 1 : 2;
    binX[b] = width[b]! > 0 ? (bins.interpolation[b]! - bins.from[b]!) / width[b]! : 0;
  }
  return { nD, width, mode, binX, binMeans: scaledBinMeans(bins, factors), from: bins.from, to: bins.to };
}

/**
 * The vulnerability stage before any event: one damage distribution per (vulnerability, intensity
 * bin) the model gives, indexed [v * stride + bin] (-1 when absent or massless).
 */
function vulnerabilityDistributions(model: ModelData, shapes: DamageBinShapes, dists: Distributions): Int32Array {
  const vul = model.vulnerability;
  const stride = vul.intensityStride;
  const nD = shapes.nD;
  const staticDist = new Int32Array(vul.ids.length * stride).fill(-1);
  const pBuf = new Float64Array(nD);
  for (let v = 0; v < vul.ids.length; v++) {
    for (let i = 1; i < stride; i++) {
      if (!vul.present[v * stride + i]) continue;
      const at = (v * stride + i) * nD;
      for (let b = 0; b < nD; b++) pBuf[b] = vul.prob[at + b]!;
      staticDist[v * stride + i] = dists.add(pBuf, shapes.width, shapes.mode, shapes.binMeans);
    }
  }
  return staticDist;
}

/** The model's events (events_p, ascending) and how often each occurs in the occurrence table. */
function eventOccurrences(model: ModelData): { eventIds: Int32Array; occurrences: Int32Array } {
  const eventIds = Int32Array.from(model.events);
  const eventIndex = new Map<number, number>();
  eventIds.forEach((e, i) => eventIndex.set(e, i));
  const occurrences = new Int32Array(eventIds.length);
  for (let r = 0; r < model.occurrence.eventId.length; r++) {
    const i = eventIndex.get(model.occurrence.eventId[r]!);
    if (i !== undefined) occurrences[i]! += 1;
  }
  return { eventIds, occurrences };
}

/**
 * The exposure stage: locations whose items have the same area-perils, vulnerabilities, coverages,
 * perils and damage groups share every damage distribution of every event, so they form a class.
 * A class keeps the items of its first location (ci*) and its locations in schedule order.
 */
interface LocationClasses {
  count: number;
  itemStart: Int32Array;
  ap: Int32Array;
  vuln: Int32Array;
  cov: Uint8Array;
  peril: Uint8Array;
  group: Int32Array;
  maxGroups: number;
  maxItems: number;
  locStart: Int32Array;
  locs: Int32Array;
}

function locationClasses(model: ModelData, portfolio: KeyedPortfolio, rule: DamageGroupRule): LocationClasses {
  const nL = portfolio.locPlace.length;
  const itemStart = portfolio.locItemStart;
  const itemGroup = itemDamageGroups(model, portfolio, rule);
  const classOf = new Map<string, number>();
  const items: number[] = [];
  const starts: number[] = [0];
  const locClass = new Int32Array(nL);
  for (let l = 0; l < nL; l++) {
    const parts: string[] = [];
    for (let it = itemStart[l]!; it < itemStart[l + 1]!; it++) {
      parts.push(`${portfolio.itemAreaperil[it]}:${portfolio.itemVulnerability[it]}:${portfolio.itemCoverage[it]}:${portfolio.itemPeril[it]}:${itemGroup[it]}`);
    }
    const key = parts.join(';');
    let c = classOf.get(key);
    if (c === undefined) {
      c = classOf.size;
      classOf.set(key, c);
      for (let it = itemStart[l]!; it < itemStart[l + 1]!; it++) items.push(it); // a representative item
      starts.push(items.length);
    }
    locClass[l] = c;
  }
  const count = classOf.size;
  const n = items.length;
  const cls: LocationClasses = {
    count, itemStart: Int32Array.from(starts), ap: new Int32Array(n), vuln: new Int32Array(n), cov: new Uint8Array(n),
    peril: new Uint8Array(n), group: new Int32Array(n), maxGroups: 1, maxItems: 0, locStart: new Int32Array(0), locs: new Int32Array(nL),
  };
  for (let x = 0; x < n; x++) {
    const it = items[x]!;
    cls.group[x] = itemGroup[it]!;
    if (itemGroup[it]! + 1 > cls.maxGroups) cls.maxGroups = itemGroup[it]! + 1;
    cls.ap[x] = portfolio.itemAreaperil[it]!;
    cls.vuln[x] = portfolio.itemVulnerability[it]!;
    cls.cov[x] = portfolio.itemCoverage[it]!;
    cls.peril[x] = portfolio.itemPeril[it]!;
  }
  // Locations of each class, in schedule order.
  const clsCount = new Int32Array(count + 1);
  for (let l = 0; l < nL; l++) clsCount[locClass[l]! + 1]! += 1;
  for (let c = 0; c < count; c++) clsCount[c + 1]! += clsCount[c]!;
  cls.locStart = Int32Array.from(clsCount);
  const fill = Int32Array.from(cls.locStart);
  for (let l = 0; l < nL; l++) cls.locs[fill[locClass[l]!]!++] = l;
  for (let c = 0; c < count; c++) cls.maxItems = Math.max(cls.maxItems, cls.itemStart[c + 1]! - cls.itemStart[c]!);
  return cls;
}

/** What the run adds up over the events: the GroundUpRun's arrays and counters. */
interface Accumulated {
  analytical: Float64Array;
  groundUp: Float64Array[];
  insured: Float64Array[] | null;
  net: Float64Array[] | null;
  placeGroundUp: Float64Array;
  placeAnalytical: Float64Array;
  placeInsured: Float64Array | null;
  placeNet: Float64Array | null;
  byPerilCoverage: Float64Array;
  totals: TermsTotals | null;
  checks: number;
  maxGap: number;
  massless: number;
  eventsWithFootprint: number;
}

function accumulated(nE: number, nL: number, nPC: number, s: RunSettings): Accumulated {
  const t = s.terms !== null || s.oed !== null;
  return {
    analytical: new Float64Array(nE),
    groundUp: s.factors.map(() => new Float64Array(nE)),
    insured: t ? s.factors.map(() => new Float64Array(nE)) : null,
    net: t ? s.factors.map(() => new Float64Array(nE)) : null,
    placeGroundUp: new Float64Array(nL),
    placeAnalytical: new Float64Array(nL),
    placeInsured: t ? new Float64Array(nL) : null,
    placeNet: t ? new Float64Array(nL) : null,
    byPerilCoverage: new Float64Array(nPC),
    totals: s.terms !== null ? {
      ground_up: 0, place_deductible: 0, place_above_limit: 0, account_deductible: 0, account_above_limit: 0,
      insured: 0, ceded_quota_share: 0, layers: new Array<number>(s.nLayers).fill(0), net: 0,
    } : null,
    checks: 0,
    maxGap: 0,
    massless: 0,
    eventsWithFootprint: 0,
  };
}

/** One event's working state, allocated once and reused event after event. */
interface EventScratch {
  apEntry: Int32Array;
  /** The items of the class being run that the event reaches: distribution, coverage, peril, group. */
  nh: number;
  hDist: Int32Array;
  hCov: Uint8Array;
  hPeril: Uint8Array;
  hGroup: Int32Array;
  groupHits: Int32Array;
  covHits: Int32Array;
  covMean: Float64Array;
  pBuf: Float64Array;
  dynamicKey: Map<number, number>;
  rng: SeededRandom | null;
  rngPerm: SeededRandom | null;
  U: Float64Array;
  P: Float64Array;
  perm: Int32Array;
  rows: Float64Array;
  gRow: Float64Array;
  sums: Float64Array;
  ilOut: Float64Array;
  /** Places' insured losses summed per factor and slot. */
  sPIL: Float64Array;
  /** Event sums of the base place deductibles and amounts above place limits. */
  evPlace: Float64Array;
  evPC: Float64Array;
  evGU: Float64Array;
  evAnalytical: number;
  /** Locations the event reached, in the order they were run, with their base insured losses. */
  hits: number;
  hitLoc: Int32Array;
  hitIL: Float64Array;
  buf: Float64Array;
  out: Float64Array;
  fS: Float64Array;
  gS: Float64Array;
  pD: number;
  pL: number;
}

function eventScratch(model: ModelData, nL: number, nC: number, nP: number, cls: LocationClasses, s: RunSettings, nD: number): EventScratch {
  const { K, slots, terms } = s;
  const nF = s.factors.length;
  const maxItems = cls.maxItems;
  return {
    apEntry: new Int32Array(model.maxAreaperilId + 1).fill(-1),
    nh: 0,
    hDist: new Int32Array(maxItems),
    hCov: new Uint8Array(maxItems),
    hPeril: new Uint8Array(maxItems),
    hGroup: new Int32Array(maxItems),
    groupHits: new Int32Array(cls.maxGroups),
    covHits: new Int32Array(nC),
    covMean: new Float64Array(nF * nC),
    pBuf: new Float64Array(nD),
    dynamicKey: new Map<number, number>(),
    rng: null,
    rngPerm: null,
    U: new Float64Array(K),
    P: new Float64Array(K + 1),
    perm: new Int32Array(K),
    rows: new Float64Array(maxItems * K),
    gRow: new Float64Array(nF * K),
    sums: new Float64Array(nF),
    ilOut: new Float64Array(1),
    sPIL: new Float64Array(nF * slots),
    evPlace: new Float64Array(2),
    evPC: new Float64Array(nP * nC),
    evGU: new Float64Array(nF),
    evAnalytical: 0,
    hits: 0,
    hitLoc: new Int32Array(nL),
    hitIL: terms ? new Float64Array(nL) : new Float64Array(0),
    buf: s.order ? new Float64Array(nL * K) : new Float64Array(0),
    out: new Float64Array(5 + s.nLayers),
    fS: new Float64Array(slots),
    gS: new Float64Array(slots),
    pD: terms?.placeDeductible ?? 0,
    pL: terms?.placeLimit ?? Infinity,
  };
}

/** Everything the stages of one event read: the model, the portfolio and the run's set-up. */
interface GroundUpContext {
  model: ModelData;
  portfolio: KeyedPortfolio;
  s: RunSettings;
  bins: DamageBinShapes;
  dists: Distributions;
  staticDist: Int32Array;
  staticCount: number;
  classes: LocationClasses;
  eventIds: Int32Array;
  occurrences: Int32Array;
  nC: number;
  nP: number;
  acc: Accumulated;
  x: EventScratch;
  oedLosses: OedEventLosses | null;
}

/**
 * Runs the ground-up (and terms) calculation over every event of the model for a keyed portfolio,
 * stage by stage: the vulnerability's damage distributions, the exposure's location classes, then
 * per event the hazard's footprint, the damage of each class's items, each location's ground-up
 * loss, and the financial module. A conservation failure of the terms is refused, not thrown.
 */
export function runGroundUp(model: ModelData, portfolio: KeyedPortfolio, options: GroundUpOptions): Result<GroundUpRun> {
  const s = runSettings(options);
  const bins = damageBinShapes(model.damageBins, s.factors);
  const dists = new Distributions(bins.nD, s.factors.length);
  const staticDist = vulnerabilityDistributions(model, bins, dists);
  const { eventIds, occurrences } = eventOccurrences(model);
  const nE = eventIds.length;
  const nL = portfolio.locPlace.length;
  const nC = portfolio.coverageTypes.length;
  const nP = portfolio.perils.length;
  const classes = locationClasses(model, portfolio, options.damageGroup ?? DEFAULT_DAMAGE_GROUP);
  const ctx: GroundUpContext = {
    model, portfolio, s, bins, dists, staticDist, staticCount: dists.count, classes, eventIds, occurrences, nC, nP,
    acc: accumulated(nE, nL, nP * nC, s),
    x: eventScratch(model, nL, nC, nP, classes, s, bins.nD),
    oedLosses: s.oed ? new OedEventLosses(s.oed, s.factors.length, s.K) : null,
  };
  const onEvents = options.onEvents;
  for (let e = 0; e < nE; e++) {
    if (onEvents !== undefined && (e & 63) === 0) onEvents(e, nE);
    const ran = runEvent(ctx, e);
    if (!ran.ok) return ran;
  }
  onEvents?.(nE, nE);
  const acc = ctx.acc;
  return ok({
    samples: s.S,
    seed: String(s.seed),
    factors: s.factors,
    eventIds,
    occurrences,
    analytical: acc.analytical,
    groundUp: acc.groundUp,
    insured: acc.insured,
    net: acc.net,
    placeGroundUp: acc.placeGroundUp,
    placeInsured: acc.placeInsured,
    placeNet: acc.placeNet,
    placeAnalytical: acc.placeAnalytical,
    byPerilCoverage: acc.byPerilCoverage,
    terms: acc.totals,
    conservation: { checks: acc.checks, max_relative_gap: acc.maxGap },
    eventsWithFootprint: acc.eventsWithFootprint,
    massless: acc.massless,
  });
}

/** One event: its footprint keyed by area-peril, each class's losses, then the financial module. */
function runEvent(ctx: GroundUpContext, e: number): Result<void> {
  const { model, s, acc, x } = ctx;
  const fp = model.footprint;
  const eventId = ctx.eventIds[e]!;
  const fi = fp.eventIndex.get(eventId);
  if (fi === undefined) return DONE;
  acc.eventsWithFootprint++;
  const w = ctx.occurrences[e]!;
  const j0 = fp.eventStart[fi]!;
  const j1 = fp.eventStart[fi + 1]!;
  for (let j = j0; j < j1; j++) x.apEntry[fp.entryAreaperil[j]!] = j;
  ctx.dists.count = ctx.staticCount;
  x.dynamicKey.clear();
  x.rng = s.S > 0 ? seededRandom(eventStreamSeed(s.seed, eventId, 0)) : null;
  x.rngPerm = s.S > 1 ? seededRandom(eventStreamSeed(s.seed, eventId, 1)) : null;
  x.sPIL.fill(0);
  x.evPlace.fill(0);
  x.evPC.fill(0);
  x.evGU.fill(0);
  x.evAnalytical = 0;
  x.hits = 0;
  for (let cls = 0; cls < ctx.classes.count; cls++) {
    if (classItemsHit(ctx, cls, j0, j1) > 0) classLosses(ctx, cls, w);
  }
  for (let j = j0; j < j1; j++) x.apEntry[fp.entryAreaperil[j]!] = -1;

  const K = s.K;
  acc.analytical[e] = x.evAnalytical;
  for (let q = 0; q < ctx.nP * ctx.nC; q++) acc.byPerilCoverage[q]! += (w * x.evPC[q]!) / K;
  for (let f = 0; f < s.factors.length; f++) acc.groundUp[f]![e] = x.evGU[f]! / K;
  if (ctx.oedLosses !== null) {
    ctx.oedLosses.finish(e, w, acc.insured!, acc.net!, acc.placeInsured!, acc.placeNet!);
    return DONE;
  }
  if (!s.terms || x.hits === 0) return DONE;
  const conserved = accountAndReinsuranceOfEvent(ctx, e, eventId, w);
  if (!conserved.ok) return conserved;
  placesInsuredAndNet(ctx, w);
  return DONE;
}

/**
 * Hazard × vulnerability for one class: the items the event reaches, each with its damage
 * distribution (a vulnerability's static one when the footprint gives one intensity bin for sure,
 * else the mix over the footprint's bins, built once per event). Returns how many items it reaches.
 */
function classItemsHit(ctx: GroundUpContext, cls: number, j0: number, j1: number): number {
  const { x, classes: c, bins } = ctx;
  const fp = ctx.model.footprint;
  const vul = ctx.model.vulnerability;
  const stride = vul.intensityStride;
  const nD = bins.nD;
  let nh = 0;
  x.covHits.fill(0);
  x.groupHits.fill(0);
  for (let it = c.itemStart[cls]!; it < c.itemStart[cls + 1]!; it++) {
    const j = x.apEntry[c.ap[it]!]!;
    if (j < 0) continue;
    const v = c.vuln[it]!;
    if (v < 0) continue;
    let d: number;
    const k0 = fp.entryStart[j]!;
    const k1 = fp.entryStart[j + 1]!;
    if (k1 - k0 === 1 && fp.binProb[k0] === 1) {
      const ib = fp.binId[k0]!;
      d = ib < stride ? ctx.staticDist[v * stride + ib]! : -1;
    } else {
      const key = v * (j1 - j0) + (j - j0);
      const have = x.dynamicKey.get(key);
      if (have !== undefined) d = have;
      else {
        const pBuf = x.pBuf;
        pBuf.fill(0);
        for (let k = k0; k < k1; k++) {
          const ib = fp.binId[k]!;
          if (ib >= stride || !vul.present[v * stride + ib]) continue;
          const pi = fp.binProb[k]!;
          const at = (v * stride + ib) * nD;
          for (let b = 0; b < nD; b++) pBuf[b]! += pi * vul.prob[at + b]!;
        }
        d = ctx.dists.add(pBuf, bins.width, bins.mode, bins.binMeans);
        x.dynamicKey.set(key, d);
      }
    }
    if (d < 0) {
      ctx.acc.massless += c.locStart[cls + 1]! - c.locStart[cls]!;
      continue;
    }
    x.hDist[nh] = d;
    x.hCov[nh] = c.cov[it]!;
    x.hPeril[nh] = c.peril[it]!;
    x.hGroup[nh] = c.group[it]!;
    x.groupHits[c.group[it]!]! += 1;
    x.covHits[c.cov[it]!]! += 1;
    nh++;
  }
  x.nh = nh;
  return nh;
}

/** Ground up for each location of a class the event reaches: the analytical mean, then its K samples (or the mean). */
function classLosses(ctx: GroundUpContext, cls: number, w: number): void {
  const { x, acc, s, nC } = ctx;
  const nF = s.factors.length;
  const covTiv = ctx.portfolio.covTiv;
  const covMean = x.covMean;
  // Mean damage ratios summed per coverage (per factor): rule 1 caps each sum at 1.
  covMean.fill(0);
  let multi = false;
  for (let j = 0; j < x.nh; j++) {
    const c = x.hCov[j]!;
    for (let f = 0; f < nF; f++) covMean[f * nC + c]! += ctx.dists.mean[x.hDist[j]! * nF + f]!;
    if (x.covHits[c]! > 1) multi = true;
  }
  const rowsMode = s.terms !== null || s.oed !== null || multi;
  const K = s.K;
  for (let q = ctx.classes.locStart[cls]!; q < ctx.classes.locStart[cls + 1]!; q++) {
    const l = ctx.classes.locs[q]!;
    const tivAt = l * nC;
    const hit = x.hits++;
    x.hitLoc[hit] = l;
    // Analytical mean, always.
    let aLoss = 0;
    for (let c = 0; c < nC; c++) {
      const a = covMean[c]!;
      aLoss += covTiv[tivAt + c]! * (a < 1 ? a : 1);
    }
    x.evAnalytical += aLoss;
    acc.placeAnalytical[l]! += w * aLoss;

    if (s.S === 0) meanLocation(ctx, tivAt);
    else if (!rowsMode) {
      sampledSums(ctx, l, tivAt, w);
      continue;
    } else sampledRows(ctx, tivAt);
    if (ctx.oedLosses !== null) coverageLosses(ctx, l, tivAt);

    // Accumulate the K samples (or the one mean) of this location.
    let locSum: number;
    if (s.terms) {
      locSum = accumulateWithTerms(x.gRow, K, nF, s.order, x.pD, x.pL, x.evGU, x.sPIL, x.evPlace, s.order ? x.buf : null, hit * K, x.ilOut);
      x.hitIL[hit] = x.ilOut[0]!;
    } else {
      locSum = accumulate(x.gRow, K, nF, x.evGU);
    }
    acc.placeGroundUp[l]! += (w * locSum) / K;
  }
}

/**
 * A location's ground-up loss per coverage, sample and factor, handed to the OED terms: allocation
 * rule 1 as combineRows applies it (the perils of a coverage summed and capped at its value; a
 * factor scales each peril's damage ratio, capped at 1, before the sum), or the capped means with samples 0.
 */
function coverageLosses(ctx: GroundUpContext, l: number, tivAt: number): void {
  const { x, s, nC } = ctx;
  const o = ctx.oedLosses!;
  const items = o.hook.item;
  const covTiv = ctx.portfolio.covTiv;
  const nF = s.factors.length;
  for (let c = 0; c < nC; c++) {
    if (x.covHits[c] === 0) continue;
    const item = items[l * nC + c]!;
    if (item < 0) continue;
    const tiv = covTiv[tivAt + c]!;
    if (s.S === 0) {
      for (let f = 0; f < nF; f++) {
        const a = x.covMean[f * nC + c]!;
        o.add(f, 0, item, tiv * (a < 1 ? a : 1));
      }
      continue;
    }
    for (let f = 0; f < nF; f++) {
      const ff = s.F[f]!;
      for (let k = 0; k < s.K; k++) {
        let a = 0;
        for (let j = 0; j < x.nh; j++) {
          if (x.hCov[j] !== c) continue;
          const d = f === 0 ? x.rows[j * s.K + k]! : ff * x.rows[j * s.K + k]!;
          a += f === 0 || d < 1 ? d : 1;
        }
        o.add(f, k, item, tiv * (a < 1 ? a : 1));
      }
    }
  }
}

/** Samples 0: a location's loss per factor from the capped coverage means, split back to the perils. */
function meanLocation(ctx: GroundUpContext, tivAt: number): void {
  const { x, nC } = ctx;
  const nF = ctx.s.factors.length;
  const covTiv = ctx.portfolio.covTiv;
  for (let f = 0; f < nF; f++) {
    let gf = 0;
    for (let c = 0; c < nC; c++) {
      const a = x.covMean[f * nC + c]!;
      gf += covTiv[tivAt + c]! * (a < 1 ? a : 1);
    }
    x.gRow[f] = gf;
  }
  for (let j = 0; j < x.nh; j++) {
    const c = x.hCov[j]!;
    const a = x.covMean[c]!;
    x.evPC[x.hPeril[j]! * nC + c]! += covTiv[tivAt + c]! * ctx.dists.mean[x.hDist[j]! * nF]! * (a > 1 ? 1 / a : 1);
  }
}

/**
 * One item per coverage and no terms: only sums over the samples are needed. Per damage group with
 * items hit: Latin hypercube strata, ascending; then each item's CDF inverted along them.
 */
function sampledSums(ctx: GroundUpContext, l: number, tivAt: number, w: number): void {
  const { x, s, nC, dists } = ctx;
  const { K, F } = s;
  const { mode, from, to, width, binX } = ctx.bins;
  const { U, P, sums, evGU, evPC, hGroup, hCov, hDist, hPeril, groupHits, nh } = x;
  const nF = F.length;
  const covTiv = ctx.portfolio.covTiv;
  const byPrefix = K >= PREFIX_MIN_SAMPLES;
  let g0 = 0;
  for (let g = 0; g < ctx.classes.maxGroups; g++) {
    if (groupHits[g] === 0) continue;
    if (byPrefix) drawStrataWithPrefix(x.rng!, U, P, K);
    else drawStrata(x.rng!, U, K);
    // Drawn though unused here, so the order stream never depends on terms or peril mix.
    if (K > 1) shuffle(x.rngPerm!, x.perm, K);
    for (let j = 0; j < nh; j++) {
      if (hGroup[j] !== g) continue;
      const c = hCov[j]!;
      const tiv = covTiv[tivAt + c]!;
      if (byPrefix) sumByPrefix(U, P, K, dists, hDist[j]!, mode, from, to, width, binX, F, sums);
      else sweep(U, K, dists, hDist[j]!, mode, from, to, width, binX, F, sums, null, 0, null);
      g0 += tiv * sums[0]!;
      for (let f = 1; f < nF; f++) evGU[f]! += tiv * sums[f]!;
      evPC[hPeril[j]! * nC + c]! += tiv * sums[0]!;
    }
  }
  evGU[0]! += g0;
  ctx.acc.placeGroundUp[l]! += (w * g0) / K;
}

/**
 * Each sample's damage ratio per item, then allocation rule 1 per coverage into gRow. Rows are
 * written in sample order (stratum k of a group lands on sample perm[k]); groups are paired at
 * random when several are combined at the location.
 */
function sampledRows(ctx: GroundUpContext, tivAt: number): void {
  const { x, s, bins } = ctx;
  const { K, F } = s;
  const maxGroups = ctx.classes.maxGroups;
  let groupsHit = 0;
  for (let g = 0; g < maxGroups; g++) if (x.groupHits[g]! > 0) groupsHit++;
  const permute = K > 1 && (s.order || groupsHit > 1);
  for (let g = 0; g < maxGroups; g++) {
    if (x.groupHits[g] === 0) continue;
    drawStrata(x.rng!, x.U, K);
    if (K > 1) shuffle(x.rngPerm!, x.perm, K);
    for (let j = 0; j < x.nh; j++) {
      if (x.hGroup[j] === g) sweep(x.U, K, ctx.dists, x.hDist[j]!, bins.mode, bins.from, bins.to, bins.width, bins.binX, F, x.sums, x.rows, j * K, permute ? x.perm : null);
    }
  }
  combineRows(x.rows, K, x.nh, x.hCov, x.hPeril, x.covHits, ctx.nC, F, ctx.portfolio.covTiv, tivAt, x.gRow, x.evPC);
}

/**
 * The financial module's account terms and reinsurance per slot (per sample when pairing matters,
 * else on the sums), with the two conservation checks: of each slot's insured loss at the account
 * and reinsurance levels, and of the event's ground-up loss over every retention, cession and net.
 * A loss that is not a number fails them too (written !(gap <= tolerance) so NaN is caught).
 */
function accountAndReinsuranceOfEvent(ctx: GroundUpContext, e: number, eventId: number, w: number): Result<void> {
  const { x, s, acc } = ctx;
  const terms = s.terms!;
  const { K, slots, nLayers } = s;
  const nF = s.factors.length;
  const out = x.out;
  let eAD = 0;
  let eAA = 0;
  let eQS = 0;
  let eNet = 0;
  let eIL = 0;
  const eLayers = new Array<number>(nLayers).fill(0);
  for (let q = 0; q < slots; q++) {
    for (let f = 1; f < nF; f++) {
      accountAndReinsurance(x.sPIL[f * slots + q]!, terms, out);
      acc.insured![f]![e]! += out[2]! / K;
      acc.net![f]![e]! += out[4]! / K;
    }
    const pil = x.sPIL[q]!;
    accountAndReinsurance(pil, terms, out);
    eAD += out[0]!;
    eAA += out[1]!;
    eIL += out[2]!;
    eQS += out[3]!;
    eNet += out[4]!;
    let parts = out[0]! + out[1]! + out[3]! + out[4]!;
    for (let k = 0; k < nLayers; k++) {
      eLayers[k]! += out[5 + k]!;
      parts += out[5 + k]!;
    }
    const gap = Math.abs(pil - parts) / Math.max(1, pil);
    acc.checks++;
    if (gap > acc.maxGap) acc.maxGap = gap;
    if (!(gap <= CONSERVATION_TOLERANCE)) return refused(lossNotConserved(`Event ${eventId}: account terms and reinsurance do not conserve the insured loss (${pil} vs ${parts}).`));
    x.fS[q] = pil > 0 ? out[2]! / pil : 0;
    x.gS[q] = out[2]! > 0 ? out[4]! / out[2]! : 0;
  }
  acc.insured![0]![e] = eIL / K;
  acc.net![0]![e] = eNet / K;
  const gu = x.evGU[0]!;
  const parts = x.evPlace[0]! + x.evPlace[1]! + eAD + eAA + eQS + eNet + eLayers.reduce((a, v) => a + v, 0);
  const gap = Math.abs(gu - parts) / Math.max(1, gu);
  acc.checks++;
  if (gap > acc.maxGap) acc.maxGap = gap;
  if (!(gap <= CONSERVATION_TOLERANCE)) return refused(lossNotConserved(`Event ${eventId}: the terms do not conserve the ground-up loss (${gu} vs ${parts}).`));
  const t = acc.totals!;
  t.ground_up += (w * gu) / K;
  t.place_deductible += (w * x.evPlace[0]!) / K;
  t.place_above_limit += (w * x.evPlace[1]!) / K;
  t.account_deductible += (w * eAD) / K;
  t.account_above_limit += (w * eAA) / K;
  t.insured += (w * eIL) / K;
  t.ceded_quota_share += (w * eQS) / K;
  for (let k = 0; k < nLayers; k++) t.layers[k]! += (w * eLayers[k]!) / K;
  t.net += (w * eNet) / K;
  return DONE;
}

/**
 * Places' insured and net losses: the account and reinsurance outcome of each slot split back pro
 * rata to the places' insured losses in that slot.
 */
function placesInsuredAndNet(ctx: GroundUpContext, w: number): void {
  const { x, s, acc } = ctx;
  const { K, slots } = s;
  const placeIns = acc.placeInsured!;
  const placeNet = acc.placeNet!;
  if (s.order) {
    for (let h = 0; h < x.hits; h++) {
      const l = x.hitLoc[h]!;
      let a = 0;
      let b = 0;
      for (let q = 0; q < slots; q++) {
        const v = x.buf[h * K + q]! * x.fS[q]!;
        a += v;
        b += v * x.gS[q]!;
      }
      placeIns[l]! += (w * a) / K;
      placeNet[l]! += (w * b) / K;
    }
  } else {
    const f0 = x.fS[0]!;
    const g0 = x.gS[0]!;
    for (let h = 0; h < x.hits; h++) {
      const l = x.hitLoc[h]!;
      placeIns[l]! += (w * x.hitIL[h]! * f0) / K;
      placeNet[l]! += (w * x.hitIL[h]! * f0 * g0) / K;
    }
  }
}
