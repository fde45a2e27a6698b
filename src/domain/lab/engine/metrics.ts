// lab-metrics/1: the metrics block every lab lane publishes, computed from an event loss table (one
// loss per event), the occurrences of the events in periods, and the number of periods.
//
// Conventions (DOMAIN, Lab conventions and Exceedance metrics; ORD output conventions):
//   - Period (year) losses: AEP uses each period's sum of event losses, OEP each period's largest
//     event loss; periods without an event are zero and count.
//   - AAL = Σ period losses / N (N periods); standard deviation of the N period losses with the
//     n - 1 denominator; standard error = sd / √N.
//   - Loss at return period T: with the period losses sorted from the largest, L(1) >= ... >= L(N),
//     and r = N / T, the loss exceeded (at or above) with annual probability 1/T is L(r) when r is
//     a whole number, else L(⌊r⌋) + (r - ⌊r⌋)·(L(⌊r⌋+1) - L(⌊r⌋)) (linear in rank).
//     TVaR_T is the mean of the losses at or above it: (Σ_{i<=⌊r⌋} L(i) + (r - ⌊r⌋)·L(⌊r⌋+1)) / r.
//   - Publication rule: T is published only when N >= 10·T; other requested periods are listed as
//     withheld with the number of periods they would need.
//   - Spread across blocks: the periods 1..N cut into whole 1,000-period blocks (periods
//     (b-1)·1000+1 .. b·1000); the AAL of each block, and their minimum, maximum and mean. Periods
//     beyond the last whole block are left out of the blocks (said in a warning); with no whole
//     block the spread is null.
//   - Per-place shares: each place's AAL (its losses summed over all occurrences / N) and its share
//     of the sum of the places' AALs.
//   - Figures are computed in full double precision in the unit of the values; the stored and
//     published result rounds them to the currency's minor unit (publication.ts).

import { LAB_METRICS_SCHEMA } from '../../../kernel/versions.js';

export const DEFAULT_RETURN_PERIODS = [2, 5, 10, 25, 50, 100, 200, 250, 500, 1000] as const;
export const DEFAULT_BLOCK_YEARS = 1000;
export const DEFAULT_LARGEST_EVENTS = 10;
export const PUBLICATION_MULTIPLE = 10;

export interface EventLoss {
  event_id: number;
  loss: number;
}

export interface Occurrence {
  event_id: number;
  period: number;
  /** When in its period the event occurs, as the lane's occurrence table states it (ktools occurrence_lt: occ_year, occ_month, occ_day, and occ_hour, occ_minute when granular). */
  date?: OccurrenceDate;
}

