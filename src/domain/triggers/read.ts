// The term checks every design shares: members, blocks, the region, the payout function, units,
// the aggregation window's duration, the period and the financial structure, and the backtest
// request's window. Each names its faults in the catalogue of faults.ts.

import { parseIsoDuration } from '../../kernel/dates.js';
import type { Box, Polygon } from '../geo.js';
import type { Gate } from '../tracks/gate.js';
import type { Faults } from './faults.js';
import type { LadderLevel, PayoutBasis, PayoutFunction } from './payout.js';
import { isTermFault, termRule, type TermRule } from './term.js';
import type { BoxRegion, Region, Structure } from './terms.js';
import { canonicalUnitName, type UnitName } from './vocabulary.js';

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
export const show = (v: unknown): string => (v === undefined ? 'nothing' : JSON.stringify(v));

export function checkMembers(f: Faults, o: Obj, path: string, allowed: readonly string[]): void {
  for (const key of Object.keys(o).sort()) {
    if (!allowed.includes(key)) {
      f.add('unknown_member', `${path}.${key}`, `${path}.${key} is not a member of ${path} (members read: ${allowed.join(', ')})`);
    }
  }
}


export function readBlock(f: Faults, terms: Obj, name: string): Obj | null {
  const v = terms[name];
  if (v === undefined || v === null) {
    f.add('block_missing', name, `the ${name} block is missing`);
    return null;
  }
  if (!isObj(v)) {
    f.add('block_not_object', name, `${name} must be an object, got ${show(v)}`);
    return null;
  }
  return v;
}


export function readRegion(f: Faults, v: unknown, path: string): { region: Region; gate: Gate } | null {
  if (!isObj(v)) {
    f.add('region_invalid', path, `${path} must be an object {type: "box" | "polygon", ...}, got ${show(v)}`);
    return null;
  }
  if (v.type === 'box') {
    checkMembers(f, v, path, ['type', 'min_latitude', 'max_latitude', 'min_longitude', 'max_longitude', 'name']);
    const before = f.count;
    for (const k of ['min_latitude', 'max_latitude'] as const) {
      if (!isNum(v[k]) || (v[k] as number) < -90 || (v[k] as number) > 90) f.add('region_invalid', `${path}.${k}`, `${path}.${k} must be a number in [-90, 90], got ${show(v[k])}`);
    }
    for (const k of ['min_longitude', 'max_longitude'] as const) {
      if (!isNum(v[k]) || (v[k] as number) < -180 || (v[k] as number) > 180) f.add('region_invalid', `${path}.${k}`, `${path}.${k} must be a number in [-180, 180], got ${show(v[k])}`);
    }
    if (f.count > before) return null;
    if ((v.min_latitude as number) > (v.max_latitude as number)) {
      f.add('region_invalid', `${path}.min_latitude`, `${path}.min_latitude ${v.min_latitude} is above max_latitude ${v.max_latitude}`);
      return null;
    }
    const box: BoxRegion = {
      type: 'box', min_latitude: v.min_latitude as number, max_latitude: v.max_latitude as number,
      min_longitude: v.min_longitude as number, max_longitude: v.max_longitude as number,
    };
    const gate: Box = { min_latitude: box.min_latitude, max_latitude: box.max_latitude, min_longitude: box.min_longitude, max_longitude: box.max_longitude };
    return { region: box, gate };
  }
  if (v.type === 'polygon') {
    checkMembers(f, v, path, ['type', 'coordinates', 'name']);
    let ring: unknown = v.coordinates;
    // GeoJSON Polygon coordinates: [[ring]] with one ring (holes are not read).
    if (Array.isArray(ring) && ring.length === 1 && Array.isArray(ring[0]) && Array.isArray((ring[0] as unknown[])[0])) ring = ring[0];
    const ok = Array.isArray(ring) && ring.every((p) => Array.isArray(p) && p.length === 2 && isNum(p[0]) && isNum(p[1])
      && p[0] >= -180 && p[0] <= 180 && p[1] >= -90 && p[1] <= 90);
    const vertices = ok ? (ring as [number, number][]) : [];
    const distinct = new Set(vertices.map((p) => `${p[0]},${p[1]}`)).size;
    if (!ok || distinct < 3) {
      f.add('region_invalid', `${path}.coordinates`,
        `${path}.coordinates must be a ring of at least three distinct [longitude, latitude] vertices (degrees), or GeoJSON [[ring]] with one ring`);
      return null;
    }
    const polygon: Polygon = vertices.map(([lon, lat]) => [lon, lat] as const);
    return { region: { type: 'polygon', coordinates: polygon }, gate: polygon };
  }
  f.add('region_invalid', `${path}.type`, `${path}.type must be "box" or "polygon", got ${show(v.type)}`);
  return null;
}

/** How a design's payout is paid: the bases it reads, the default, and the words refusing another. */
export interface PayoutRules {
  readonly bases: readonly PayoutBasis[];
  readonly default_basis: PayoutBasis;
  /** Why another basis is not read. */
  readonly bases_read: string;
  /** A basis read under another name (a track gate's per_occurrence is per_event). */
  readonly read_as?: Readonly<Partial<Record<PayoutBasis, PayoutBasis>>>;
}

