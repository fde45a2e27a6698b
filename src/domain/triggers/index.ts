// Structure terms read once into a typed Structure, and checked against a pinned feed: the shared
// checks here and in read.ts, the design-specific ones in the module of the design the trigger type
// and variable select (cat-in-a-box.ts, index-series.ts, track-gate.ts), dispatched from DESIGNS.
// Faults are named in faults.ts and answered per verb by faultAnswer.

import type { Gate } from '../tracks/gate.js';
import { CAT_IN_A_BOX } from './cat-in-a-box.js';
import { FEED_PATH, type TriggerDesign } from './design.js';
import { classOf, kindWords, recordYears, type FeedClass, type FeedContext } from './feed.js';
import { Faults, type StructureValidation } from './faults.js';
import { INDEX_SERIES, seriesElement } from './index-series.js';
import type { PayoutBasis, PayoutFunction } from './payout.js';
import {
  checkMembers, checkWindow, isNum, isObj, readBlock, readFinancial, readPayout, readPeriod, readRegion, readUnit, show,
  type BacktestWindow,
} from './read.js';
import type { TermRule } from './term.js';
import type { NormalizedMeasurement, Region, Structure } from './terms.js';
import { TRACK_GATE } from './track-gate.js';
import { readStateMembers, STATE_EVENT } from './state-event.js';
import {
  DESIGN_OF_VARIABLE, PERIL_CODES, PERIL_MODELS, PRICED_PERILS, TRIGGER_TYPES, UNITS_BY_VARIABLE, type Design, type PerilCode,
  type SeriesAggregation, type TriggerType,
} from './vocabulary.js';

/** The state design's members on a normalised measurement; none on any other variable. */
function stateMembersOf(variable: string, m: ReturnType<typeof readStateMembers>): Partial<NormalizedMeasurement> {
  return DESIGN_OF_VARIABLE.parametric_index[variable] === 'state_event' ? m : {};
}

/** Each design's module, by the name the vocabulary selects. */
export const DESIGNS: Readonly<Record<Design, TriggerDesign>> = {
  cat_in_a_box: CAT_IN_A_BOX,
  index_series: INDEX_SERIES,
  track_gate: TRACK_GATE,
  state_event: STATE_EVENT,
};

export interface ValidationContext {
  /**
   * The pinned snapshot the trigger names: undefined = shape checks only (the POST); null = the
   * feed or vintage is not pinned (a data fault); an object = data checks against its manifest.
   */
  readonly feed?: FeedContext | null;
  /** The backtest request's window, checked against the period of record. */
  readonly window?: BacktestWindow | null;
}

// ---------------------------------------------------------------------------------------------
// Shape