export interface OccurrenceDate {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** One occurrence of an event with a loss: the rows of ORD's period loss tables (MPLT, SPLT, QPLT). */
export interface OccurrenceRow {
  period: number;
  event_id: number;
  /** Null when the lane places events in periods without a date inside the period. */
  date: OccurrenceDate | null;
}

export interface PlaceLoss {
  index: number;
  /** The place's losses summed over every occurrence of every event. */
  loss: number;
}

export interface ReturnPeriodLoss {
  return_period: number;
  loss: number;
  tvar: number;
}

export interface AalFigures {
  mean: number;
  standard_deviation: number | null;
  standard_error: number | null;
}

export interface CompactMetrics {
  average_annual_loss: AalFigures;
  oep: ReturnPeriodLoss[];
  aep: ReturnPeriodLoss[];
}

export interface SensitivityVariant extends CompactMetrics {
  label: string;
  factor: number;
  /** (variant AAL - base AAL) / base AAL; null when the base AAL is 0. */
  aal_change: number | null;
}

export interface SensitivityBlock {
  method: string;
  base_aal: number;
  variants: SensitivityVariant[];
}

export interface LabMetrics {
  schema: typeof LAB_METRICS_SCHEMA;
  perspective: string;
  loss_basis: string;
  periods: number;
  events_with_loss: number;
  average_annual_loss: AalFigures;
  exceedance: {
    rule: string;
    max_published_return_period: number;
    oep: ReturnPeriodLoss[];
    aep: ReturnPeriodLoss[];
    withheld: { return_period: number; periods_needed: number }[];
  };
  blocks: {
    block_years: number;
    count: number;
    aal_by_block: { block: number; first_period: number; last_period: number; aal: number }[];
    min: number;
    max: number;
    mean: number;
  } | null;
  places: { index: number; aal: number; share: number }[];
  largest_events: { event_id: number; loss: number; occurrences: number }[];
  elt: { event_id: number; loss: number; occurrences: number }[];
  ylt: { period: number; loss: number; max_event_loss: number; events: number }[];
  /** Every occurrence of an event with a loss, by period then event (absent from runs made before it was kept). */
  occurrences?: OccurrenceRow[];
  sensitivity: SensitivityBlock | null;
  assumptions: string[];
  warnings: string[];
}

export interface MetricsInput {
  perspective: string;
  lossBasis: string;
  periods: number;
  eventLosses: readonly EventLoss[];
  occurrences: readonly Occurrence[];
  places?: readonly PlaceLoss[];
  returnPeriods?: readonly number[];
  blockYears?: number;
  largestEvents?: number;
  sensitivity?: SensitivityBlock | null;
  assumptions?: readonly string[];
  warnings?: readonly string[];
}

/** Per period: the sum and the largest of its event losses (index p - 1 for period p). */
export function periodLosses(periods: number, eventLosses: readonly EventLoss[], occurrences: readonly Occurrence[]):
  { aggregate: Float64Array; maximum: Float64Array; events: Int32Array; occurrencesByEvent: Map<number, number> } {
  if (!Number.isInteger(periods) || periods < 1) throw new RangeError(`periods must be a positive integer, got ${periods}`);
  const loss = new Map<number, number>();
  for (const e of eventLosses) {
    if (!Number.isFinite(e.loss) || e.loss < 0) throw new RangeError(`event ${e.event_id} loss ${e.loss} is not a non-negative finite number`);
    if (loss.has(e.event_id)) throw new RangeError(`event ${e.event_id} appears twice in the event loss table`);
    loss.set(e.event_id, e.loss);
  }
  const aggregate = new Float64Array(periods);
  const maximum = new Float64Array(periods);
  const events = new Int32Array(periods);
  const occurrencesByEvent = new Map<number, number>();
  for (const o of occurrences) {
    if (!Number.isInteger(o.period) || o.period < 1 || o.period > periods) {
      throw new RangeError(`occurrence of event ${o.event_id} in period ${o.period}, outside 1..${periods}`);
    }
    const l = loss.get(o.event_id);
    if (l === undefined) continue;
    occurrencesByEvent.set(o.event_id, (occurrencesByEvent.get(o.event_id) ?? 0) + 1);
    const p = o.period - 1;
    aggregate[p]! += l;
    if (l > maximum[p]!) maximum[p] = l;
    if (l > 0) events[p]! += 1;
  }
  return { aggregate, maximum, events, occurrencesByEvent };
}

/** AAL, standard deviation (n - 1) and standard error of the period losses. */
export function aalFigures(values: ArrayLike<number>): AalFigures {
  const n = values.length;
  let s = 0;
  for (let i = 0; i < n; i++) s += values[i]!;
  const mean = s / n;
  if (n < 2) return { mean, standard_deviation: null, standard_error: null };
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const d = values[i]! - mean;
    ss += d * d;
  }
  const sd = Math.sqrt(ss / (n - 1));
  return { mean, standard_deviation: sd, standard_error: sd / Math.sqrt(n) };
}

/** Loss and TVaR at return period T from period losses sorted from the largest (see header). */
export function lossAtReturnPeriod(sortedDescending: ArrayLike<number>, returnPeriod: number): { loss: number; tvar: number } {
  const n = sortedDescending.length;
  const r = n / returnPeriod;
  if (!(r >= 1)) throw new RangeError(`return period ${returnPeriod} exceeds the ${n} periods`);
  const i = Math.floor(r);
  const frac = r - i;
  let head = 0;
  for (let k = 0; k < i; k++) head += sortedDescending[k]!;
  const li = sortedDescending[i - 1]!;
  if (frac === 0 || i >= n) return { loss: li, tvar: head / i };
  const next = sortedDescending[i]!;
  return { loss: li + frac * (next - li), tvar: (head + frac * next) / r };
}

function sortedDesc(values: Float64Array): Float64Array {
  const c = Float64Array.from(values);
  c.sort();
  c.reverse();
  return c;
}