/** Reads trigger.payout; `rules` is null when the design cannot be told (no basis is then checked). */
export function readPayout(f: Faults, v: unknown, path: string, rules: PayoutRules | null): (PayoutFunction & { basis: PayoutBasis }) | null {
  if (v === undefined || v === null) {
    f.add('payout_missing', path, `${path} is missing: name a payout function (ladder, linear or step_linear)`);
    return null;
  }
  if (!isObj(v)) {
    f.add('payout_missing', path, `${path} must be an object, got ${show(v)}`);
    return null;
  }
  const before = f.count;
  let basis: PayoutBasis = rules?.default_basis ?? 'term_maximum';
  if (v.basis !== undefined && rules !== null) {
    if (!rules.bases.includes(v.basis as PayoutBasis)) {
      f.add('payout_basis_unknown', `${path}.basis`, `${path}.basis ${show(v.basis)} is not read: ${rules.bases_read}`);
    } else {
      basis = rules.read_as?.[v.basis as PayoutBasis] ?? (v.basis as PayoutBasis);
    }
  }
  if (v.function === 'ladder') {
    checkMembers(f, v, path, ['function', 'levels', 'basis']);
    const levels = v.levels;
    if (!Array.isArray(levels) || levels.length === 0) {
      f.add('ladder_levels_missing', `${path}.levels`, `${path}.levels must be a non-empty list of {at_least, fraction}`);
      return null;
    }
    const read: LadderLevel[] = [];
    levels.forEach((level: unknown, i) => {
      const p = `${path}.levels[${i}]`;
      if (!isObj(level)) {
        f.add('ladder_level_invalid', p, `${p} must be an object {at_least, fraction}, got ${show(level)}`);
        return;
      }
      checkMembers(f, level, p, ['at_least', 'fraction']);
      if (!isNum(level.at_least)) f.add('ladder_level_invalid', `${p}.at_least`, `${p}.at_least must be a finite number, got ${show(level.at_least)}`);
      if (!isNum(level.fraction)) f.add('ladder_level_invalid', `${p}.fraction`, `${p}.fraction must be a finite number, got ${show(level.fraction)}`);
      else if (!(level.fraction > 0 && level.fraction <= 1)) {
        f.add('ladder_fraction_out_of_range', `${p}.fraction`, `${p}.fraction ${level.fraction} is outside (0, 1]: a level pays a fraction of the limit`);
      }
      if (isNum(level.at_least) && isNum(level.fraction)) read.push({ at_least: level.at_least, fraction: level.fraction });
    });
    if (read.length === levels.length) {
      for (let i = 1; i < read.length; i++) {
        if (!(read[i]!.at_least > read[i - 1]!.at_least)) {
          f.add('ladder_levels_not_increasing', `${path}.levels[${i}].at_least`,
            `${path}.levels[${i}].at_least ${read[i]!.at_least} is not above the level before it (${read[i - 1]!.at_least}): list levels from the lowest, each strictly higher`);
        }
        if (!(read[i]!.fraction > read[i - 1]!.fraction)) {
          f.add('ladder_fractions_not_increasing', `${path}.levels[${i}].fraction`,
            `${path}.levels[${i}].fraction ${read[i]!.fraction} is not above the fraction of the level before it (${read[i - 1]!.fraction}): a higher level must pay more`);
        }
      }
    }
    if (f.count > before) return null;
    return { function: 'ladder', levels: read, basis };
  }
  if (v.function === 'linear' || v.function === 'step_linear') {
    const stepped = v.function === 'step_linear';
    checkMembers(f, v, path, stepped ? ['function', 'attachment', 'step', 'exhaustion', 'basis'] : ['function', 'attachment', 'exhaustion', 'basis']);
    for (const k of ['attachment', 'exhaustion'] as const) {
      if (!isNum(v[k])) f.add('linear_level_invalid', `${path}.${k}`, `${path}.${k} must be a finite number in the index's unit, got ${show(v[k])}`);
    }
    if (isNum(v.attachment) && isNum(v.exhaustion) && !(v.exhaustion > v.attachment)) {
      f.add('linear_exhaustion_not_above_attachment', `${path}.exhaustion`,
        `${path}.exhaustion ${v.exhaustion} must be above ${path}.attachment ${v.attachment}`);
    }
    if (stepped && !(isNum(v.step) && v.step > 0 && v.step < 1)) {
      f.add('step_linear_step_out_of_range', `${path}.step`,
        `${path}.step must be a number in (0, 1), the fraction of the limit paid on reaching the attachment, got ${show(v.step)}`);
    }
    if (f.count > before) return null;
    const [attachment, exhaustion] = [v.attachment as number, v.exhaustion as number];
    return stepped ? { function: 'step_linear', attachment, step: v.step as number, exhaustion, basis } : { function: 'linear', attachment, exhaustion, basis };
  }
  f.add('payout_function_unknown', `${path}.function`, `${path}.function must be "ladder", "linear" or "step_linear", got ${show(v.function)}`);
  return null;
}

