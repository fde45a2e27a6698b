// A composition of the four primitives, checked against the v1 vocabulary, and written as the
// structure terms the trigger designs read (termsOfComposition), so a composed model is replayed
// and priced by the same code as a structure. compositionOfTerms is the other direction: every
// built-in trigger design is a composition of the same primitives.

import { GATE_VARIABLE, type PerilCode } from '../triggers/vocabulary.js';
import type { FinancialStructure, PeriodTerms, StructureTerms } from '../triggers/terms.js';
import { payoutTerms, type PayoutFunction } from '../triggers/payout.js';
import {
  MEASUREMENT_IDS, PAYOUT_FUNCTIONS, PAYOUT_FUNCTION_IDS, TRANSFORMS, TRANSFORM_IDS, MEASUREMENTS, measurementOf, measurementOfVariable,
  type FeedKind,
} from './primitives.js';

type Obj = Record<string, unknown>;

/** The four primitives and their parameters, as POST /models carries them. */
export interface Composition {
  readonly feed: { readonly id: string; readonly version: string };
  readonly measurement: string;
  readonly transforms: readonly string[];
  readonly payout_function: string;
  /** Parameters of each primitive named, by its id. */
  readonly parameters: Readonly<Record<string, Obj>>;
}

/** Members of a model document besides the composition. */
export const MODEL_MEMBERS = ['name', 'version', 'description', 'feed', 'measurement', 'transforms', 'payout_function', 'parameters'] as const;

/** A pinned snapshot as the vocabulary check reads it. */
export interface PinnedFeed {
  readonly feed_id: string;
  readonly version: string;
  /** Its kind as the trigger checks class it (event_catalog, daily_series, ...). */
  readonly kind: string;
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The vocabulary check (422 invalid_composition): the four primitives present, each in the v1
 * vocabulary, the feed pinned and of a kind the measurement reads, each transform read by it.
 * Answers one sentence per fault; none when the composition is in vocabulary.
 */
export function vocabularyFaults(body: unknown, pinned: (feedId: string, version: string) => PinnedFeed | undefined): string[] {
  if (!isObj(body)) return ['the model document must be a JSON object naming feed, measurement, transforms and payout_function'];
  const faults: string[] = [];
  for (const k of ['feed', 'measurement', 'transforms', 'payout_function'] as const) {
    if (body[k] === undefined || body[k] === null) faults.push(`${k} is missing: a model is composed of a feed, a measurement, transforms ([] for none) and a payout function`);
  }
  const m = typeof body.measurement === 'string' ? measurementOf(body.measurement) : undefined;
  if (body.measurement !== undefined && body.measurement !== null && !m) {
    faults.push(`measurement ${JSON.stringify(body.measurement)} is not in the v1 vocabulary (one of ${MEASUREMENT_IDS.join(', ')})`);
  }
  if (body.payout_function !== undefined && body.payout_function !== null && !(typeof body.payout_function === 'string' && PAYOUT_FUNCTION_IDS.includes(body.payout_function))) {
    faults.push(`payout_function ${JSON.stringify(body.payout_function)} is not in the v1 vocabulary (one of ${PAYOUT_FUNCTION_IDS.join(', ')})`);
  }
  if (Array.isArray(body.transforms)) {
    body.transforms.forEach((t, i) => {
      const known = typeof t === 'string' ? TRANSFORMS.find((x) => x.id === t) : undefined;
      if (!known) faults.push(`transforms[${i}] ${JSON.stringify(t)} is not in the v1 vocabulary (one of ${TRANSFORM_IDS.join(', ')})`);
      else if (m && (m.excludes.includes(known.id) || !known.designs.includes(m.design))) faults.push(`transforms[${i}] ${known.id} is not read by the measurement ${m.id}`);
    });
    if (m) for (const r of m.requires) if (!body.transforms.includes(r)) faults.push(`the measurement ${m.id} needs the transform ${r}`);
  }
  const feed = body.feed;
  if (isObj(feed) && typeof feed.id === 'string' && typeof feed.version === 'string') {
    const found = pinned(feed.id, feed.version);
    if (!found) faults.push(`feed ${feed.id} version ${feed.version} is not a pinned snapshot (GET /primitives lists the feeds a model can read)`);
    else if (m && !m.feed_kinds.includes(found.kind as FeedKind)) {
      faults.push(`feed ${feed.id} is ${found.kind}; the measurement ${m.id} reads ${m.feed_kinds.join(' or ')}`);
    }
  }
  return faults;
}

/** The published model schema (schemas/model.v0.json), built from the vocabulary: one source. */
export function modelSchema(): Record<string, unknown> {
  const named = [...MEASUREMENTS, ...TRANSFORMS, ...PAYOUT_FUNCTIONS];
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://catrisk.dev/schemas/model.v0.json',
    title: 'A pricing model composed from the four primitives (POST /models)',
    type: 'object',
    additionalProperties: false,
    required: ['name', 'feed', 'measurement', 'transforms', 'payout_function', 'parameters'],
    properties: {
      name: { type: 'string', pattern: '^[a-z0-9][a-z0-9._-]{0,63}$', description: 'lowercase letters, digits, dot, dash, underscore' },
      version: { type: 'string', pattern: '^[0-9A-Za-z][0-9A-Za-z.+-]{0,31}$', description: 'default: one more than the highest whole-number version of the name' },
      description: { type: 'string', maxLength: 2000 },
      feed: {
        type: 'object', additionalProperties: false, required: ['id', 'version'],
        properties: { id: { type: 'string', minLength: 1 }, version: { type: 'string', minLength: 1 } },
      },
      measurement: { enum: MEASUREMENT_IDS },
      transforms: { type: 'array', uniqueItems: true, items: { enum: TRANSFORM_IDS } },
      payout_function: { enum: PAYOUT_FUNCTION_IDS },
      parameters: {
        type: 'object', additionalProperties: false,
        description: 'the parameters of each primitive named, under its id; a primitive with required parameters needs its entry',
        properties: Object.fromEntries(named.map((p) => [p.id, p.parameters])),
      },
    },
    allOf: named.filter((p) => ((p.parameters.required as string[] | undefined) ?? []).length > 0).map((p) => {
      const kind = MEASUREMENTS.includes(p as never) ? 'measurement' : TRANSFORMS.includes(p as never) ? 'transforms' : 'payout_function';
      const names = kind === 'transforms' ? { properties: { transforms: { contains: { const: p.id } } }, required: ['transforms'] } : { properties: { [kind]: { const: p.id } }, required: [kind] };
      return { if: names, then: { required: ['parameters'], properties: { parameters: { required: [p.id], properties: { [p.id]: { description: 'Its parameters, as properties.parameters defines them.' } } } } } };
    }),
  };
}