function readShape(f: Faults, input: unknown): Structure | null {
  if (!isObj(input)) {
    f.add('terms_not_object', '', `the structure terms must be an object with peril, trigger, financial_structure and period, got ${show(input)}`);
    return null;
  }
  const peril = readBlock(f, input, 'peril');
  const trigger = readBlock(f, input, 'trigger');
  const fin = readBlock(f, input, 'financial_structure');
  const period = readBlock(f, input, 'period');

  // period (read first: a daily index's window is checked against the term's length)
  const term: TermRule | null = period ? readPeriod(f, period) : null;

  // peril
  let code: PerilCode | null = null;
  if (peril) {
    if (peril.code === undefined || peril.code === null) f.add('peril_code_missing', 'peril.code', 'peril.code is missing: a structure is written for one peril');
    else if (!PERIL_CODES.includes(peril.code as PerilCode)) {
      f.add('peril_code_unknown', 'peril.code', `peril.code ${show(peril.code)} is not in the peril vocabulary (${PERIL_CODES.join(', ')})`);
    } else code = peril.code as PerilCode;
  }

  // trigger
  let triggerType: TriggerType | null = null;
  let design: TriggerDesign | null = null;
  let measurement: NormalizedMeasurement | null = null;
  let sources: { feed_id: string; version: string | null }[] | null = null;
  let windowMs: { duration: string; ms: number } | null = null;
  let payout: (PayoutFunction & { basis: PayoutBasis }) | null = null;
  if (trigger) {
    checkMembers(f, trigger, 'trigger', ['type', 'data_sources', 'measurement', 'aggregation_window', 'payout']);
    if (trigger.type === undefined || trigger.type === null) {
      f.add('trigger_type_missing', 'trigger.type', `trigger.type is missing (one of ${TRIGGER_TYPES.join(', ')})`);
    } else if (!TRIGGER_TYPES.includes(trigger.type as TriggerType)) {
      f.add('trigger_type_unknown', 'trigger.type', `trigger.type ${show(trigger.type)} is not one of ${TRIGGER_TYPES.join(', ')}`);
    } else triggerType = trigger.type as TriggerType;

    // data_sources
    const ds = trigger.data_sources;
    if (!Array.isArray(ds) || ds.length === 0) {
      f.add('data_sources_missing', 'trigger.data_sources', 'trigger.data_sources must list the pinned feed read: [{feed_id, version}]');
    } else {
      const before = f.count;
      const read: { feed_id: string; version: string | null }[] = [];
      ds.forEach((s: unknown, i) => {
        const p = `trigger.data_sources[${i}]`;
        if (!isObj(s)) return f.add('data_source_invalid', p, `${p} must be an object {feed_id, version}, got ${show(s)}`);
        checkMembers(f, s, p, ['feed_id', 'version']);
        if (typeof s.feed_id !== 'string' || s.feed_id.trim() === '') f.add('data_source_invalid', `${p}.feed_id`, `${p}.feed_id must be a non-empty string`);
        if (s.version !== undefined && s.version !== null && (typeof s.version !== 'string' || s.version.trim() === '')) {
          f.add('data_source_invalid', `${p}.version`, `${p}.version must be a non-empty string (the pinned vintage)`);
        }
        read.push({ feed_id: String(s.feed_id), version: typeof s.version === 'string' ? s.version : null });
      });
      if (f.count === before) sources = read;
    }

    // measurement: the variable selects the design
    const m = trigger.measurement;
    if (!isObj(m)) {
      f.add('measurement_missing', 'trigger.measurement', `trigger.measurement must be an object naming the variable read, got ${show(m)}`);
    } else if (m.variable === undefined || m.variable === null) {
      f.add('measurement_variable_missing', 'trigger.measurement.variable', 'trigger.measurement.variable is missing');
    } else if (triggerType !== null) {
      const designOf = DESIGN_OF_VARIABLE[triggerType];
      const variables = Object.keys(designOf);
      const variable = String(m.variable);
      if (typeof m.variable !== 'string' || !variables.includes(variable)) {
        f.add('measurement_variable_unknown', 'trigger.measurement.variable',
          `trigger.measurement.variable ${show(m.variable)} is not read by a ${triggerType} trigger (one of ${variables.join(', ')})`);
      } else {
        design = DESIGNS[designOf[variable]!];
        const before = f.count;
        const p = 'trigger.measurement';
        checkMembers(f, m, p, design.measurement_members);
        const unit = readUnit(f, m.unit, `${p}.unit`, variable, design.units?.[variable] ?? UNITS_BY_VARIABLE[variable]!);
        const aggregation: SeriesAggregation | null = design.readAggregation(f, m, p);
        let maxDepth: number | null = null;
        if (m.max_depth_km !== undefined && m.max_depth_km !== null) {
          if (variable !== 'magnitude') f.add('max_depth_km_not_read', `${p}.max_depth_km`, `${p}.max_depth_km is read for earthquake magnitude only`);
          else if (!isNum(m.max_depth_km) || m.max_depth_km < 0) f.add('max_depth_km_invalid', `${p}.max_depth_km`, `${p}.max_depth_km must be a number >= 0 (km), got ${show(m.max_depth_km)}`);
          else maxDepth = m.max_depth_km;
        }
        let element: string | null = null;
        if (m.element !== undefined && m.element !== null) {
          if (variable !== 'precipitation' && variable !== 'wind_speed') f.add('element_not_read', `${p}.element`, `${p}.element names a GHCN-Daily element; it is read for precipitation and wind_speed only`);
          else if (typeof m.element !== 'string' || !/^[A-Z0-9]{4}$/.test(m.element)) f.add('element_invalid', `${p}.element`, `${p}.element must be a GHCN-Daily element code such as PRCP, AWND or WSF5, got ${show(m.element)}`);
          else element = m.element;
        }
        const stateMembers = readStateMembers(f, m, p, variable);
        if (f.count === before) measurement = { variable, unit, aggregation, element, max_depth_km: maxDepth, ...stateMembersOf(variable, stateMembers) };
      }
    }

    windowMs = design ? design.readWindow(f, trigger.aggregation_window, term) : null;
    payout = readPayout(f, trigger.payout, 'trigger.payout', design?.payout ?? null);
  }

  // region (peril block; a daily index does not read it)
  let region: { region: Region; gate: Gate } | null = null;
  const reads = design?.region ?? null;
  if (peril && reads) {
    if (peril.region === undefined || peril.region === null) {
      f.add('region_missing', 'peril.region', reads.missing);
    } else {
      region = readRegion(f, peril.region, 'peril.region');
      if (region && reads.box_only !== null && region.region.type !== 'box') {
        f.add('region_invalid', 'peril.region.type', reads.box_only);
        region = null;
      }
    }
  }

  // financial_structure
  const financial = fin ? readFinancial(f, fin) : null;

  if (f.count > 0 || !code || !triggerType || !design || !measurement || !sources || !payout || !financial || !term || !period) return null;
  if (design.reads_window && windowMs === null) return null;
  if (reads && region === null) return null;
  return {
    peril: code,
    region: region?.region ?? null,
    gate: region?.gate ?? null,
    trigger_type: triggerType,
    design: design.design,
    data_sources: sources,
    measurement,
    aggregation_window: windowMs,
    payout,
    financial,
    period: { start: period.start as string, end: period.end as string },
    term,
  };
}

// ---------------------------------------------------------------------------------------------
// Data: against the model table and the pinned feed

