// The reinsurance half of the financial module: OED ri_info and ri_scope applied to the insured
// losses per output row (policy layer × item), with the semantics oasislmf gives them
// (OasisLMF/OasisLMF oasislmf/preparation/reinsurance_layer.py, write_files_for_reinsurance and
// FM_TERMS_PER_REINS_TYPE; the passes run as fmpy with net output):
//
//   passes         one per inuring priority (1 first) and risk level (LOC, LGR, POL, ACC, then SEL, the
//                  portfolio, which a blank RiskLevel means), each on the net of the pass before;
//   contracts      each ri_info row of the pass is a layer acting on the same input; the pass's net is
//                  its input less what every layer cedes;
//   scope          a row is in a contract's scope when a ri_scope row of the contract matches it on every
//                  field the scope row fills (PortNumber, AccNumber, PolNumber, LocGroup, LocNumber,
//                  CedantName, ProducerName, LOB, CountryCode, ReinsTag); out of scope it cedes nothing;
//   risk level     rows grouped into risks by the risk level's fields (LOC: PortNumber, AccNumber,
//                  LocNumber; LGR: LocGroup; POL: PortNumber, AccNumber, PolNumber; ACC: PortNumber,
//                  AccNumber; SEL: PortNumber); per risk min(max(loss × ceded − attachment, 0), limit)
//                  × placed (calcrule 24), the terms of the most specific matching scope row (FAC and
//                  SS need a scope row naming the risk exactly);
//   occurrence     on the sum of the contract's risks: min(loss, OccLimit) × PlacedPercent (calcrule
//                  23) for QS, SS and PR; for CXL calcrule 24 with OccAttachment, OccLimit,
//                  CededPercent and PlacedPercent;
//
// by type: QS ceded CededPercent up to RiskLimit per risk; SS the scope row's CededPercent per risk
// above RiskAttachment up to RiskLimit; PR RiskAttachment and RiskLimit per risk; FAC per risk with
// PlacedPercent at the risk; CXL on the occurrence. A limit of 0 is unlimited. Losses are shared
// back to the rows pro rata (allocation rule 3, as rule 2).
import { expandPerils, num, overlaps, text, type OedRecord, type PerilGroups } from './oed-fields.js';
import type { FmLocation, InsuranceProgramme } from './insurance.js';

export const RISK_LEVELS = ['LOC', 'LGR', 'POL', 'ACC', 'SEL'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];
export const REINS_TYPES = ['FAC', 'QS', 'SS', 'PR', 'CXL'] as const;

const RISK_FIELDS: Record<RiskLevel, readonly string[]> = {
  LOC: ['PortNumber', 'AccNumber', 'LocNumber'],
  LGR: ['LocGroup'],
  POL: ['PortNumber', 'AccNumber', 'PolNumber'],
  ACC: ['PortNumber', 'AccNumber'],
  SEL: ['PortNumber'],
};
const SCOPE_FIELDS = ['PortNumber', 'AccNumber', 'PolNumber', 'LocGroup', 'LocNumber', 'CedantName', 'ProducerName', 'LOB', 'CountryCode', 'ReinsTag'] as const;

/** One layer's terms at a level: min(max(loss × ceded − attachment, 0), limit) × placed. */
interface Terms {
  readonly attachment: number;
  readonly limit: number;
  readonly ceded: number;
  readonly placed: number;
}

export function cede(t: Terms, loss: number): number {
  const x = loss * t.ceded - t.attachment;
  if (!(x > 0)) return 0;
  return (x < t.limit ? x : t.limit) * t.placed;
}

const PASS: Terms = { attachment: 0, limit: Infinity, ceded: 1, placed: 1 };

export interface ReinsuranceContract {
  readonly reinsNumber: string;
  readonly name: string;
  readonly type: string;
  readonly inuringPriority: number;
  readonly riskLevel: RiskLevel;
  /** Rows in scope, grouped by risk: risk k holds order[start[k] .. start[k + 1]). */
  readonly order: Int32Array;
  readonly start: Int32Array;
  readonly risk: readonly Terms[];
  readonly occurrence: Terms;
}

export interface ReinsuranceProgramme {
  readonly passes: readonly { inuringPriority: number; riskLevel: RiskLevel; contracts: readonly ReinsuranceContract[] }[];
  readonly warnings: readonly string[];
}