/** Which requested return periods the sample supports ten times over (N >= 10·T). */
export function publishable(periods: number, returnPeriods: readonly number[]): { published: number[]; withheld: { return_period: number; periods_needed: number }[] } {
  const published: number[] = [];
  const withheld: { return_period: number; periods_needed: number }[] = [];
  for (const t of [...new Set(returnPeriods)].sort((a, b) => a - b)) {
    if (!(t >= 1) || !Number.isFinite(t)) throw new RangeError(`return period ${t} must be at least 1`);
    if (periods >= PUBLICATION_MULTIPLE * t) published.push(t);
    else withheld.push({ return_period: t, periods_needed: Math.ceil(PUBLICATION_MULTIPLE * t) });
  }
  return { published, withheld };
}

/** AAL and the OEP/AEP curves at the publishable return periods (used by the sensitivity too). */
export function compactMetrics(periods: number, eventLosses: readonly EventLoss[], occurrences: readonly Occurrence[],
  returnPeriods: readonly number[] = DEFAULT_RETURN_PERIODS): CompactMetrics {
  const pl = periodLosses(periods, eventLosses, occurrences);
  const { published } = publishable(periods, returnPeriods);
  const agg = sortedDesc(pl.aggregate);
  const max = sortedDesc(pl.maximum);
  return {
    average_annual_loss: aalFigures(pl.aggregate),
    oep: published.map((t) => ({ return_period: t, ...lossAtReturnPeriod(max, t) })),
    aep: published.map((t) => ({ return_period: t, ...lossAtReturnPeriod(agg, t) })),
  };
}

/** The AAL of every whole block of blockYears periods, and their spread; null with no whole block. */
export function blockSpread(aggregate: Float64Array, blockYears = DEFAULT_BLOCK_YEARS): LabMetrics['blocks'] {
  const count = Math.floor(aggregate.length / blockYears);
  if (count < 1) return null;
  const aalByBlock: { block: number; first_period: number; last_period: number; aal: number }[] = [];
  for (let b = 0; b < count; b++) {
    let s = 0;
    for (let p = b * blockYears; p < (b + 1) * blockYears; p++) s += aggregate[p]!;
    aalByBlock.push({ block: b + 1, first_period: b * blockYears + 1, last_period: (b + 1) * blockYears, aal: s / blockYears });
  }
  const aals = aalByBlock.map((x) => x.aal);
  return {
    block_years: blockYears,
    count,
    aal_by_block: aalByBlock,
    min: Math.min(...aals),
    max: Math.max(...aals),
    mean: aals.reduce((s, x) => s + x, 0) / count,
  };
}

export const METRICS_ASSUMPTIONS: readonly string[] = [
  'Period losses: AEP sums the event losses of each period, OEP takes its largest; periods without events count as zero.',
  'AAL is the sum of period losses over the number of periods; standard deviation uses the n - 1 denominator; standard error is sd / sqrt(n).',
  'The loss at return period T is the period loss of rank r = N/T from the largest (linear between ranks when r is fractional); TVaR is the mean of the losses at or above it (the fractional rank weighted).',
  'A return period T is published only when the sample holds at least 10·T periods.',
  'Block spread: AAL of each whole 1,000-period block (periods 1-1000, 1001-2000, ...).',
  'Places are numbered by their position in the submitted exposure (0-based); shares are of the sum of the places\' AALs.',
  'ELT lists events with a loss above zero and their occurrence counts; YLT lists periods with a loss above zero (the others are zero); occurrences lists each occurrence of an event with a loss, with its date in the period when the occurrence table gives one.',
];

