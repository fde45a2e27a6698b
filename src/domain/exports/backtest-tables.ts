// A backtest artifact's tables as CSV: the year table (one row per replayed year) and the burning
// cost view. Read from the artifact's own members, so the CSV and the JSON never disagree. Pure.
import { csvTable, type Cell } from './csv.js';

/** The tables a backtest is exported as; the first is the default. */
export const BACKTEST_TABLES = ['years', 'burning_cost'] as const;
export type BacktestTable = (typeof BACKTEST_TABLES)[number];

interface YearRow {
  year: number;
  term: { from: string; to: string };
  record: string;
  payout: number | null;
  gross_payout: number | null;
  rate_on_line: number | null;
  payout_on_partial_record?: number | null;
  term_maximum?: { value: number } | null;
  occurrences: { value: number; payout: number }[];
}

/** What the exporter reads of a stored artifact (domain/backtest/artifact.ts BacktestArtifact). */
export interface BacktestTables {
  currency: string;
  years: YearRow[];
  burning_cost: { by_year: { year: number; payout: number | null; rate_on_line: number | null }[] };
  conventions?: { units?: { index?: string | null } };
}

export const YEAR_COLUMNS = [
  'year', 'term_from', 'term_to', 'record', 'occurrences', 'paying_occurrences', 'index_value', 'index_unit',
  'gross_payout', 'payout', 'rate_on_line', 'payout_on_partial_record', 'currency',
] as const;

export const BURNING_COST_COLUMNS = ['year', 'payout', 'rate_on_line', 'currency'] as const;

/**
 * index_value is the year's measured index: the term's maximum for an index series, else the
 * largest value among the year's occurrences (empty when the year has none or no record).
 */
function indexValue(y: YearRow): number | null {
  if (y.term_maximum !== undefined) return y.term_maximum?.value ?? null;
  return y.occurrences.length === 0 ? null : Math.max(...y.occurrences.map((o) => o.value));
}

export function backtestCsv(artifact: BacktestTables, table: BacktestTable): string {
  const currency = artifact.currency;
  if (table === 'burning_cost') {
    return csvTable(BURNING_COST_COLUMNS, artifact.burning_cost.by_year.map((b): Cell[] => [b.year, b.payout, b.rate_on_line, currency]));
  }
  const unit = artifact.conventions?.units?.index ?? null;
  return csvTable(YEAR_COLUMNS, artifact.years.map((y): Cell[] => [
    y.year, y.term.from, y.term.to, y.record, y.occurrences.length, y.occurrences.filter((o) => o.payout > 0).length,
    indexValue(y), unit, y.gross_payout, y.payout, y.rate_on_line, y.payout_on_partial_record ?? null, currency,
  ]));
}
