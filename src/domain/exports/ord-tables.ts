// A lab run's lab-metrics/1 as ORD-style CSV tables (Oasis Open Results Data, as ktools and
// oasislmf write them): EPT, ELT (moment ELT), PLT (moment PLT) and ALT, one perspective at a time
// (ORD's gul, il, ri), SummaryId 1 (the run's whole portfolio is one summary). Only columns the
// metrics hold are written; ORD columns the run does not keep are named in UNAVAILABLE. Pure.
import type { LabMetrics } from '../lab/engine/metrics.js';
import { csvTable, type Cell } from './csv.js';

export const ORD_TABLES = ['ept', 'elt', 'plt', 'alt'] as const;
export type OrdTable = (typeof ORD_TABLES)[number];

/** ORD perspectives and the member of a lab run's result that holds each. */
export const ORD_PERSPECTIVES = ['gul', 'il', 'ri'] as const;
export type OrdPerspective = (typeof ORD_PERSPECTIVES)[number];

const SUMMARY_ID = 1;
/** ORD EPCalc: 1 mean damage loss (analytical), 2 full uncertainty (sampled). */
const EP_CALC = { analytical: 1, sampled: 2 } as const;
/** ORD EPType: 1 OEP, 2 OEP TVaR, 3 AEP, 4 AEP TVaR. */
const EP_TYPE = { oep: 1, oep_tvar: 2, aep: 3, aep_tvar: 4 } as const;
/** ORD SampleType: 1 analytical mean, 2 sample mean. */
const SAMPLE_TYPE = { analytical: 1, sampled: 2 } as const;

export const ORD_COLUMNS: Readonly<Record<OrdTable, readonly string[]>> = {
  ept: ['SummaryId', 'EPCalc', 'EPType', 'ReturnPeriod', 'Loss'],
  elt: ['EventId', 'SummaryId', 'SampleType', 'EventRate', 'MeanLoss'],
  plt: ['Period', 'PeriodWeight', 'SummaryId', 'SampleType', 'MeanLoss', 'MaxLoss', 'EventCount'],
  alt: ['SummaryId', 'SampleType', 'MeanLoss', 'SDLoss'],
};

/** ORD columns of each table that lab-metrics/1 does not hold, so they are not written. */
export const UNAVAILABLE: Readonly<Record<OrdTable, readonly string[]>> = {
  ept: [],
  elt: ['ChanceOfLoss', 'SDLoss', 'MaxLoss', 'FootprintExposure', 'MeanImpactedExposure', 'MaxImpactedExposure'],
  plt: ['EventId', 'Year', 'Month', 'Day', 'Hour', 'Minute', 'ChanceOfLoss', 'SDLoss', 'FootprintExposure', 'MeanImpactedExposure', 'MaxImpactedExposure'],
  alt: [],
};

/**
 * One ORD table of one perspective's metrics; `sampled` when the run drew samples (EPCalc and
 * SampleType 2), else its losses are analytical means (1).
 * - EPT: the published OEP and AEP points and their TVaR (EPType 1–4), in return period order.
 * - ELT: one row per event with a loss: EventRate is its occurrences over the periods, MeanLoss its
 *   loss (one occurrence's).
 * - PLT: one row per period with a loss (the YLT): MeanLoss the period's summed loss, MaxLoss its
 *   largest event loss, EventCount (not ORD) the events with a loss; the run keeps no per-event
 *   period rows, so ORD's EventId and date columns are not available.
 * - ALT: the average annual loss and the standard deviation of the period losses.
 */
export function ordCsv(metrics: LabMetrics, table: OrdTable, sampled: boolean): string {
  const kind = sampled ? 'sampled' : 'analytical';
  const rows: Cell[][] = [];
  if (table === 'ept') {
    const curve = (points: LabMetrics['exceedance']['oep'], loss: number, tvar: number) => {
      for (const p of points) rows.push([SUMMARY_ID, EP_CALC[kind], loss, p.return_period, p.loss]);
      for (const p of points) rows.push([SUMMARY_ID, EP_CALC[kind], tvar, p.return_period, p.tvar]);
    };
    curve(metrics.exceedance.oep, EP_TYPE.oep, EP_TYPE.oep_tvar);
    curve(metrics.exceedance.aep, EP_TYPE.aep, EP_TYPE.aep_tvar);
  } else if (table === 'elt') {
    for (const e of metrics.elt) rows.push([e.event_id, SUMMARY_ID, SAMPLE_TYPE[kind], e.occurrences / metrics.periods, e.loss]);
  } else if (table === 'plt') {
    const weight = 1 / metrics.periods;
    for (const y of metrics.ylt) rows.push([y.period, weight, SUMMARY_ID, SAMPLE_TYPE[kind], y.loss, y.max_event_loss, y.events]);
  } else {
    const aal = metrics.average_annual_loss;
    rows.push([SUMMARY_ID, SAMPLE_TYPE[kind], aal.mean, aal.standard_deviation]);
  }
  return csvTable(ORD_COLUMNS[table], rows);
}
