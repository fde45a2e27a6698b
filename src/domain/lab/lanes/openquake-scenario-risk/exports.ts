// The scenario-risk run's tables as CSV under OpenQuake's export names and columns:
// aggrisk (loss_type, loss_value, loss_ratio), risk_by_event (event_id, loss, loss_type),
// avg_losses (asset_id, taxonomy, lon, lat, loss_type, mean, stddev: OpenQuake's avg_losses-rlzs
// with the standard deviation its asset-loss.csv carried) and insured_losses (the same columns
// over <loss type>_ins). Read from the stored result, as every export is. Pure.
import type { LaneTable } from '../../lane.js';
import type { AggRiskRow, AssetLossRow, EventLossRow } from './scenario-risk.js';

type Stored = Readonly<Record<string, unknown>>;

const ASSET_HEADER = ['asset_id', 'taxonomy', 'lon', 'lat', 'loss_type', 'mean', 'stddev'];

function assetTable(member: 'avg_losses' | 'insured_losses', suffix: string, description: string): LaneTable {
  return {
    description,
    rows: (result: Stored) => {
      const rows = result[member] as AssetLossRow[] | undefined;
      return rows && { header: ASSET_HEADER, rows: rows.map((r) => [r.asset_id, r.taxonomy, r.lon, r.lat, `${r.loss_type}${suffix}`, r.mean, r.stddev]) };
    },
  };
}

export const SCENARIO_RISK_TABLES: Readonly<Record<string, LaneTable>> = {
  aggrisk: {
    description: 'OpenQuake\'s aggrisk: loss_type (and <loss type>_ins), loss_value (mean over the events of the portfolio loss), loss_ratio',
    rows: (result: Stored) => {
      const rows = result.aggrisk as AggRiskRow[] | undefined;
      return rows && { header: ['loss_type', 'loss_value', 'loss_ratio'], rows: rows.map((r) => [r.loss_type, r.loss_value, r.loss_ratio]) };
    },
  },
  risk_by_event: {
    description: 'OpenQuake\'s risk_by_event: event_id, loss, loss_type, every event with a loss',
    rows: (result: Stored) => {
      const rows = result.risk_by_event as EventLossRow[] | undefined;
      return rows && { header: ['event_id', 'loss', 'loss_type'], rows: rows.map((r) => [r.event_id, r.loss, r.loss_type]) };
    },
  },
  avg_losses: assetTable('avg_losses', '', 'Average losses per asset: asset_id, taxonomy, lon, lat, loss_type, mean, stddev (over the events)'),
  insured_losses: assetTable('insured_losses', '_ins', 'Insured losses per asset, from its deductible and insuranceLimit: asset_id, taxonomy, lon, lat, loss_type (<loss type>_ins), mean, stddev'),
};