/** Computes the lab-metrics/1 block. */
export function computeMetrics(input: MetricsInput): LabMetrics {
  const periods = input.periods;
  const rps = input.returnPeriods ?? DEFAULT_RETURN_PERIODS;
  const blockYears = input.blockYears ?? DEFAULT_BLOCK_YEARS;
  const pl = periodLosses(periods, input.eventLosses, input.occurrences);
  const warnings = [...(input.warnings ?? [])];
  const { published, withheld } = publishable(periods, rps);
  const agg = sortedDesc(pl.aggregate);
  const max = sortedDesc(pl.maximum);
  const aal = aalFigures(pl.aggregate);
  if (withheld.length > 0) {
    warnings.push(`Return periods ${withheld.map((w) => w.return_period).join(', ')} are withheld: ${periods} periods support return periods up to ${periods / PUBLICATION_MULTIPLE} ten times over.`);
  }
  const blocks = blockSpread(pl.aggregate, blockYears);
  if (blocks === null) warnings.push(`The ${periods} periods hold no whole ${blockYears}-period block: no block spread.`);
  else {
    if (blocks.count === 1) warnings.push(`The ${periods} periods hold one ${blockYears}-period block: the block spread shows no variation between blocks.`);
    if (periods % blockYears !== 0) warnings.push(`Periods ${blocks.count * blockYears + 1} to ${periods} lie beyond the last whole block and are left out of the block spread.`);
  }
  const unoccurring = input.eventLosses.filter((e) => e.loss > 0 && !pl.occurrencesByEvent.has(e.event_id)).length;
  if (unoccurring > 0) warnings.push(`${unoccurring} event(s) with a loss never occur in the occurrence table and add nothing to the annual figures.`);

  const places = (input.places ?? []).map((p) => ({ index: p.index, aal: p.loss / periods, share: 0 }));
  const placeTotal = places.reduce((s, p) => s + p.aal, 0);
  for (const p of places) p.share = placeTotal > 0 ? p.aal / placeTotal : 0;

  const elt = input.eventLosses
    .filter((e) => e.loss > 0)
    .map((e) => ({ event_id: e.event_id, loss: e.loss, occurrences: pl.occurrencesByEvent.get(e.event_id) ?? 0 }))
    .sort((a, b) => a.event_id - b.event_id);
  const largest = [...elt].sort((a, b) => b.loss - a.loss || a.event_id - b.event_id).slice(0, input.largestEvents ?? DEFAULT_LARGEST_EVENTS);
  const ylt: LabMetrics['ylt'] = [];
  for (let p = 0; p < periods; p++) {
    if (pl.aggregate[p]! > 0) ylt.push({ period: p + 1, loss: pl.aggregate[p]!, max_event_loss: pl.maximum[p]!, events: pl.events[p]! });
  }
  const withLoss = new Set(elt.map((e) => e.event_id));
  const occurrences: OccurrenceRow[] = input.occurrences
    .filter((o) => withLoss.has(o.event_id))
    .map((o) => ({ period: o.period, event_id: o.event_id, date: o.date ?? null }))
    .sort((a, b) => a.period - b.period || a.event_id - b.event_id);

  return {
    schema: LAB_METRICS_SCHEMA,
    perspective: input.perspective,
    loss_basis: input.lossBasis,
    periods,
    events_with_loss: elt.length,
    average_annual_loss: aal,
    exceedance: {
      rule: `a return period T is published only when the sample holds at least ${PUBLICATION_MULTIPLE}·T periods`,
      max_published_return_period: periods / PUBLICATION_MULTIPLE,
      oep: published.map((t) => ({ return_period: t, ...lossAtReturnPeriod(max, t) })),
      aep: published.map((t) => ({ return_period: t, ...lossAtReturnPeriod(agg, t) })),
      withheld,
    },
    blocks,
    places,
    largest_events: largest,
    elt,
    ylt,
    occurrences,
    sensitivity: input.sensitivity ?? null,
    assumptions: [...METRICS_ASSUMPTIONS, ...(input.assumptions ?? [])],
    warnings,
  };
}

const num = { type: 'number' } as const;
const nonNeg = { type: 'number', minimum: 0 } as const;
const nullableNonNeg = { type: ['number', 'null'], minimum: 0 } as const;
const intMin1 = { type: 'integer', minimum: 1 } as const;
const rpLoss = {
  type: 'object',
  additionalProperties: false,
  required: ['return_period', 'loss', 'tvar'],
  properties: { return_period: { type: 'number', minimum: 1 }, loss: nonNeg, tvar: nonNeg },
} as const;
const aalSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['mean', 'standard_deviation', 'standard_error'],
  properties: { mean: nonNeg, standard_deviation: nullableNonNeg, standard_error: nullableNonNeg },
} as const;

