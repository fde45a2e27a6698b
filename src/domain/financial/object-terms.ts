// A stored object's OED terms made into the financial module's structures, and applied to
// ground-up losses per item: the one path every lab lane takes to an object's insured (il) and
// net of reinsurance (ri) losses. An object has terms when it came from an OED set (its top-level
// oed member). Without an account file each account's locations stand under one policy without
// terms, so their site terms still apply; without ri_info no reinsurance applies.
import { buildInsurance, type FmLocation, type InsuranceProgramme } from './insurance.js';
import { buildReinsurance, type ReinsuranceProgramme } from './reinsurance.js';
import { TermsBatch } from './batch.js';
import { num, text, type OedRecord, type PerilGroups } from './oed-fields.js';

/** An object's location as the lab hands it: its OED fields and the canonical values read from the schedule. */
export interface TermsLocation {
  readonly oed?: OedRecord | null;
  readonly buildings_value?: number | null;
  readonly other_value?: number | null;
  readonly contents_value?: number | null;
  readonly bi_value?: number | null;
}

/** The object's top-level oed member. */
export interface OedSetRecords {
  readonly accounts: readonly OedRecord[];
  readonly ri_info: readonly OedRecord[];
  readonly ri_scope: readonly OedRecord[];
}

export interface ObjectTerms {
  readonly insurance: InsuranceProgramme;
  readonly reinsurance: ReinsuranceProgramme | null;
  readonly locations: readonly FmLocation[];
  readonly warnings: readonly string[];
}

/** A location's TIVs: the OED fields when the file gave them, else the values read into the object. */
function tivOf(l: TermsLocation): [number, number, number, number] {
  const o = l.oed ?? {};
  const pick = (field: string, value: number | null | undefined) => (o[field] !== undefined ? num(o, field) : Number(value ?? 0));
  return [pick('BuildingTIV', l.buildings_value), pick('OtherTIV', l.other_value), pick('ContentsTIV', l.contents_value), pick('BITIV', l.bi_value)];
}

/** One policy without terms per account of the locations: what an OED set without an account file insures. */
function barePolicies(locations: readonly FmLocation[]): OedRecord[] {
  const seen = new Map<string, OedRecord>();
  for (const l of locations) {
    const port = text(l.oed, 'PortNumber');
    const acc = text(l.oed, 'AccNumber');
    const key = `${port}\u0000${acc}`;
    if (!seen.has(key)) seen.set(key, { PortNumber: port, AccNumber: acc, PolNumber: '1' });
  }
  return [...seen.values()];
}

/**
 * The object's financial structures; null when it has no OED set. lossPerils: the single perils
 * the ground-up losses are for (a model's), or null for every peril each location covers.
 */
export function objectTerms(
  locations: readonly TermsLocation[],
  set: OedSetRecords | null | undefined,
  perilGroups: PerilGroups,
  lossPerils: ReadonlySet<string> | null,
): ObjectTerms | null {
  if (!set) return null;
  const fm: FmLocation[] = locations.map((l) => ({ oed: l.oed ?? {}, tiv: tivOf(l) }));
  const warnings: string[] = [];
  let accounts = set.accounts;
  if (accounts.length === 0) {
    accounts = barePolicies(fm);
    warnings.push('The object has no account file: each account\'s locations stand under one policy without terms, so only their site terms apply.');
  }
  const insurance = buildInsurance({ locations: fm, accounts, perilGroups, lossPerils });
  const reinsurance = set.ri_info.length > 0
    ? buildReinsurance(insurance, { riInfo: set.ri_info, riScope: set.ri_scope, locations: fm, accounts, perilGroups })
    : null;
  return { insurance, reinsurance, locations: fm, warnings: [...warnings, ...insurance.warnings, ...(reinsurance?.warnings ?? [])] };
}

/**
 * An object's terms applied loss after loss. apply() takes one ground-up loss per item (every output
 * row written); batch() gives the evaluation of many columns (an event's samples) at once over the
 * items an event touches, which lanes with samples use.
 */
export class TermsEvaluator {
  readonly il: Float64Array;
  readonly ri: Float64Array;
  private readonly one: TermsBatch;

  constructor(readonly terms: ObjectTerms) {
    const rows = terms.insurance.rowItem.length;
    this.il = new Float64Array(rows);
    this.ri = new Float64Array(rows);
    this.one = this.batch(1);
  }

  /** A batch over `columns` columns (samples, or samples × factors) for one event at a time. */
  batch(columns: number): TermsBatch {
    return new TermsBatch(this.terms.insurance, this.terms.reinsurance, columns);
  }

  /** Insured and net loss per output row (policy layer × item) for the items' ground-up losses; net is insured without reinsurance. */
  apply(itemGroundUp: Float64Array): void {
    const b = this.one;
    b.clear();
    for (let i = 0; i < itemGroundUp.length; i++) if (itemGroundUp[i] !== 0) b.add(i, 0, itemGroundUp[i]!);
    b.run();
    this.il.fill(0);
    this.ri.fill(0);
    const rows = b.rows;
    for (let s = 0; s < b.rowCount; s++) {
      this.il[rows[s]!] = b.il[s]!;
      this.ri[rows[s]!] = b.ri[s]!;
    }
  }

  /** Sums per location of the rows' values (insured or net). */
  byLocation(rows: Float64Array, out: Float64Array): void {
    const p = this.terms.insurance;
    out.fill(0);
    for (let r = 0; r < rows.length; r++) out[p.itemLocation[p.rowItem[r]!]!]! += rows[r]!;
  }
}
