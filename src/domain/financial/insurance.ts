// The insurance half of the financial module: an OED location and account set turned into the
// Oasis financial structure and applied to ground-up losses per item (one item per location and
// coverage: 1 building, 2 other, 3 contents, 4 BI, from the TIVs). Levels, in oasislmf's order
// (oasislmf/utils/fm.py, SUPPORTED_FM_LEVELS; il_inputs.py builds them):
//
//   site coverage   per item: LocDed{1Building,2Other,3Contents,4BI}, LocMinDed.., LocMaxDed.., LocLimit..
//   site pd         per location over building, other and contents: LocDed5PD, LocLimit5PD
//   site all        per location: LocDed6All, LocMinDed6All, LocMaxDed6All, LocLimit6All
//   cond coverage / cond pd / cond all   per policy and condition (account rows' CondNumber, matched by
//                   the location's CondTag, or CondNumber in OED before 3.0), conditions in CondPriority order
//   policy coverage / policy pd / policy all   per policy (PortNumber, AccNumber, PolNumber): PolDed.., PolLimit..
//   policy layer    per layer of the policy (LayerNumber): LayerAttachment, LayerLimit (0 unlimited), LayerParticipation
//   account all     per account over its policies' layers: AccDed6All, AccMinDed6All, AccMaxDed6All, AccLimit6All
//
// Terms % of TIV (type 2) are amounts of the TIV of the node's items (for PD: building, other and
// contents; for all: every coverage), and BI-days terms (type 3) TIV × days / 365, as il_inputs.py
// resolves them. A level's terms apply only to items of the perils its peril field names (LocPeril,
// CondPeril, PolPeril, AccPeril); a policy covers only the perils of PolPerilsCovered, so an item of
// another peril gives it nothing. Each policy works on the site levels' output on its own (oasislmf's
// layers), so two policies of one account each pay their share of the same loss.
import { level, type Level, type LevelNode } from './levels.js';
import { profile, type Profile } from './profile.js';
import { expandPerils, num, overlaps, text, type OedRecord, type PerilGroups } from './oed-fields.js';

export const COVERAGE_SUFFIX = ['1Building', '2Other', '3Contents', '4BI'] as const;
const PD = '5PD';
const ALL = '6All';

export interface FmLocation {
  /** The location's OED fields (LocNumber, AccNumber, LocDed6All, ...). */
  readonly oed: OedRecord;
  /** TIV per coverage: building, other, contents, BI. */
  readonly tiv: readonly [number, number, number, number];
}

export interface InsuranceInput {
  readonly locations: readonly FmLocation[];
  readonly accounts: readonly OedRecord[];
  readonly perilGroups: PerilGroups;
  /** The single perils the ground-up losses are for (a model's perils); null: every peril each location covers. */
  readonly lossPerils?: ReadonlySet<string> | null;
}

/** One policy's chain of levels from the site levels' output to its layers. */
export interface PolicyChain {
  readonly portNumber: string;
  readonly accNumber: string;
  readonly polNumber: string;
  /** Global items in the policy. */
  readonly items: Int32Array;
  /** Levels over the chain's local items (0 .. items.length). */
  readonly levels: readonly Level[];
  readonly layers: readonly { number: number; profile: Profile }[];
  /** Index of the chain's first output row: layer k's item j is row rowStart + k × items.length + j. */
  readonly rowStart: number;
  readonly account: number;
}

export interface AccountNode {
  readonly portNumber: string;
  readonly accNumber: string;
  readonly profile: Profile | null;
  readonly chains: readonly number[];
}

export interface InsuranceProgramme {
  readonly itemLocation: Int32Array;
  /** 1 building, 2 other, 3 contents, 4 BI. */
  readonly itemCoverage: Uint8Array;
  readonly itemTiv: Float64Array;
  readonly site: readonly Level[];
  readonly chains: readonly PolicyChain[];
  readonly accounts: readonly AccountNode[];
  /** Output rows (policy layer × item): their chain, layer number and item. */
  readonly rowChain: Int32Array;
  readonly rowLayer: Int32Array;
  readonly rowItem: Int32Array;
  readonly maxChainItems: number;
  readonly warnings: readonly string[];
}

