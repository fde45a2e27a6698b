// A deterministic-loss run's per-location losses as oasislmf's loc_summary.csv (the summary
// `oasislmf exposure run` writes): PortNumber, AccNumber, LocNumber, loss_factor_idx (only with
// several factors), loss_gul, loss_il, loss_ri (only with reinsurance); a location's rows one per
// factor, in factor order. Pure.
import { csvTable, type Cell } from './csv.js';

interface LocSummaryResult {
  loss_factors: readonly number[];
  has_reinsurance: boolean;
  locations: readonly { PortNumber: string; AccNumber: string; LocNumber: string; losses: readonly { loss_gul: number; loss_il: number; loss_ri: number | null }[] }[];
}

/** True when a lab run's result holds per-location deterministic losses. */
export function hasLocSummary(result: Record<string, unknown>): boolean {
  return result.lane === 'deterministic-loss' && Array.isArray(result.locations);
}

export function locSummaryCsv(result: LocSummaryResult): string {
  const several = result.loss_factors.length > 1;
  const header = ['PortNumber', 'AccNumber', 'LocNumber', ...(several ? ['loss_factor_idx'] : []), 'loss_gul', 'loss_il', ...(result.has_reinsurance ? ['loss_ri'] : [])];
  const rows: Cell[][] = [];
  for (const l of result.locations) {
    l.losses.forEach((x, f) => {
      rows.push([l.PortNumber, l.AccNumber, l.LocNumber, ...(several ? [f] : []), x.loss_gul, x.loss_il, ...(result.has_reinsurance ? [x.loss_ri] : [])]);
    });
  }
  return csvTable(header, rows);
}
