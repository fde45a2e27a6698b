// A lab result as it is stored and published: its losses named in the exposure's currency and
// rounded to that currency's minor unit (cents for most; JPY whole units, BHD thousandths). Lanes
// compute every figure in full double precision, and a figure is derived from the exact values (an
// AAL from the exact period losses, a return-period loss from the exact ranks) before any is
// rounded; only what is published is rounded, so `205600.00082459996` reads `205600`.
import { LAB_METRICS_SCHEMA } from '../../../kernel/versions.js';
import { minorUnits } from '../../exposure/minor-units.js';
import type { LabMetrics, ReturnPeriodLoss, AalFigures, CompactMetrics } from './metrics.js';

/** An ISO 4217 code, or null when the exposure named none (its points' values are then in their own unit). */
export type LossCurrency = string | null;

/** The result with its currency named and every lab-metrics/1 block in it rounded to the currency's minor unit. */
export function publishedResult(result: Record<string, unknown>, currency: LossCurrency): Record<string, unknown> {
  const round = minorRounder(minorUnits(currency));
  return { ...(roundMetricsIn(result, round) as Record<string, unknown>), currency };
}

function minorRounder(decimals: number): (x: number) => number {
  const scale = 10 ** decimals;
  // +0 turns a -0 (a rounded tiny negative noise) into 0.
  return (x) => (Number.isFinite(x) ? Math.round(x * scale) / scale + 0 : x);
}

/** Every lab-metrics/1 block, wherever a lane puts it (metrics, per perspective...), rounded; the rest as it is. */
function roundMetricsIn(value: unknown, round: (x: number) => number): unknown {
  if (Array.isArray(value)) return value.map((v) => roundMetricsIn(v, round));
  if (value === null || typeof value !== 'object') return value;
  const o = value as Record<string, unknown>;
  if (o.schema === LAB_METRICS_SCHEMA) return roundMetrics(o as unknown as LabMetrics, round);
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, roundMetricsIn(v, round)]));
}

function roundAal(a: AalFigures, round: (x: number) => number): AalFigures {
  return {
    mean: round(a.mean),
    standard_deviation: a.standard_deviation === null ? null : round(a.standard_deviation),
    standard_error: a.standard_error === null ? null : round(a.standard_error),
  };
}

const roundCurve = (curve: ReturnPeriodLoss[], round: (x: number) => number) =>
  curve.map((p) => ({ ...p, loss: round(p.loss), tvar: round(p.tvar) }));

function roundCompact<T extends CompactMetrics>(m: T, round: (x: number) => number): T {
  return { ...m, average_annual_loss: roundAal(m.average_annual_loss, round), oep: roundCurve(m.oep, round), aep: roundCurve(m.aep, round) };
}

/** The money of a metrics block rounded: AAL and its spread, curves and TVaR, blocks, places' AAL, events and years. Shares, ratios and counts as they are. */
function roundMetrics(m: LabMetrics, round: (x: number) => number): LabMetrics {
  return {
    ...m,
    average_annual_loss: roundAal(m.average_annual_loss, round),
    exceedance: { ...m.exceedance, oep: roundCurve(m.exceedance.oep, round), aep: roundCurve(m.exceedance.aep, round) },
    blocks: m.blocks === null ? null : {
      ...m.blocks,
      aal_by_block: m.blocks.aal_by_block.map((b) => ({ ...b, aal: round(b.aal) })),
      min: round(m.blocks.min), max: round(m.blocks.max), mean: round(m.blocks.mean),
    },
    places: m.places.map((p) => ({ ...p, aal: round(p.aal) })),
    largest_events: m.largest_events.map((e) => ({ ...e, loss: round(e.loss) })),
    elt: m.elt.map((e) => ({ ...e, loss: round(e.loss) })),
    ylt: m.ylt.map((y) => ({ ...y, loss: round(y.loss), max_event_loss: round(y.max_event_loss) })),
    sensitivity: m.sensitivity === null ? null : {
      ...m.sensitivity,
      base_aal: round(m.sensitivity.base_aal),
      variants: m.sensitivity.variants.map((v) => roundCompact(v, round)),
    },
  };
}