/** A node's terms at an OED level: prefix Loc, Cond, Pol or Acc; suffix 1Building .. 6All; TIV for % of TIV terms. */
export function oedProfile(r: OedRecord, prefix: string, suffix: string, tiv: number): Profile {
  const dedType = num(r, `${prefix}DedType${suffix}`);
  const limType = num(r, `${prefix}LimitType${suffix}`);
  let ded = num(r, `${prefix}Ded${suffix}`);
  let lim = num(r, `${prefix}Limit${suffix}`);
  if (dedType === 2) ded *= tiv;
  else if (dedType === 3) ded = (ded * tiv) / 365;
  if (limType === 2) lim *= tiv;
  else if (limType === 3) lim = (lim * tiv) / 365;
  return profile({
    deductible: ded,
    deductibleOfLoss: dedType === 1,
    franchise: num(r, `${prefix}DedCode${suffix}`) === 2,
    minDeductible: num(r, `${prefix}MinDed${suffix}`),
    maxDeductible: num(r, `${prefix}MaxDed${suffix}`),
    limit: lim > 0 ? lim : Infinity,
    limitOfLoss: limType === 1,
  });
}

type Perils = ReadonlySet<string> | null;

function perilFilter(r: OedRecord, field: string, groups: PerilGroups): Perils {
  const t = text(r, field);
  return t === '' ? null : expandPerils(t, groups);
}

function covers(itemPerils: Perils, filter: Perils): boolean {
  return filter === null || itemPerils === null || overlaps(itemPerils, filter);
}

interface Items {
  /** Condition tags of each location: a location written on several rows (one per condition, as OED 3 allows) has its items on its first row and every row's tag there. */
  tags: Set<string>[];
  location: number[];
  coverage: number[];
  tiv: number[];
  /** Items of each location. */
  byLocation: number[][];
  perils: Perils[];
}

function itemsOf(input: InsuranceInput): Items {
  const items: Items = { tags: [], location: [], coverage: [], tiv: [], byLocation: [], perils: [] };
  const firstRow = new Map<string, number>();
  input.locations.forEach((l, li) => {
    const own: number[] = [];
    items.tags.push(new Set());
    const tag = locationTag(l.oed);
    const number = text(l.oed, 'LocNumber');
    const key = `${text(l.oed, 'PortNumber')}\u0000${text(l.oed, 'AccNumber')}\u0000${number}`;
    const first = number === '' ? undefined : firstRow.get(key);
    if (first !== undefined) {
      if (tag !== '') items.tags[first]!.add(tag);
      items.byLocation.push(own);
      items.perils.push(items.perils[first]!);
      return;
    }
    if (number !== '') firstRow.set(key, li);
    if (tag !== '') items.tags[li]!.add(tag);
    for (let c = 0; c < 4; c++) {
      const v = l.tiv[c]!;
      if (!(v > 0)) continue;
      own.push(items.location.length);
      items.location.push(li);
      items.coverage.push(c + 1);
      items.tiv.push(v);
    }
    items.byLocation.push(own);
    const covered = perilFilter(l.oed, 'LocPerilsCovered', input.perilGroups);
    const lossPerils = input.lossPerils ?? null;
    let perils: Perils = covered;
    if (lossPerils !== null) perils = new Set([...lossPerils].filter((p) => covered === null || covered.has(p)));
    items.perils.push(perils);
  });
  return items;
}

function sumTiv(items: Items, list: readonly number[]): number {
  let s = 0;
  for (const i of list) s += items.tiv[i]!;
  return s;
}

/** Coverage, PD and all nodes of one group of items under one record's terms (site or a policy or condition). */
function coverageLevels(name: string, groups: readonly { items: readonly number[]; record: OedRecord; perils: Perils }[], prefix: string, items: Items, local: (i: number) => number): Level[] {
  const cov: LevelNode[] = [];
  const pd: LevelNode[] = [];
  const all: LevelNode[] = [];
  for (const g of groups) {
    const inScope = g.items.filter((i) => covers(items.perils[items.location[i]!]!, g.perils));
    for (let c = 1; c <= 4; c++) {
      const ofCov = inScope.filter((i) => items.coverage[i] === c);
      if (ofCov.length > 0) cov.push({ items: ofCov.map(local), profile: oedProfile(g.record, prefix, COVERAGE_SUFFIX[c - 1]!, sumTiv(items, ofCov)) });
    }
    const pdItems = inScope.filter((i) => items.coverage[i]! <= 3);
    if (pdItems.length > 0) pd.push({ items: pdItems.map(local), profile: oedProfile(g.record, prefix, PD, sumTiv(items, pdItems)) });
    if (inScope.length > 0) all.push({ items: inScope.map(local), profile: oedProfile(g.record, prefix, ALL, sumTiv(items, inScope)) });
  }
  return [level(`${name} coverage`, cov), level(`${name} pd`, pd), level(`${name} all`, all)].filter((l): l is Level => l !== null);
}

function siteLevels(input: InsuranceInput, items: Items): Level[] {
  // Site coverage nodes are single items; site pd and all are per location.
  const groups = input.locations.map((l, li) => ({ items: items.byLocation[li]!, record: l.oed, perils: perilFilter(l.oed, 'LocPeril', input.perilGroups) }));
  return coverageLevels('site', groups, 'Loc', items, (i) => i);
}