export interface ReinsuranceInput {
  readonly riInfo: readonly OedRecord[];
  readonly riScope: readonly OedRecord[];
  readonly locations: readonly FmLocation[];
  readonly accounts: readonly OedRecord[];
  readonly perilGroups: PerilGroups;
}

const limitOf = (v: number) => (v > 0 ? v : Infinity);

function riskTerms(type: string, info: OedRecord, scope: OedRecord): Terms {
  const ceded = num(info, 'CededPercent', 1);
  switch (type) {
    case 'FAC': return { attachment: num(info, 'RiskAttachment'), limit: limitOf(num(info, 'RiskLimit')), ceded, placed: num(info, 'PlacedPercent', 1) };
    case 'PR': return { attachment: num(info, 'RiskAttachment'), limit: limitOf(num(info, 'RiskLimit')), ceded, placed: 1 };
    case 'QS': return { attachment: 0, limit: limitOf(num(info, 'RiskLimit')), ceded, placed: 1 };
    case 'SS': return { attachment: num(info, 'RiskAttachment'), limit: limitOf(num(info, 'RiskLimit')), ceded: num(scope, 'CededPercent', 1), placed: 1 };
    default: return PASS;
  }
}

function occurrenceTerms(type: string, info: OedRecord): Terms {
  const placed = num(info, 'PlacedPercent', 1);
  if (type === 'CXL') return { attachment: num(info, 'OccAttachment'), limit: limitOf(num(info, 'OccLimit')), ceded: num(info, 'CededPercent', 1), placed };
  if (type === 'FAC') return PASS;
  return { attachment: 0, limit: limitOf(num(info, 'OccLimit')), ceded: 1, placed };
}

/** The fields a row is matched and grouped on: its location's, its account's and its policy's. */
function rowFields(p: InsuranceProgramme, input: ReinsuranceInput, accountOf: Map<string, OedRecord>): Record<string, string>[] {
  return Array.from(p.rowItem, (item, r) => {
    const chain = p.chains[p.rowChain[r]!]!;
    const loc = input.locations[p.itemLocation[item]!]!.oed;
    const acc = accountOf.get(`${chain.portNumber}\u0000${chain.accNumber}\u0000${chain.polNumber}`) ?? {};
    return {
      PortNumber: chain.portNumber, AccNumber: chain.accNumber, PolNumber: chain.polNumber,
      LocGroup: text(loc, 'LocGroup'), LocNumber: text(loc, 'LocNumber'),
      CedantName: text(acc, 'CedantName'), ProducerName: text(acc, 'ProducerName'), LOB: text(acc, 'LOB'),
      CountryCode: text(loc, 'CountryCode'), ReinsTag: text(loc, 'ReinsTag'),
    };
  });
}

function inScope(row: Record<string, string>, scope: OedRecord): boolean {
  for (const f of SCOPE_FIELDS) {
    const want = text(scope, f);
    if (want !== '' && row[f] !== want) return false;
  }
  return true;
}

/** The scope row whose risk-level fields name the risk most specifically (all of them, then fewer from the finest). */
function riskScope(row: Record<string, string>, scopes: readonly OedRecord[], fields: readonly string[], exact: boolean): OedRecord | null {
  for (let n = fields.length; n >= (exact ? fields.length : 0); n--) {
    const named = fields.slice(0, n);
    const blank = fields.slice(n);
    const hit = scopes.find((s) => named.every((f) => text(s, f) !== '' && text(s, f) === row[f]) && blank.every((f) => text(s, f) === ''));
    if (hit) return hit;
  }
  return null;
}

function riskLevelOf(info: OedRecord): RiskLevel | null {
  const l = text(info, 'RiskLevel').toUpperCase();
  if (l === '') return 'SEL';
  return (RISK_LEVELS as readonly string[]).includes(l) ? (l as RiskLevel) : null;
}