/** JSON Schema (draft 2020-12) of a lab-metrics/1 block. */
export const metricsSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'lab-metrics.v1.json',
  title: LAB_METRICS_SCHEMA,
  description: 'Metrics block of the model lab: average annual loss, occurrence and aggregate exceedance with TVaR (published only for return periods the sample supports ten times over), spread across 1,000-period blocks, per-place shares, largest events, event and year loss tables, a damage-curve sensitivity, assumptions and warnings. Amounts are in the exposure\'s currency (the result\'s currency member; null when the points named none), rounded to its minor unit after every figure is computed from the exact values.',
  type: 'object',
  additionalProperties: false,
  required: ['schema', 'perspective', 'loss_basis', 'periods', 'events_with_loss', 'average_annual_loss', 'exceedance', 'blocks', 'places',
    'largest_events', 'elt', 'ylt', 'sensitivity', 'assumptions', 'warnings'],
  properties: {
    schema: { const: LAB_METRICS_SCHEMA },
    perspective: { type: 'string', description: 'ground_up, insured or net (or a lane\'s own perspective name)' },
    loss_basis: { type: 'string', description: 'what one event loss is (e.g. analytical mean damage, mean over samples)' },
    periods: intMin1,
    events_with_loss: { type: 'integer', minimum: 0 },
    average_annual_loss: aalSchema,
    exceedance: {
      type: 'object',
      additionalProperties: false,
      required: ['rule', 'max_published_return_period', 'oep', 'aep', 'withheld'],
      properties: {
        rule: { type: 'string' },
        max_published_return_period: { type: 'number', minimum: 0 },
        oep: { type: 'array', items: rpLoss },
        aep: { type: 'array', items: rpLoss },
        withheld: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['return_period', 'periods_needed'],
            properties: { return_period: { type: 'number', minimum: 1 }, periods_needed: { type: 'integer', minimum: 1 } },
          },
        },
      },
    },
    blocks: {
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          additionalProperties: false,
          required: ['block_years', 'count', 'aal_by_block', 'min', 'max', 'mean'],
          properties: {
            block_years: intMin1,
            count: intMin1,
            aal_by_block: {
              type: 'array',
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['block', 'first_period', 'last_period', 'aal'],
                properties: { block: intMin1, first_period: intMin1, last_period: intMin1, aal: nonNeg },
              },
            },
            min: nonNeg,
            max: nonNeg,
            mean: nonNeg,
          },
        },
      ],
    },
    places: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['index', 'aal', 'share'],
        properties: { index: { type: 'integer', minimum: 0 }, aal: nonNeg, share: { type: 'number', minimum: 0, maximum: 1 } },
      },
    },
    largest_events: { $ref: '#/$defs/eventRows' },
    elt: { $ref: '#/$defs/eventRows' },
    ylt: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['period', 'loss', 'max_event_loss', 'events'],
        properties: { period: intMin1, loss: nonNeg, max_event_loss: nonNeg, events: { type: 'integer', minimum: 0 } },
      },
    },
    occurrences: {
      description: 'Every occurrence of an event with a loss, by period then event: the rows of ORD\'s period loss tables. date is when in its period the event occurs, as the occurrence table states it; null when the lane places events in periods without a date.',
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['period', 'event_id', 'date'],
        properties: {
          period: intMin1,
          event_id: { type: 'integer' },
          date: {
            oneOf: [
              { type: 'null' },
              {
                type: 'object',
                additionalProperties: false,
                required: ['year', 'month', 'day', 'hour', 'minute'],
                properties: {
                  year: { type: 'integer' },
                  month: { type: 'integer', minimum: 1, maximum: 12 },
                  day: { type: 'integer', minimum: 1, maximum: 31 },
                  hour: { type: 'integer', minimum: 0, maximum: 23 },
                  minute: { type: 'integer', minimum: 0, maximum: 59 },
                },
              },
            ],
          },
        },
      },
    },
    sensitivity: {
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          additionalProperties: false,
          required: ['method', 'base_aal', 'variants'],
          properties: {
            method: { type: 'string' },
            base_aal: nonNeg,
            variants: {
              type: 'array',
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['label', 'factor', 'average_annual_loss', 'aal_change', 'oep', 'aep'],
                properties: {
                  label: { type: 'string' },
                  factor: num,
                  average_annual_loss: aalSchema,
                  aal_change: { type: ['number', 'null'] },
                  oep: { type: 'array', items: rpLoss },
                  aep: { type: 'array', items: rpLoss },
                },
              },
            },
          },
        },
      ],
    },
    assumptions: { type: 'array', items: { type: 'string' } },
    warnings: { type: 'array', items: { type: 'string' } },
  },
  $defs: {
    eventRows: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['event_id', 'loss', 'occurrences'],
        properties: { event_id: { type: 'integer' }, loss: nonNeg, occurrences: { type: 'integer', minimum: 0 } },
      },
    },
  },
} as const;