/** Reads a composition out of a document that passed the vocabulary check and the schema. */
export function compositionOf(body: Obj): Composition {
  const feed = body.feed as { id: string; version: string };
  const names = [body.measurement as string, ...(body.transforms as string[]), body.payout_function as string];
  const params = (body.parameters ?? {}) as Record<string, Obj>;
  return {
    feed: { id: feed.id, version: feed.version },
    measurement: body.measurement as string,
    transforms: [...(body.transforms as string[])],
    payout_function: body.payout_function as string,
    // Only the named primitives' parameters are part of the model.
    parameters: Object.fromEntries(names.filter((n) => params[n] !== undefined).map((n) => [n, params[n]!])),
  };
}

/** The parameters named for primitives the composition does not use (they would be ignored, so they are refused). */
export function strayParameters(body: Obj): string[] {
  const names = new Set([body.measurement, ...(Array.isArray(body.transforms) ? body.transforms : []), body.payout_function]);
  return isObj(body.parameters) ? Object.keys(body.parameters).filter((k) => !names.has(k)).map((k) => `parameters.${k} names a primitive the composition does not use`) : [];
}

/** The peril a composition's structures are written for. */
export function perilOf(c: Composition): PerilCode {
  const m = measurementOf(c.measurement)!;
  const p = c.parameters[c.measurement] ?? {};
  if (m.id === 'daily_series_value') return (p.peril as PerilCode | undefined) ?? (p.variable === 'discharge' ? 'flood' : 'weather_station');
  return m.perils[0]!;
}

/** A year in which any month-day is a date (29 February too): a term's year does not change its replay. */
export const REFERENCE_YEAR = 2000;

/** The seasonal term written as a period whose start falls in `year`. */
export function seasonalPeriod(term: { start: string; end: string }, year: number): PeriodTerms {
  return { start: `${year}-${term.start}`, end: `${term.end < term.start ? year + 1 : year}-${term.end}` };
}

/** What a run supplies: the financial structure and the period (both from the object or the request). */
export interface RunTerms {
  readonly financial_structure: FinancialStructure;
  /** Without a seasonal term in the model, the term replayed; with one, only its year is read. */
  readonly period: PeriodTerms | null;
}

/**
 * The structure terms a composition writes for a run: the trigger from the measurement, transforms
 * and payout function; the financial structure from the run, its annual limit the payout
 * function's annual_cap × limit unless the run states one; the period the seasonal term (in the
 * year the run's period starts) or else the run's period. Null period: the run has none to give.
 */