function contractOf(info: OedRecord, level: RiskLevel, type: string, scopes: readonly OedRecord[], rows: Record<string, string>[], rowPerils: (r: number) => ReadonlySet<string> | null, groups: PerilGroups): ReinsuranceContract {
  const perilText = text(info, 'ReinsPeril');
  const perils = perilText === '' ? null : expandPerils(perilText, groups);
  const fields = RISK_FIELDS[level];
  const exact = type === 'FAC' || type === 'SS';
  const byRisk = new Map<string, { rows: number[]; terms: Terms } | null>();
  // Rows of one location share their scope fields: each distinct set is matched once.
  const inScopeOf = new Map<string, boolean>();
  rows.forEach((row, r) => {
    const rp = rowPerils(r);
    if (perils !== null && rp !== null && !overlaps(rp, perils)) return;
    const scopeKey = SCOPE_FIELDS.map((f) => row[f]).join('\u0000');
    let scoped = inScopeOf.get(scopeKey);
    if (scoped === undefined) {
      scoped = scopes.some((s) => inScope(row, s));
      inScopeOf.set(scopeKey, scoped);
    }
    if (!scoped) return;
    const key = fields.map((f) => row[f]).join('\u0000');
    let risk = byRisk.get(key);
    if (risk === undefined) {
      const scope = riskScope(row, scopes, fields, exact);
      risk = scope === null ? null : { rows: [], terms: riskTerms(type, info, scope) };
      byRisk.set(key, risk);
    }
    risk?.rows.push(r);
  });
  const order: number[] = [];
  const start = [0];
  const risk: Terms[] = [];
  for (const v of byRisk.values()) {
    if (v === null) continue;
    order.push(...v.rows);
    start.push(order.length);
    risk.push(v.terms);
  }
  return {
    reinsNumber: text(info, 'ReinsNumber'), name: text(info, 'ReinsName'), type, inuringPriority: num(info, 'InuringPriority', 1), riskLevel: level,
    order: Int32Array.from(order), start: Int32Array.from(start), risk, occurrence: occurrenceTerms(type, info),
  };
}

/** Builds the reinsurance passes over an insurance programme's output rows. */
export function buildReinsurance(p: InsuranceProgramme, input: ReinsuranceInput): ReinsuranceProgramme {
  const warnings: string[] = [];
  const accountOf = new Map<string, OedRecord>();
  for (const a of input.accounts) {
    const key = `${text(a, 'PortNumber')}\u0000${text(a, 'AccNumber')}\u0000${text(a, 'PolNumber')}`;
    if (!accountOf.has(key)) accountOf.set(key, a);
  }
  const rows = rowFields(p, input, accountOf);
  const locPerils = input.locations.map((l) => {
    const t = text(l.oed, 'LocPerilsCovered');
    return t === '' ? null : expandPerils(t, input.perilGroups);
  });
  const rowPerils = (r: number) => locPerils[p.itemLocation[p.rowItem[r]!]!]!;
  const scopesOf = new Map<string, OedRecord[]>();
  for (const s of input.riScope) {
    const n = text(s, 'ReinsNumber');
    if (!scopesOf.has(n)) scopesOf.set(n, []);
    scopesOf.get(n)!.push(s);
  }
  const contracts: ReinsuranceContract[] = [];
  for (const info of input.riInfo) {
    const type = text(info, 'ReinsType').toUpperCase();
    const level = riskLevelOf(info);
    const n = text(info, 'ReinsNumber');
    if (!(REINS_TYPES as readonly string[]).includes(type)) { warnings.push(`Reinsurance ${n}: ReinsType "${type}" is not applied (QS, SS, PR, FAC and CXL are).`); continue; }
    if (level === null) { warnings.push(`Reinsurance ${n}: RiskLevel "${text(info, 'RiskLevel')}" is not one of LOC, LGR, POL, ACC, SEL; not applied.`); continue; }
    const scopes = scopesOf.get(n) ?? [];
    if (scopes.length === 0) warnings.push(`Reinsurance ${n} has no ri_scope row: it cedes nothing.`);
    contracts.push(contractOf(info, level, type, scopes, rows, rowPerils, input.perilGroups));
  }
  if (input.riInfo.some((r) => num(r, 'AggLimit') !== 0 || num(r, 'AggAttachment') !== 0 || num(r, 'Reinstatement') !== 0)) {
    warnings.push('Aggregate terms and reinstatements (AggLimit, AggAttachment, Reinstatement) are kept but not applied: each occurrence stands alone, as in oasislmf.');
  }
  const passes: ReinsuranceProgramme['passes'][number][] = [];
  const priorities = [...new Set(contracts.map((c) => c.inuringPriority))].sort((a, b) => a - b);
  for (const ip of priorities) {
    for (const level of RISK_LEVELS) {
      const cs = contracts.filter((c) => c.inuringPriority === ip && c.riskLevel === level);
      if (cs.length > 0) passes.push({ inuringPriority: ip, riskLevel: level, contracts: cs });
    }
  }
  return { passes, warnings };
}
