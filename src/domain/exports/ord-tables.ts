// A lab run's lab-metrics/1 as Open Results Data tables (ORD 1.0.0, OasisLMF/ODS_OpenResultsData,
// Schema/ORD_Data_Types.csv at a7cc406: each table's fields in order; oasislmf writes the same
// headers, pytools elt/data.py, plt/data.py, aal/data.py, lec/data.py), one perspective at a time
// (ORD's gul, il, ri), SummaryId 1 (the run's whole portfolio is one summary). An ORD-named table
// has exactly ORD's columns in ORD's order; a figure the run does not hold is an empty field, never
// a stand-in. The year loss table, which ORD has no table for, has its own name and columns. Pure.
import type { LabMetrics, OccurrenceRow } from '../lab/engine/metrics.js';
import { csvTable, type Cell } from './csv.js';

/** The tables served: ORD's EPT, MELT, MPLT and ALT, and the lab's year loss table (not ORD). */
export const ORD_TABLES = ['ept', 'melt', 'mplt', 'alt', 'ylt'] as const;
export type OrdTable = (typeof ORD_TABLES)[number];

/** ORD perspectives and the member of a lab run's result that holds each. */
export const ORD_PERSPECTIVES = ['gul', 'il', 'ri'] as const;
export type OrdPerspective = (typeof ORD_PERSPECTIVES)[number];

/** ORD's columns, in ORD_Data_Types.csv's order; the sample and quantile tables are designs not yet served (docs/exports.md). */
export const ORD_COLUMNS = {
  ept: ['SummaryId', 'EPCalc', 'EPType', 'ReturnPeriod', 'Loss'],
  melt: ['EventId', 'SummaryId', 'SampleType', 'EventRate', 'ChanceOfLoss', 'MeanLoss', 'SDLoss', 'MaxLoss', 'FootprintExposure',
    'MeanImpactedExposure', 'MaxImpactedExposure'],
  mplt: ['Period', 'PeriodWeight', 'EventId', 'Year', 'Month', 'Day', 'Hour', 'Minute', 'SummaryId', 'SampleType', 'ChanceOfLoss', 'MeanLoss',
    'SDLoss', 'MaxLoss', 'FootprintExposure', 'MeanImpactedExposure', 'MaxImpactedExposure'],
  alt: ['SummaryId', 'SampleType', 'MeanLoss', 'SDLoss'],
  selt: ['EventId', 'SummaryId', 'SampleId', 'Loss', 'ImpactedExposure'],
  qelt: ['EventId', 'SummaryId', 'Quantile', 'Loss'],
  splt: ['Period', 'PeriodWeight', 'EventId', 'Year', 'Month', 'Day', 'Hour', 'Minute', 'SummaryId', 'SampleId', 'Loss', 'ImpactedExposure'],
  qplt: ['Period', 'PeriodWeight', 'EventId', 'Year', 'Month', 'Day', 'Hour', 'Minute', 'SummaryId', 'Quantile', 'Loss'],
} as const;

/** The year loss table's own columns (not ORD: one row per period, which ORD has no table for). */
export const YLT_COLUMNS = ['period', 'period_weight', 'loss', 'max_event_loss', 'events'] as const;

const SUMMARY_ID = 1;
/** ORD EPCalc: 1 mean damage (analytical), 2 full uncertainty, 3 per-sample mean, 4 sample mean. */
export const EP_CALC = { mean_damage: 1, full_uncertainty: 2, per_sample_mean: 3, sample_mean: 4 } as const;
/** ORD EPType: 1 OEP, 2 OEP TVaR, 3 AEP, 4 AEP TVaR. */
const EP_TYPE = { oep: 1, oep_tvar: 2, aep: 3, aep_tvar: 4 } as const;
/** ORD SampleType: 1 analytical mean, 2 sample mean. */
const SAMPLE_TYPE = { analytical: 1, sampled: 2 } as const;

/**
 * Whether a sampled run's OEP is ORD's sample-mean OEP (EPCalc 4). The run keeps each event's mean
 * over the samples; a period's largest event mean is the mean over samples of its largest event loss
 * (what oasislmf's sample-mean OEP takes, pytools lec/aggreports/outputs/sample_mean.py) only when
 * the period has one event with a loss. The AEP always is: a mean of sums is the sum of the means.
 */
export function sampleMeanOepHolds(metrics: LabMetrics): boolean {
  return metrics.ylt.every((y) => y.events <= 1);
}