export function termsOfComposition(c: Composition, run: RunTerms): StructureTerms | null {
  const m = measurementOf(c.measurement)!;
  const mp = c.parameters[c.measurement] ?? {};
  const has = (t: string) => c.transforms.includes(t);
  const unit = has('unit_conversion') ? (c.parameters.unit_conversion!.unit as string) : undefined;
  const basis = has('annual_aggregation') ? (c.parameters.annual_aggregation!.basis as string) : undefined;
  const pf = c.parameters[c.payout_function] ?? {};
  // The payout function's parameters are the trigger's payout members, less annual_cap (a financial term).
  const { annual_cap: _cap, ...members } = pf;
  const payout = { function: c.payout_function, ...members, ...(basis ? { basis } : {}) } as unknown as PayoutFunction;
  const source = { feed_id: c.feed.id, version: c.feed.version };
  const code = perilOf(c);
  let trigger: StructureTerms['trigger'];
  let region: unknown;
  if (m.design === 'cat_in_a_box') {
    const variable = m.id === 'magnitude_in_box' ? 'magnitude' : m.id === 'burned_acres_in_box' ? 'burned_acres' : mp.variable as string;
    region = mp.region;
    trigger = {
      type: 'parametric_cat_in_a_box', data_sources: [source],
      measurement: { variable, ...(mp.max_depth_km !== undefined ? { max_depth_km: mp.max_depth_km } : {}), ...(unit ? { unit } : {}) } as never,
      aggregation_window: { duration: c.parameters.occurrence_clustering!.window as string }, payout,
    };
  } else if (m.design === 'track_gate') {
    region = mp.region;
    trigger = { type: 'parametric_index', data_sources: [source], measurement: { variable: GATE_VARIABLE, ...(unit ? { unit } : {}) }, payout };
  } else {
    const variable = m.id === 'county_customers_out' ? 'customers_out' : mp.variable as string;
    trigger = {
      type: 'parametric_index', data_sources: [source],
      measurement: { variable, aggregation: mp.aggregation, ...(unit ? { unit } : {}), ...(mp.element !== undefined ? { element: mp.element } : {}) } as never,
      aggregation_window: { duration: mp.window as string }, payout,
    };
  }
  let period: PeriodTerms | null = run.period;
  if (has('seasonal_term')) {
    const year = run.period && /^\d{4}-/.test(run.period.start) ? Number(run.period.start.slice(0, 4)) : REFERENCE_YEAR;
    period = seasonalPeriod(c.parameters.seasonal_term as { start: string; end: string }, year);
  }
  if (period === null) return null;
  const cap = pf.annual_cap as number | undefined;
  const fin = run.financial_structure;
  const financial = fin.annual_limit === undefined && cap !== undefined && typeof fin.limit === 'number' ? { ...fin, annual_limit: cap * fin.limit } : fin;
  return { peril: { code, ...(region !== undefined ? { region: region as never } : {}) }, trigger, financial_structure: financial, period };
}

/**
 * A structure's trigger as a composition of the same primitives (the built-in designs are
 * compositions): the measurement its design and variable select, the transforms its members
 * fill, its payout function. The period becomes a seasonal term; the financial structure stays
 * with the run (annual_limit as the payout function's annual_cap).
 */
export function compositionOfTerms(terms: StructureTerms): Composition {
  const t = terms.trigger;
  const m = t.measurement as unknown as Obj;
  const design = t.type === 'parametric_cat_in_a_box' ? 'cat_in_a_box' : m.variable === GATE_VARIABLE ? 'track_gate' : 'index_series';
  const measurement = measurementOfVariable(design, m.variable as string)!;
  const region = terms.peril.region;
  const mp: Obj = measurement.id === 'magnitude_in_box' ? { region, ...(m.max_depth_km !== undefined ? { max_depth_km: m.max_depth_km } : {}) }
    : measurement.id === 'burned_acres_in_box' || measurement.id === 'strongest_wind_in_gate' ? { region }
      : measurement.id === 'report_value_in_box' ? { region, variable: m.variable }
        : measurement.id === 'county_customers_out' ? { aggregation: m.aggregation, window: t.aggregation_window!.duration }
          : { variable: m.variable, aggregation: m.aggregation, window: t.aggregation_window!.duration, peril: terms.peril.code, ...(m.element !== undefined ? { element: m.element } : {}) };
  const transforms: string[] = [];
  const parameters: Record<string, Obj> = { [measurement.id]: mp };
  if (design === 'cat_in_a_box') {
    transforms.push('occurrence_clustering');
    parameters.occurrence_clustering = { window: t.aggregation_window!.duration };
  }
  transforms.push('seasonal_term');
  parameters.seasonal_term = { start: terms.period.start.slice(5), end: terms.period.end.slice(5) };
  if (t.payout.basis !== undefined) {
    transforms.push('annual_aggregation');
    parameters.annual_aggregation = { basis: t.payout.basis };
  }
  if (m.unit !== undefined) {
    transforms.push('unit_conversion');
    parameters.unit_conversion = { unit: m.unit };
  }
  transforms.push('data_quality_exclusion');
  parameters.data_quality_exclusion = { rule: 'publisher_flags_and_physical_bounds', max_missing_share: 0.1 };
  const cap = terms.financial_structure.annual_limit;
  const capMultiple = typeof cap === 'number' ? { annual_cap: cap / terms.financial_structure.limit } : {};
  const { function: fn, basis: _basis, ...members } = payoutTerms(t.payout);
  parameters[fn as string] = { ...members, ...capMultiple };
  const source = t.data_sources[0]!;
  return { feed: { id: source.feed_id, version: source.version ?? '' }, measurement: measurement.id, transforms, payout_function: t.payout.function, parameters };
}
