// A deterministic run of an object's OED terms, as `oasislmf exposure run` makes one: every covered
// coverage's ground-up loss is its TIV × a loss factor, then the financial module
// (domain/financial/): insured (il) and net of reinsurance (ri) losses per location, per policy,
// per account and for the portfolio, one set per factor. Pure.
import { objectTerms, TermsEvaluator, type OedSetRecords, type TermsLocation } from '../../../financial/object-terms.js';
import { text, type PerilGroups } from '../../../financial/oed-fields.js';
import { ok, refused, type Result } from '../../../../kernel/result.js';
import { runSpecRefusal } from '../../engine/spec-refusal.js';

export const MAX_LOSS_FACTORS = 20;

export interface DeterministicSpec {
  loss_factors: number[];
  exposure: { locations: TermsLocation[]; oed?: OedSetRecords };
}

/** Losses at one factor: ground up, insured, net of reinsurance (null without reinsurance). */
export interface FactorLosses {
  loss_gul: number;
  loss_il: number;
  loss_ri: number | null;
}

export interface DeterministicResult {
  lane: 'deterministic-loss';
  loss_factors: number[];
  has_reinsurance: boolean;
  /** One row per location, in the object's order, with its identifiers. */
  locations: { index: number; PortNumber: string; AccNumber: string; LocNumber: string; losses: FactorLosses[] }[];
  policies: { PortNumber: string; AccNumber: string; PolNumber: string; losses: FactorLosses[] }[];
  accounts: { PortNumber: string; AccNumber: string; losses: FactorLosses[] }[];
  portfolio: FactorLosses[];
  assumptions: string[];
  warnings: string[];
}

/** The loss factors, checked: 1 to MAX_LOSS_FACTORS finite non-negative numbers (default [1]). */
export function readLossFactors(v: unknown, details: string[]): number[] {
  if (v === undefined || v === null) return [1];
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_LOSS_FACTORS) {
    details.push(`loss_factors must be an array of 1 to ${MAX_LOSS_FACTORS} numbers`);
    return [1];
  }
  v.forEach((f, i) => {
    if (typeof f !== 'number' || !Number.isFinite(f) || f < 0) details.push(`loss_factors[${i}] must be a non-negative finite number`);
  });
  return v.filter((f): f is number => typeof f === 'number');
}

function zeros(n: number, ri: boolean): FactorLosses[] {
  return Array.from({ length: n }, () => ({ loss_gul: 0, loss_il: 0, loss_ri: ri ? 0 : null }));
}

function add(into: FactorLosses, gul: number, il: number, ri: number): void {
  into.loss_gul += gul;
  into.loss_il += il;
  if (into.loss_ri !== null) into.loss_ri += ri;
}

/** Runs the deterministic losses of an object's terms. */
export function runDeterministic(spec: DeterministicSpec, perilGroups: PerilGroups): Result<DeterministicResult> {
  const details: string[] = [];
  const factors = readLossFactors(spec.loss_factors, details);
  if (details.length > 0) return refused(runSpecRefusal(details));
  const locations = spec.exposure.locations;
  const terms = objectTerms(locations, spec.exposure.oed ?? null, perilGroups, null);
  if (terms === null) {
    return refused(runSpecRefusal(['the object has no OED terms: ingest an OED location file (with its account file, and ri_info and ri_scope for reinsurance) to run deterministic losses']));
  }
  const p = terms.insurance;
  const evaluator = new TermsEvaluator(terms);
  const hasRi = terms.reinsurance !== null;
  const nF = factors.length;
  const id = (i: number, f: string) => text(terms.locations[i]!.oed, f);
  const locRows = locations.map((_, index) => ({ index, PortNumber: id(index, 'PortNumber'), AccNumber: id(index, 'AccNumber'), LocNumber: id(index, 'LocNumber'), losses: zeros(nF, hasRi) }));
  const policies = p.chains.map((c) => ({ PortNumber: c.portNumber, AccNumber: c.accNumber, PolNumber: c.polNumber, losses: zeros(nF, hasRi) }));
  const accounts = p.accounts.map((a) => ({ PortNumber: a.portNumber, AccNumber: a.accNumber, losses: zeros(nF, hasRi) }));
  const portfolio = zeros(nF, hasRi);
  // Every loss factor a column of one batch: the terms run once over all of them.
  const batch = evaluator.batch(nF);
  factors.forEach((factor, f) => {
    for (let i = 0; i < p.itemTiv.length; i++) if (p.itemTiv[i]! * factor !== 0) batch.add(i, f, p.itemTiv[i]! * factor);
  });
  batch.run();
  for (let s = 0; s < batch.rowCount; s++) {
    const r = batch.rows[s]!;
    const c = p.rowChain[r]!;
    const loc = locRows[p.itemLocation[p.rowItem[r]!]!]!;
    for (let f = 0; f < nF; f++) {
      const il = batch.il[s * nF + f]!;
      const ri = hasRi ? batch.ri[s * nF + f]! : il;
      add(loc.losses[f]!, 0, il, ri);
      add(policies[c]!.losses[f]!, 0, il, ri);
      add(accounts[p.chains[c]!.account]!.losses[f]!, 0, il, ri);
      add(portfolio[f]!, 0, il, ri);
    }
  }
  // Ground up per location, per chain (each policy's items, whatever it pays) and per account.
  factors.forEach((factor, f) => {
    for (let i = 0; i < p.itemTiv.length; i++) {
      const g = p.itemTiv[i]! * factor;
      add(locRows[p.itemLocation[i]!]!.losses[f]!, g, 0, 0);
      add(portfolio[f]!, g, 0, 0);
    }
    p.chains.forEach((c, ci) => {
      for (const i of c.items) policies[ci]!.losses[f]!.loss_gul += p.itemTiv[i]! * factor;
    });
    p.accounts.forEach((a, ai) => {
      const seen = new Set<number>();
      for (const ci of a.chains) for (const i of p.chains[ci]!.items) seen.add(i);
      for (const i of seen) accounts[ai]!.losses[f]!.loss_gul += p.itemTiv[i]! * factor;
    });
  });
  return ok({
    lane: 'deterministic-loss',
    loss_factors: factors,
    has_reinsurance: hasRi,
    locations: locRows,
    policies,
    accounts,
    portfolio,
    assumptions: [
      'Every coverage with a TIV (building, other, contents, BI) loses its TIV × the loss factor, once, whatever perils the location covers (oasislmf exposure run).',
      'Insured losses through the financial module with the Oasis FM\'s semantics (docs/financial-module.md): site, condition, policy, layer and account levels, allocation rule 2; reinsurance passes by inuring priority and risk level on the insured losses.',
      'A location\'s and a policy\'s ground-up loss is counted once (oasislmf\'s loc_summary sums it over each policy layer).',
    ],
    warnings: [...terms.warnings],
  });
}
