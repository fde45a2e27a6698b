// The scenario-risk run's tables as CSV under OpenQuake's export names and columns:
// aggrisk (loss_type, loss_value, loss_ratio), risk_by_event (event_id, loss, loss_type),
// avg_losses (asset_id, taxonomy, lon, lat, loss_type, mean, stddev: OpenQuake's avg_losses-rlzs
// with the standard deviation its asset-loss.csv carried) and insured_losses (the same columns
// over <loss type>_ins). Written from the stored result, as every export is. Pure.
import { csvTable } from '../../../exports/csv.js';
import type { AggRiskRow, AssetLossRow, EventLossRow } from './scenario-risk.js';

export const SCENARIO_RISK_TABLES = ['aggrisk', 'risk_by_event', 'avg_losses', 'insured_losses'] as const;
export type ScenarioRiskTable = (typeof SCENARIO_RISK_TABLES)[number];

interface StoredResult {
  aggrisk: AggRiskRow[];
  risk_by_event: EventLossRow[];
  avg_losses: AssetLossRow[];
  insured_losses: AssetLossRow[];
}

const assetRows = (rows: readonly AssetLossRow[], suffix: string) =>
  rows.map((r) => [r.asset_id, r.taxonomy, r.lon, r.lat, `${r.loss_type}${suffix}`, r.mean, r.stddev]);

export function scenarioRiskCsv(result: StoredResult, table: ScenarioRiskTable): string {
  if (table === 'aggrisk') return csvTable(['loss_type', 'loss_value', 'loss_ratio'], result.aggrisk.map((r) => [r.loss_type, r.loss_value, r.loss_ratio]));
  if (table === 'risk_by_event') return csvTable(['event_id', 'loss', 'loss_type'], result.risk_by_event.map((r) => [r.event_id, r.loss, r.loss_type]));
  const header = ['asset_id', 'taxonomy', 'lon', 'lat', 'loss_type', 'mean', 'stddev'];
  if (table === 'avg_losses') return csvTable(header, assetRows(result.avg_losses, ''));
  return csvTable(header, assetRows(result.insured_losses, '_ins'));
}