export function readUnit(f: Faults, v: unknown, path: string, variable: string, allowed: readonly UnitName[]): UnitName | null {
  if (v === undefined) return null;
  const unit = typeof v === 'string' ? canonicalUnitName(v) : null;
  if (unit === null || !allowed.includes(unit)) {
    f.add('measurement_unit_unknown', path, `${path} ${show(v)} is not a unit ${variable} is read in (one of ${allowed.join(', ')})`);
    return null;
  }
  return unit;
}


/** Reads a `max` aggregation, the only one a design paying on a peak reads (`why`: what it reads). */
export function readPeakAggregation(f: Faults, m: Obj, p: string, why: string): null {
  if (m.aggregation !== undefined && m.aggregation !== 'max') {
    f.add('measurement_aggregation_unknown', `${p}.aggregation`, `${p}.aggregation ${show(m.aggregation)} is not read: ${why} (max)`);
  }
  return null;
}

/** Reads trigger.aggregation_window's ISO 8601 duration; `missing` says what the window is for. */
export function readDuration(f: Faults, aw: unknown, missing: string): { readonly duration: string; readonly ms: number } | null {
  if (!isObj(aw) || aw.duration === undefined) {
    f.add('aggregation_window_missing', 'trigger.aggregation_window.duration', missing);
    return null;
  }
  checkMembers(f, aw, 'trigger.aggregation_window', ['duration']);
  try {
    if (typeof aw.duration !== 'string') throw new RangeError(`${show(aw.duration)} is not a string`);
    return { duration: aw.duration, ms: parseIsoDuration(aw.duration) };
  } catch (e) {
    f.add('aggregation_window_duration_invalid', 'trigger.aggregation_window.duration', `trigger.aggregation_window.duration: ${(e as Error).message}`);
    return null;
  }
}

/** Reads the period block into its term rule (read first: a daily index's window is checked against the term). */
export function readPeriod(f: Faults, period: Obj): TermRule | null {
  checkMembers(f, period, 'period', ['start', 'end']);
  const rule = termRule({ start: period.start as string, end: period.end as string });
  if (isTermFault(rule)) {
    f.add(rule.fault, rule.fault === 'period_date_invalid' ? 'period' : 'period.end', rule.message);
    return null;
  }
  return rule;
}

/** Reads the financial_structure block. */
export function readFinancial(f: Faults, fin: Obj): Structure['financial'] | null {
  checkMembers(f, fin, 'financial_structure', ['currency', 'limit', 'attachment', 'annual_limit']);
  const before = f.count;
  if (typeof fin.currency !== 'string' || !/^[A-Z]{3}$/.test(fin.currency)) {
    f.add('currency_invalid', 'financial_structure.currency', `financial_structure.currency must be an ISO 4217 code (three capital letters), got ${show(fin.currency)}`);
  }
  if (!isNum(fin.limit) || fin.limit <= 0) f.add('limit_invalid', 'financial_structure.limit', `financial_structure.limit must be a number above 0, got ${show(fin.limit)}`);
  if (fin.attachment !== undefined && (!isNum(fin.attachment) || fin.attachment < 0)) {
    f.add('attachment_invalid', 'financial_structure.attachment', `financial_structure.attachment must be a number >= 0 (annual aggregate, money), got ${show(fin.attachment)}`);
  }
  if (fin.annual_limit !== undefined && fin.annual_limit !== null && (!isNum(fin.annual_limit) || fin.annual_limit <= 0)) {
    f.add('annual_limit_invalid', 'financial_structure.annual_limit', `financial_structure.annual_limit must be a number above 0, got ${show(fin.annual_limit)}`);
  }
  if (f.count > before) return null;
  const annual = isNum(fin.annual_limit) ? fin.annual_limit : null;
  return {
    currency: fin.currency as string, limit: fin.limit as number, attachment: isNum(fin.attachment) ? fin.attachment : 0,
    annual_limit: annual, annual_cap: annual ?? (fin.limit as number),
  };
}

export interface BacktestWindow {
  readonly from_year?: number;
  readonly to_year?: number;
}

/** The backtest request's window: {from_year, to_year} integers in order (a request fault). */
export function checkWindow(f: Faults, window: BacktestWindow | null | undefined): void {
  if (window === undefined || window === null) return;
  if (!isObj(window)) return f.add('window_invalid', 'window', `window must be an object {from_year, to_year}, got ${show(window)}`);
  checkMembers(f, window as Obj, 'window', ['from_year', 'to_year']);
  for (const k of ['from_year', 'to_year'] as const) {
    const v = window[k];
    if (v !== undefined && !Number.isInteger(v)) f.add('window_invalid', `window.${k}`, `window.${k} must be an integer year, got ${show(v)}`);
  }
  if (Number.isInteger(window.from_year) && Number.isInteger(window.to_year) && window.from_year! > window.to_year!) {
    f.add('window_invalid', 'window', `window.from_year ${window.from_year} is after window.to_year ${window.to_year}`);
  }
}