function checkData(f: Faults, s: Structure, context: ValidationContext): void {
  const model = PERIL_MODELS[s.peril];
  if (!model) {
    f.add('peril_not_priced', 'peril.code',
      `peril ${s.peril} has no pricing model (priced perils: ${PRICED_PERILS.join(', ')}); a ${s.peril} structure cannot be backtested or priced`);
    return;
  }
  if (!model.designs.includes(s.design)) {
    f.add('trigger_not_read_for_peril', 'trigger.type',
      `a ${s.peril} structure is read as ${model.words}; a ${s.trigger_type} trigger measuring ${s.measurement.variable} is not read by the ${s.peril} model`);
    return;
  }
  const v = s.measurement.variable;
  if (v === 'precipitation' && (s.peril === 'tropical_cyclone' || s.peril === 'flood')) {
    f.add(s.peril === 'flood' ? 'flood_on_rainfall_series' : 'tropical_cyclone_on_rainfall_series', 'trigger.measurement.variable',
      `a ${s.peril} structure written on rainfall is refused: ${model.words}`);
    return;
  }
  if (!model.variables.includes(v)) {
    f.add('measurement_not_read_for_peril', 'trigger.measurement.variable', `the ${s.peril} model does not read ${v}: it reads ${model.words}`);
    return;
  }
  if (s.data_sources.length > 1) {
    f.add('more_than_one_data_source', 'trigger.data_sources', `trigger.data_sources lists ${s.data_sources.length} feeds; a backtest reads exactly one pinned feed`);
    return;
  }
  const source = s.data_sources[0]!;
  if (source.version === null) {
    f.add('feed_version_not_pinned', 'trigger.data_sources[0].version', `trigger.data_sources[0] names ${source.feed_id} without a version: pin the vintage read`);
    return;
  }
  const feed = context.feed;
  if (feed === undefined) return;
  if (feed === null) {
    f.add('feed_not_pinned', 'trigger.data_sources[0]', `${source.feed_id} version ${source.version} is not a pinned snapshot (GET /feeds lists them)`);
    return;
  }
  if (feed.feed_id !== source.feed_id || feed.version !== source.version) {
    throw new Error(`validation context names ${feed.feed_id}/${feed.version} but the trigger reads ${source.feed_id}/${source.version}`);
  }
  const cls = classOf(feed);
  if (!DESIGNS[s.design].checkFeed(f, s, { feed, cls, kind_words: kindWords(cls), model_words: model.words })) return;

  // Window against the period of record.
  const years = recordYears(feed.manifest);
  if (years === null) {
    f.add('feed_has_no_period_of_record', FEED_PATH, `${feed.feed_id} states no period of record; nothing to replay`);
    return;
  }
  const w = context.window;
  if (w && (Number.isInteger(w.from_year) || Number.isInteger(w.to_year))) {
    const from = w.from_year ?? years.from;
    const to = w.to_year ?? years.to;
    if (from < years.from || to > years.to) {
      f.add('window_outside_period_of_record', 'window',
        `window ${from} to ${to} is outside ${feed.feed_id}'s period of record (${feed.manifest.period_of_record?.from} to ${feed.manifest.period_of_record?.to}: years ${years.from} to ${years.to}); it is refused, never clipped`);
    }
  }
}

/**
 * Validates structure terms. Without a context (or with context.feed undefined) only the shape is
 * checked (the POST); with the pinned snapshot's manifest, the data faults too (the job).
 */
export function validateStructure(terms: unknown, context: ValidationContext = {}): StructureValidation {
  const shape = new Faults();
  const structure = readShape(shape, terms);
  if (structure && shape.count === 0) return checkStructure(structure, context);
  const request = new Faults();
  checkWindow(request, context.window);
  return { ok: shape.count === 0 && request.count === 0, structure: null, shape_faults: shape.list, data_faults: [], request_faults: request.list };
}

/**
 * Checks a structure already read from its terms (validateStructure(...).structure) against the
 * window and the pinned feed, without reading the terms again: a job reads the terms once, finds
 * the feed they name, then checks them against it.
 */
export function checkStructure(structure: Structure, context: ValidationContext): StructureValidation {
  const request = new Faults();
  checkWindow(request, context.window);
  const data = new Faults();
  if (request.count === 0) checkData(data, structure, context);
  return { ok: data.count === 0 && request.count === 0, structure, shape_faults: [], data_faults: data.list, request_faults: request.list };
}

// ---------------------------------------------------------------------------------------------
// What a structure reads

/** Which reader of src/feeds/readers.ts loads the data a structure reads, and with which element. */
export interface DataRequest {
  readonly feed_id: string;
  readonly version: string | null;
  readonly reader: TriggerDesign['reader'];
  /** Pass to dailySeries(store, snapshot, element); null for other readers and non-GHCN series. */
  readonly element: string | null;
}

export function dataRequest(structure: Structure, feedClass?: FeedClass): DataRequest {
  const source = structure.data_sources[0]!;
  const reader = DESIGNS[structure.design].reader;
  return { feed_id: source.feed_id, version: source.version, reader, element: reader === 'daily_series' ? seriesElement(structure, feedClass) : null };
}