interface PolicyRows {
  port: string;
  acc: string;
  pol: string;
  rows: OedRecord[];
}

/** Fields of an account row that carry terms (a policy without any is only a statement that the account is covered). */
const TERM_FIELD = /^(Pol|Cond|Layer)(?!Number|Name|Status|UserDef|InceptionDate|ExpiryDate|GrossPremium|Tax|Brokerage|NetPremium|Priority|Tag)|^StepTriggerType$/;

function hasTerms(p: PolicyRows): boolean {
  return p.rows.some((r) => Object.keys(r).some((k) => TERM_FIELD.test(k) && !/Peril/.test(k) && num(r, k) !== 0 && !(k === 'LayerParticipation' && num(r, k) === 1)));
}

/**
 * The account file's policies. Of an account's policies without any terms, one is kept: oasislmf
 * gives such policies one layer between them (its validation case insurance_account, acc102 and acc104).
 */
function policiesOf(accounts: readonly OedRecord[]): PolicyRows[] {
  const all = groupPolicies(accounts);
  const bare = new Set<string>();
  return all.filter((p) => {
    if (hasTerms(p)) return true;
    const key = `${p.port}\u0000${p.acc}`;
    if (bare.has(key)) return false;
    bare.add(key);
    return true;
  });
}

function groupPolicies(accounts: readonly OedRecord[]): PolicyRows[] {
  const byKey = new Map<string, PolicyRows>();
  for (const r of accounts) {
    const port = text(r, 'PortNumber');
    const acc = text(r, 'AccNumber');
    const pol = text(r, 'PolNumber');
    const key = `${port}\u0000${acc}\u0000${pol}`;
    let p = byKey.get(key);
    if (!p) {
      p = { port, acc, pol, rows: [] };
      byKey.set(key, p);
    }
    p.rows.push(r);
  }
  return [...byKey.values()];
}

function locationTag(l: OedRecord): string {
  return text(l, 'CondTag') || text(l, 'CondNumber');
}

/** The policy's conditions, one record each, in CondPriority order (1 first). */
function conditionsOf(p: PolicyRows): OedRecord[] {
  const seen = new Map<string, OedRecord>();
  for (const r of p.rows) {
    const tag = text(r, 'CondTag') || text(r, 'CondNumber');
    if (tag !== '' && !seen.has(tag)) seen.set(tag, r);
  }
  return [...seen.values()].sort((a, b) => num(a, 'CondPriority', 1) - num(b, 'CondPriority', 1));
}

function layersOf(p: PolicyRows): { number: number; profile: Profile }[] {
  const byNumber = new Map<number, OedRecord>();
  for (const r of p.rows) {
    const n = num(r, 'LayerNumber', 1);
    if (!byNumber.has(n)) byNumber.set(n, r);
  }
  return [...byNumber.entries()].sort((a, b) => a[0] - b[0]).map(([number, r]) => {
    const limit = num(r, 'LayerLimit');
    return { number, profile: profile({ attachment: num(r, 'LayerAttachment'), limit: limit > 0 ? limit : Infinity, share: num(r, 'LayerParticipation', 1), layer: true }) };
  });
}

function belongs(l: OedRecord, port: string, acc: string): boolean {
  const lp = text(l, 'PortNumber');
  return text(l, 'AccNumber') === acc && (lp === '' || port === '' || lp === port);
}

