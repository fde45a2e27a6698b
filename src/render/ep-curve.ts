// A lab run's exceedance probability curves from lab-metrics/1 (domain/lab/engine/metrics.ts):
// OEP and AEP loss by return period on a log-scale axis, each with its TVaR as a dashed line. Only
// the published points are drawn (the metrics withhold a return period the run has too few periods
// for; the desc names them). Pure.
import type { LabMetrics, ReturnPeriodLoss } from '../domain/lab/engine/metrics.js';
import { el, linear, niceTicks, polyline, shortAmount, svgDocument, text, tooltip } from './svg.js';
import { headingLines } from './text-width.js';

const WIDTH = 820;
const HEIGHT = 460;
const PLOT = { left: 84, right: 150, top: 64, bottom: 60 } as const;
const AXIS = '#333333';

export type EpCurveInput = Pick<LabMetrics, 'perspective' | 'periods' | 'exceedance' | 'average_annual_loss'>;

interface Series { readonly kind: string; readonly label: string; readonly colour: string; readonly dashed: boolean; readonly points: ReadonlyArray<{ rp: number; loss: number }> }

/**
 * `heading` titles the picture; `subject` (e.g. the run's id) opens the line under it; `currency`
 * (ISO 4217, or null when the values named none) names the money axis and the average annual loss.
 */
export function epCurve(metrics: EpCurveInput, heading: string, subject?: string, currency: string | null = null): string {
  const { oep, aep, withheld } = metrics.exceedance;
  const at = (points: readonly ReturnPeriodLoss[], member: 'loss' | 'tvar') => points.map((p) => ({ rp: p.return_period, loss: p[member] }));
  const series: Series[] = [
    { kind: 'oep', label: 'OEP', colour: '#2f6db5', dashed: false, points: at(oep, 'loss') },
    { kind: 'oep-tvar', label: 'OEP TVaR', colour: '#2f6db5', dashed: true, points: at(oep, 'tvar') },
    { kind: 'aep', label: 'AEP', colour: '#c0392b', dashed: false, points: at(aep, 'loss') },
    { kind: 'aep-tvar', label: 'AEP TVaR', colour: '#c0392b', dashed: true, points: at(aep, 'tvar') },
  ];
  const periods = [...new Set([...oep, ...aep].map((p) => p.return_period))].sort((a, b) => a - b);
  // The heading wraps to the picture's width; the plot moves down by what its extra lines take.
  const subtitle = `${subject ? `${subject}: l` : 'L'}oss by return period (${metrics.perspective}, ${metrics.periods} periods); average annual loss ${currency ? `${currency} ` : ''}${shortAmount(metrics.average_annual_loss.mean)}`;
  const lines = headingLines(heading, subtitle, WIDTH - PLOT.left - 20, { title: 15, subtitle: 11 });
  const plotTop = lines.bottom + 20;
  const height = HEIGHT + plotTop - PLOT.top;
  const top = Math.max(1, ...series.flatMap((s) => s.points.map((p) => p.loss)));
  const ticks = niceTicks(0, top, 5);
  const plotRight = WIDTH - PLOT.right;
  const plotBottom = height - PLOT.bottom;
  const lo = Math.log10(periods[0] ?? 1);
  const hi = Math.log10(periods[periods.length - 1] ?? 10);
  const x = (rp: number) => linear(hi > lo ? [lo, hi] : [lo - 1, lo + 1], [PLOT.left, plotRight])(Math.log10(rp));
  const y = linear([0, ticks[ticks.length - 1]!], [plotBottom, plotTop]);

  const body: string[] = [];
  for (const line of lines.title) body.push(text(PLOT.left, line.y, line.text, { 'font-size': 15, 'font-weight': 'bold', class: 'title' }));
  for (const line of lines.subtitle) body.push(text(PLOT.left, line.y, line.text, { 'font-size': 11, fill: '#555555', class: 'subtitle' }));
  for (const t of ticks) {
    body.push(el('line', { x1: PLOT.left, x2: plotRight, y1: y(t), y2: y(t), stroke: '#eeeeee' }));
    body.push(text(PLOT.left - 6, y(t) + 4, shortAmount(t), { 'text-anchor': 'end', class: 'tick' }));
  }
  for (const rp of periods) {
    body.push(el('line', { x1: x(rp), x2: x(rp), y1: plotBottom, y2: plotBottom + 4, stroke: AXIS }));
    body.push(text(x(rp), plotBottom + 17, String(rp), { 'text-anchor': 'middle', class: 'tick' }));
  }
  body.push(text((PLOT.left + plotRight) / 2, height - 18, 'return period (years, log scale)', { 'text-anchor': 'middle' }));
  body.push(text(18, (plotTop + plotBottom) / 2, currency ? `loss (${currency})` : 'loss', { transform: `rotate(-90 18 ${(plotTop + plotBottom) / 2})`, 'text-anchor': 'middle' }));
  body.push(el('line', { x1: PLOT.left, x2: plotRight, y1: plotBottom, y2: plotBottom, stroke: AXIS }));
  body.push(el('line', { x1: PLOT.left, x2: PLOT.left, y1: plotTop, y2: plotBottom, stroke: AXIS }));

  if (periods.length === 0) {
    body.push(text((PLOT.left + plotRight) / 2, (plotTop + plotBottom) / 2, 'No return period is published: the run has too few periods.', { 'text-anchor': 'middle', fill: '#555555' }));
  }
  // AEP is drawn first and OEP over it with open marks: where the two coincide (one event a year at
  // most), the OEP still shows as rings around the AEP's dots.
  for (const s of [...series.filter((c) => !c.kind.startsWith('oep')), ...series.filter((c) => c.kind.startsWith('oep'))]) {
    const open = s.kind.startsWith('oep');
    const xy = s.points.map((p) => [x(p.rp), y(p.loss)] as const);
    const marks = s.points.map((p, j) => el('circle', {
      class: 'point', 'data-return-period': String(p.rp), 'data-loss': String(p.loss), cx: xy[j]![0], cy: xy[j]![1],
      ...(open ? { r: 4.5, fill: 'white', stroke: s.colour, 'stroke-width': 1.5 } : { r: 3, fill: s.colour }),
    }, tooltip(`${s.label} ${p.rp} years: ${currency ? `${currency} ` : ''}${p.loss}`)));
    body.push(el('g', { class: `curve ${s.kind}` }, polyline(xy, { stroke: s.colour, 'stroke-width': 2, ...(s.dashed ? { 'stroke-dasharray': '6 3' } : {}) }), ...marks));
  }
  series.forEach((s, i) => {
    const ly = plotTop + 8 + i * 20;
    body.push(el('line', { x1: plotRight + 12, x2: plotRight + 36, y1: ly, y2: ly, stroke: s.colour, 'stroke-width': 2, ...(s.dashed ? { 'stroke-dasharray': '6 3' } : {}) }));
    body.push(text(plotRight + 42, ly + 4, s.label));
  });

  const desc = `${subject ? `${subject}: ` : ''}OEP and AEP with TVaR at ${periods.length === 0 ? 'no return period' : `return periods ${periods.join(', ')}`} (lab-metrics/1, ${metrics.exceedance.rule})` +
    (withheld.length > 0 ? `; withheld (too few periods): ${withheld.map((w) => `${w.return_period} (needs ${w.periods_needed})`).join(', ')}.` : '.');
  return svgDocument({ width: WIDTH, height: height }, heading, desc, body);
}