/** The EPCalc rows a run's metrics give: EPCalc 1 for analytical runs, 4 for sampled ones (see docs/exports.md). */
function eptRows(metrics: LabMetrics, sampled: boolean): Cell[][] {
  const rows: Cell[][] = [];
  const calc = sampled ? EP_CALC.sample_mean : EP_CALC.mean_damage;
  const curve = (points: LabMetrics['exceedance']['oep'], loss: number, tvar: number) => {
    for (const p of points) rows.push([SUMMARY_ID, calc, loss, p.return_period, p.loss]);
    for (const p of points) rows.push([SUMMARY_ID, calc, tvar, p.return_period, p.tvar]);
  };
  if (!sampled || sampleMeanOepHolds(metrics)) curve(metrics.exceedance.oep, EP_TYPE.oep, EP_TYPE.oep_tvar);
  curve(metrics.exceedance.aep, EP_TYPE.aep, EP_TYPE.aep_tvar);
  return rows;
}

/**
 * An event's moment columns, from ChanceOfLoss to MaxImpactedExposure. The analytical row is written
 * as oasislmf writes it (pytools elt/manager.py: ChanceOfLoss 0 and SDLoss 0 on SampleType 1); a
 * sampled run keeps each event's mean over its samples and not their spread, so ChanceOfLoss and
 * SDLoss are empty. The run keeps no maximum possible loss and no exposure of the footprint, so
 * MaxLoss and the exposure columns are empty.
 */
function momentCells(loss: number, sampled: boolean): Cell[] {
  return sampled
    ? [null, loss, null, null, null, null, null]
    : [0, loss, 0, null, null, null, null];
}

/**
 * An occurrence's date columns (Year, Month, Day, Hour, Minute) as the lane's occurrence table gives
 * them. A lane that places events in periods without a date gives only the year, which is the period
 * (every lab period is one simulated year); the rest are empty.
 */
function dateCells(o: OccurrenceRow): Cell[] {
  if (o.date) return [o.date.year, o.date.month, o.date.day, o.date.hour, o.date.minute];
  return [o.period, null, null, null, null];
}

/**
 * One table of one perspective's metrics; `sampled` when the run drew samples (its event losses are
 * means over the samples), else they are analytical mean damage.
 * - EPT: the published OEP and AEP points and their TVaR (EPType 1–4), in return period order;
 *   EPCalc 1 (mean damage) or 4 (sample mean), the OEP rows of a sampled run only where they are
 *   ORD's sample-mean OEP (sampleMeanOepHolds).
 * - MELT: one row per event with a loss; EventRate its occurrences over the periods (ORD: the rate
 *   the occurrence table gives the event), MeanLoss the loss of one occurrence.
 * - MPLT: one row per occurrence of an event with a loss (metrics.occurrences), its period weight
 *   1/periods (oasislmf's without a periods file), its date, and its event's moments.
 * - ALT: the average annual loss; SDLoss the standard deviation of the analytical period losses
 *   (n - 1, as pytools aal/manager.py calculate_mean_stddev), empty for a sampled run, whose ORD SDLoss
 *   is over every period and sample and is not kept.
 * - ylt (not ORD): one row per period with a loss, its summed loss, largest event loss and events.
 * Returns null when the run's metrics do not hold the table (an MPLT of a run kept before its
 * occurrences were).
 */
export function ordCsv(metrics: LabMetrics, table: OrdTable, sampled: boolean): string | null {
  const kind = sampled ? 'sampled' : 'analytical';
  if (table === 'ept') return csvTable(ORD_COLUMNS.ept, eptRows(metrics, sampled));
  if (table === 'melt') {
    return csvTable(ORD_COLUMNS.melt, metrics.elt.map((e) => [
      e.event_id, SUMMARY_ID, SAMPLE_TYPE[kind], e.occurrences / metrics.periods, ...momentCells(e.loss, sampled),
    ]));
  }
  if (table === 'mplt') {
    if (!metrics.occurrences) return null;
    const loss = new Map(metrics.elt.map((e) => [e.event_id, e.loss]));
    const weight = 1 / metrics.periods;
    return csvTable(ORD_COLUMNS.mplt, metrics.occurrences.map((o) => [
      o.period, weight, o.event_id, ...dateCells(o), SUMMARY_ID, SAMPLE_TYPE[kind], ...momentCells(loss.get(o.event_id)!, sampled),
    ]));
  }
  if (table === 'alt') {
    const aal = metrics.average_annual_loss;
    return csvTable(ORD_COLUMNS.alt, [[SUMMARY_ID, SAMPLE_TYPE[kind], aal.mean, sampled ? null : aal.standard_deviation]]);
  }
  const weight = 1 / metrics.periods;
  return csvTable(YLT_COLUMNS, metrics.ylt.map((y) => [y.period, weight, y.loss, y.max_event_loss, y.events]));
}
