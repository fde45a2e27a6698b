// A deterministic-loss run's per-location losses as oasislmf's loc_summary.csv (the summary
// `oasislmf exposure run` writes): PortNumber, AccNumber, LocNumber, loss_factor_idx (only with
// several factors), loss_gul, loss_il, loss_ri (only with reinsurance); a location's rows one per
// factor, in factor order. Pure.
import type { Cell } from './csv.js';

interface LocSummaryResult {
  loss_factors: readonly number[];
  has_reinsurance: boolean;
  locations: readonly { PortNumber: string; AccNumber: string; LocNumber: string; losses: readonly { loss_gul: number; loss_il: number; loss_ri: number | null }[] }[];
}

/** The loc_summary table of a deterministic-loss run's result (the lane's table of its own); undefined when it holds none. */
export function locSummaryRows(result: Readonly<Record<string, unknown>>): { header: string[]; rows: Cell[][] } | undefined {
  if (!Array.isArray(result.locations) || !Array.isArray(result.loss_factors)) return undefined;
  const r = result as unknown as LocSummaryResult;
  const several = r.loss_factors.length > 1;
  const header = ['PortNumber', 'AccNumber', 'LocNumber', ...(several ? ['loss_factor_idx'] : []), 'loss_gul', 'loss_il', ...(r.has_reinsurance ? ['loss_ri'] : [])];
  const rows: Cell[][] = [];
  for (const l of r.locations) {
    l.losses.forEach((x, f) => {
      rows.push([l.PortNumber, l.AccNumber, l.LocNumber, ...(several ? [f] : []), x.loss_gul, x.loss_il, ...(r.has_reinsurance ? [x.loss_ri] : [])]);
    });
  }
  return { header, rows };
}