/** Locations by account (AccNumber), in order: a policy's candidates. */
function locationsByAccount(locations: readonly FmLocation[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  locations.forEach((l, li) => {
    const acc = text(l.oed, 'AccNumber');
    const list = out.get(acc);
    if (list) list.push(li);
    else out.set(acc, [li]);
  });
  return out;
}

function chainOf(p: PolicyRows, input: InsuranceInput, items: Items, rowStart: number, account: number, byAccount: Map<string, number[]>): PolicyChain {
  const first = p.rows[0]!;
  const covered = perilFilter(first, 'PolPerilsCovered', input.perilGroups);
  const conditions = conditionsOf(p);
  const restricted = new Set(conditions.filter((c) => num(c, 'CondClass') === 1).map((c) => text(c, 'CondTag') || text(c, 'CondNumber')));
  const global: number[] = [];
  (byAccount.get(p.acc) ?? []).forEach((li) => {
    const l = input.locations[li]!;
    if (!belongs(l.oed, p.port, p.acc)) return;
    if (restricted.size > 0 && ![...items.tags[li]!].some((t) => restricted.has(t))) return;
    if (!covers(items.perils[li]!, covered)) return;
    global.push(...items.byLocation[li]!);
  });
  const localOf = new Map<number, number>();
  global.forEach((g, j) => localOf.set(g, j));
  const local = (i: number) => localOf.get(i)!;
  const levels: Level[] = [];
  for (const c of conditions) {
    const tag = text(c, 'CondTag') || text(c, 'CondNumber');
    const tagged = global.filter((i) => items.tags[items.location[i]!]!.has(tag));
    levels.push(...coverageLevels(`cond ${tag}`, [{ items: tagged, record: c, perils: perilFilter(c, 'CondPeril', input.perilGroups) }], 'Cond', items, local));
  }
  levels.push(...coverageLevels('policy', [{ items: global, record: first, perils: perilFilter(first, 'PolPeril', input.perilGroups) }], 'Pol', items, local));
  return { portNumber: p.port, accNumber: p.acc, polNumber: p.pol, items: Int32Array.from(global), levels, layers: layersOf(p), rowStart, account };
}

function termsNotApplied(accounts: readonly OedRecord[], locations: readonly FmLocation[]): string[] {
  const out: string[] = [];
  const has = (rs: readonly OedRecord[], test: (k: string) => boolean) => rs.some((r) => Object.keys(r).some((k) => test(k) && num(r, k) !== 0));
  if (has(accounts, (k) => /^Acc(Min|Max)?Ded(Code|Type)?[1-5]/.test(k) || /^AccLimit(Code|Type)?[1-5]/.test(k))) {
    out.push('Account coverage and PD terms (AccDed1Building .. AccLimit5PD) are kept but not applied: the account level applies its blanket terms (6All) only, as oasislmf does.');
  }
  if (has(accounts, (k) => k === 'StepTriggerType')) out.push('Step policies (StepTriggerType, TriggerStart .. PayoutLimit) are kept but not applied by this financial module.');
  const annual = (k: string) => /^(Loc|Cond|Pol|Acc)(DedCode|LimitCode)/.test(k);
  if ([...accounts, ...locations.map((l) => l.oed)].some((r) => Object.keys(r).some((k) => annual(k) && num(r, k) === 1))) {
    out.push('Annual aggregate deductibles and limits (DedCode or LimitCode 1) act per occurrence here, as in oasislmf.');
  }
  return out;
}

/** Builds the financial structure of an OED location and account set. */
export function buildInsurance(input: InsuranceInput): InsuranceProgramme {
  const items = itemsOf(input);
  const site = siteLevels(input, items);
  const chains: PolicyChain[] = [];
  const accounts: AccountNode[] = [];
  const accountIndex = new Map<string, number>();
  let rows = 0;
  const byAccount = locationsByAccount(input.locations);
  const policies = policiesOf(input.accounts);
  for (const p of policies) {
    const key = `${p.port}\u0000${p.acc}`;
    let a = accountIndex.get(key);
    if (a === undefined) {
      a = accounts.length;
      accountIndex.set(key, a);
      const r = p.rows[0]!;
      accounts.push({ portNumber: p.port, accNumber: p.acc, profile: null, chains: [] });
    }
    const chain = chainOf(p, input, items, rows, a, byAccount);
    (accounts[a]!.chains as number[]).push(chains.length);
    chains.push(chain);
    rows += chain.items.length * chain.layers.length;
  }
  // Account % of TIV: the TIV of the account's items.
  accounts.forEach((acc, a) => {
    const r = policies.find((p) => p.port === acc.portNumber && p.acc === acc.accNumber)!.rows[0]!;
    const tivItems = new Set<number>();
    for (const c of acc.chains) for (const i of chains[c]!.items) tivItems.add(i);
    const terms = oedProfile(r, 'Acc', ALL, sumTiv(items, [...tivItems]));
    (accounts[a] as { profile: Profile | null }).profile = { ...terms, share: num(r, 'AccParticipation', 1) };
  });
  const rowChain = new Int32Array(rows);
  const rowLayer = new Int32Array(rows);
  const rowItem = new Int32Array(rows);
  chains.forEach((c, ci) => {
    const m = c.items.length;
    c.layers.forEach((l, k) => {
      for (let j = 0; j < m; j++) {
        const r = c.rowStart + k * m + j;
        rowChain[r] = ci;
        rowLayer[r] = l.number;
        rowItem[r] = c.items[j]!;
      }
    });
  });
  return {
    itemLocation: Int32Array.from(items.location),
    itemCoverage: Uint8Array.from(items.coverage),
    itemTiv: Float64Array.from(items.tiv),
    site,
    chains,
    accounts,
    rowChain,
    rowLayer,
    rowItem,
    maxChainItems: chains.reduce((m, c) => Math.max(m, c.items.length), 0),
    warnings: termsNotApplied(input.accounts, input.locations),
  };
}
