// Compound Poisson sums: N ~ Poisson(rate) occurrences a year, each paying one of finitely many
// amounts, the year's sum held under an annual attachment and cap; and the Poisson draw the
// simulations use.

import type { SeededRandom } from './random.js';

export interface PayoutMass {
  /** Occurrence payout in money (it is put on the cent lattice). */
  readonly amount: number;
  readonly probability: number;
}

export interface AnnualMoments {
  readonly mean: number;
  readonly standard_deviation: number;
}

/** States beyond which the exact convolution gives way to simulation. */
export const MAX_LATTICE_STATES = 20_000;

/**
 * Exact annual payout of a compound Poisson sum with a discrete occurrence payout: N ~ Poisson(rate),
 * gross = Σ payouts (in cents), annual = min(cap, max(0, gross − attachment)). The running gross is
 * held as min(gross, attachment + cap) (nothing above that changes the annual payout), so the
 * states stay few. The Poisson series is followed until its remaining mass is below 1e−15. Null
 * when the states would exceed MAX_LATTICE_STATES.
 */
export function compoundPoissonAnnual(rate: number, payouts: readonly PayoutMass[], attachment: number, cap: number): AnnualMoments | null {
  if (!(rate >= 0) || !Number.isFinite(rate)) throw new RangeError(`rate must be finite and >= 0, got ${rate}`);
  if (rate > 700) return null; // e^(−rate) underflows: simulate instead
  const ceiling = Math.round((attachment + cap) * 100);
  const severity = new Map<number, number>();
  for (const p of payouts) {
    if (!(p.probability > 0)) continue;
    const cents = Math.min(ceiling, Math.round(p.amount * 100));
    severity.set(cents, (severity.get(cents) ?? 0) + p.probability);
  }
  const sev = [...severity].sort((a, b) => a[0] - b[0]);
  let state = new Map<number, number>([[0, 1]]);
  const annual = new Map<number, number>();
  const add = (m: Map<number, number>, k: number, p: number) => m.set(k, (m.get(k) ?? 0) + p);
  let pmf = Math.exp(-rate);
  let cumulative = 0;
  const maxN = Math.ceil(rate + 40 * Math.sqrt(rate) + 60);
  for (let n = 0; n <= maxN; n++) {
    if (n > 0) pmf *= rate / n;
    if (n > 0 && pmf === 0 && cumulative > 0.5) break;
    for (const [k, p] of state) add(annual, k, pmf * p);
    cumulative += pmf;
    if (1 - cumulative < 1e-15 && n >= rate) break;
    const next = new Map<number, number>();
    for (const [k, p] of state) for (const [c, q] of sev) add(next, Math.min(ceiling, k + c), p * q);
    if (next.size > MAX_LATTICE_STATES) return null;
    state = next;
  }
  const att = Math.round(attachment * 100);
  const capCents = Math.round(cap * 100);
  let mean = 0;
  let second = 0;
  let mass = 0;
  for (const [k, p] of annual) {
    const v = Math.min(capCents, Math.max(0, k - att)) / 100;
    mean += p * v;
    second += p * v * v;
    mass += p;
  }
  mean /= mass;
  second /= mass;
  return { mean, standard_deviation: Math.sqrt(Math.max(0, second - mean * mean)) };
}

/** One Poisson draw by inversion (rates above 500 are split into independent parts). */
export function poissonDraw(rng: SeededRandom, rate: number): number {
  if (rate > 500) return poissonDraw(rng, rate / 2) + poissonDraw(rng, rate / 2);
  const u = rng.uniform();
  let n = 0;
  let p = Math.exp(-rate);
  let cdf = p;
  while (u > cdf && n < 100_000) {
    n++;
    p *= rate / n;
    cdf += p;
    if (p === 0 && n > rate) break;
  }
  return n;
}
