// Loss statistics of a backtest (DOMAIN.md "Backtest statistics"), over the n years of the window
// the record covers. Years the archive holds no record for are left out of n (and named in
// data_coverage); a covered year with nothing paid is a zero.

import { roundMoney } from '../triggers/payout.js';

export interface YearResult {
  readonly year: number;
  /** Net payout of the year (after the annual aggregate), or null when the record lacks the year. */
  readonly payout: number | null;
  /** Sum of the year's occurrence payouts before the annual aggregate attachment and cap. */
  readonly gross_payout: number | null;
  /** Occurrences that paid something (before the annual aggregate). */
  readonly paying_occurrences: number;
}

export interface LargestYear {
  readonly year: number;
  readonly payout: number;
}

export interface BacktestStatistics {
  /** n: years of the window the record covers. */
  readonly years: number;
  readonly years_paying: number;
  /** μ = Σ payout / n (the burning cost, in the structure's currency). */
  readonly mean_annual_payout: number | null;
  /** s with the n − 1 denominator; null when n < 2. */
  readonly standard_deviation: number | null;
  /** s / √n; null when n < 2. */
  readonly standard_error: number | null;
  /** Share of the n years paying anything (net of the annual aggregate attachment). */
  readonly payment_frequency: number | null;
  /**
   * Share of the n years the cover attaches, i.e. pays anything (DOMAIN.md: the same share as
   * payment_frequency, named as the layer's attachment probability).
   */
  readonly attachment_probability: number | null;
  /**
   * Share of the n years in which the trigger fired: some occurrence payout before the annual
   * aggregate attachment (equal to attachment_probability when financial_structure.attachment is 0).
   */
  readonly trigger_probability: number | null;
  /** Share of the n years paying the annual cap (the limit unless annual_limit says otherwise). */
  readonly exhaustion_probability: number | null;
  /** Paying occurrences per covered year (before the annual aggregate). */
  readonly occurrences_per_year: number | null;
  /** Largest year payout; ties go to the earliest year; null when n = 0. */
  readonly largest_year: LargestYear | null;
  /** Total paid over the n years. */
  readonly total_payout: number;
}

const EPS = 0.005; // half a cent

export function backtestStatistics(results: readonly YearResult[], annualCap: number): BacktestStatistics {
  const covered = results.filter((r): r is YearResult & { payout: number; gross_payout: number } => r.payout !== null && r.gross_payout !== null);
  const n = covered.length;
  const total = covered.reduce((a, r) => a + r.payout, 0);
  if (n === 0) {
    return {
      years: 0, years_paying: 0, mean_annual_payout: null, standard_deviation: null, standard_error: null,
      payment_frequency: null, attachment_probability: null, trigger_probability: null, exhaustion_probability: null, occurrences_per_year: null,
      largest_year: null, total_payout: 0,
    };
  }
  const mean = total / n;
  let sd: number | null = null;
  if (n >= 2) {
    const ss = covered.reduce((a, r) => a + (r.payout - mean) ** 2, 0);
    sd = Math.sqrt(ss / (n - 1));
  }
  const paying = covered.filter((r) => r.payout > 0).length;
  let largest: LargestYear = { year: covered[0]!.year, payout: covered[0]!.payout };
  for (const r of covered) if (r.payout > largest.payout) largest = { year: r.year, payout: r.payout };
  return {
    years: n,
    years_paying: paying,
    mean_annual_payout: roundMoney(mean),
    standard_deviation: sd === null ? null : roundMoney(sd),
    standard_error: sd === null ? null : roundMoney(sd / Math.sqrt(n)),
    payment_frequency: paying / n,
    attachment_probability: paying / n,
    trigger_probability: covered.filter((r) => r.gross_payout > 0).length / n,
    exhaustion_probability: covered.filter((r) => r.payout >= annualCap - EPS).length / n,
    occurrences_per_year: covered.reduce((a, r) => a + r.paying_occurrences, 0) / n,
    largest_year: largest,
    total_payout: roundMoney(total),
  };
}
