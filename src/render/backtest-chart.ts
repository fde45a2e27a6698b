// A backtest as a bar chart: the payout of each year of the window, drawn from the artifact the
// JSON answer is (domain/backtest/artifact.ts). A year with no record is a shaded band, never a
// zero bar; a partial year's payout on its partial record is a pale bar (shown, not counted, as the
// artifact says). Horizontal lines: the annual aggregate attachment, the per-occurrence limit and
// the annual cap when it differs, all in the structure's currency on the payout axis. Pure.
import type { BacktestArtifact, YearOut } from '../domain/backtest/artifact.js';
import { el, linear, niceTicks, shortAmount, svgDocument, text, tooltip } from './svg.js';
import { headingLines, type HeadingLine } from './text-width.js';

const WIDTH = 860;
const HEIGHT = 460;
const PLOT = { left: 80, right: 150, top: 64, bottom: 80 } as const;
const COLOURS = { complete: '#2f6db5', partial: '#a9c4e6', missing: '#e3e3e3', attachment: '#c0392b', limit: '#1e8449', cap: '#7d3c98', axis: '#333333', grid: '#eeeeee' };

/** The artifact's members a chart reads. */
export type BacktestChartInput = Pick<BacktestArtifact, 'feed' | 'window' | 'currency' | 'years'> & {
  readonly id?: string;
  readonly structure: Record<string, unknown>;
};

interface Line { readonly kind: 'attachment' | 'limit' | 'cap'; readonly label: string; readonly value: number }

/** The year's bar height in money: its payout, or what its partial record would have paid. */
function shown(y: YearOut): number | null {
  if (y.record === 'missing') return null;
  if (y.record === 'partial') return (y.payout_on_partial_record as number | null | undefined) ?? 0;
  return y.payout ?? 0;
}

/** The payout function in words, for the subtitle (the trigger's own unit). */
function payoutWords(structure: Record<string, unknown>): string {
  const trigger = structure.trigger as { payout?: Record<string, unknown>; measurement?: { variable?: string; unit?: string } } | undefined;
  const payout = trigger?.payout;
  const m = trigger?.measurement;
  const unit = m?.unit ? ` ${m.unit}` : '';
  const variable = m?.variable ?? 'index';
  if (payout?.function === 'ladder') {
    const levels = (payout.levels as { at_least: number; fraction: number }[]).map((l) => `${l.at_least}${unit} pays ${l.fraction * 100}%`);
    return `${variable}: ladder, ${levels.join('; ')} of the limit`;
  }
  if (payout?.function === 'step_linear') {
    return `${variable}: ${Number(((payout.step as number) * 100).toPrecision(10))}% of the limit at ${payout.attachment as number}${unit} (trigger), then linear to ${payout.exhaustion as number}${unit} (exhaustion)`;
  }
  if (payout?.function === 'linear') return `${variable}: linear from ${payout.attachment as number}${unit} (trigger) to ${payout.exhaustion as number}${unit} (exhaustion)`;
  return variable;
}

/** Year labels every 1, 2, 5, 10, 20, 25 or 50 years: at most about 20 on the axis. */
function labelStep(years: number): number {
  return [1, 2, 5, 10, 20, 25, 50, 100].find((s) => years / s <= 20) ?? 100;
}

/** A bar, or a year's shaded band, in the chart's own units (WIDTH × HEIGHT, y down). */
export interface ChartYear {
  readonly year: number;
  readonly record: YearOut['record'];
  /** The amount drawn: null for a year with no record (a band). */
  readonly value: number | null;
  readonly label: string;
  readonly rect: { readonly x: number; readonly y: number; readonly width: number; readonly height: number };
  readonly colour: string;
}

/**
 * The chart's geometry, from the artifact's numbers: the pure part the SVG writer here and the PDF
 * writer (pdf.ts) both draw, so the two pictures of one backtest are the same picture.
 */
export interface BacktestChartLayout {
  readonly width: number;
  readonly height: number;
  readonly plot: { readonly left: number; readonly right: number; readonly top: number; readonly bottom: number };
  readonly title: string;
  readonly subtitle: string;
  /** The title and subtitle wrapped to the picture's width, with their baselines: never cut. */
  readonly titleLines: readonly HeadingLine[];
  readonly subtitleLines: readonly HeadingLine[];
  readonly currency: string;
  readonly ticks: readonly { readonly value: number; readonly y: number; readonly label: string }[];
  readonly years: readonly ChartYear[];
  readonly yearLabels: readonly { readonly x: number; readonly label: string }[];
  readonly lines: readonly (Line & { readonly y: number; readonly colour: string; readonly caption: string })[];
  readonly legend: readonly { readonly x: number; readonly colour: string; readonly words: string }[];
  readonly colours: typeof COLOURS;
  readonly desc: string;
  readonly peril: string;
}

export function backtestChartLayout(artifact: BacktestChartInput): BacktestChartLayout {
  const { currency, years, feed, window } = artifact;
  const financial = artifact.structure.financial_structure as { limit: number; attachment: number; annual_cap: number };
  const peril = (artifact.structure.peril as { code: string }).code;
  const lines: Line[] = [
    ...(financial.attachment > 0 ? [{ kind: 'attachment' as const, label: 'attachment', value: financial.attachment }] : []),
    { kind: 'limit', label: 'limit', value: financial.limit },
    ...(financial.annual_cap !== financial.limit ? [{ kind: 'cap' as const, label: 'annual cap', value: financial.annual_cap }] : []),
  ];
  const title = `${peril} backtest: ${feed.feed_id} ${feed.version}, ${window.from_year} to ${window.to_year}`;
  const subtitle = `Payout by year (${currency}), net of the annual aggregate. Trigger: ${payoutWords(artifact.structure)}`;
  // The heading wraps to the picture's width; the plot moves down by what its extra lines take.
  const heading = headingLines(title, subtitle, WIDTH - PLOT.left - 20, { title: 15, subtitle: 11 });
  const plotTop = heading.bottom + 20;
  const height = HEIGHT + plotTop - PLOT.top;
  const top = Math.max(...years.map((y) => shown(y) ?? 0), ...lines.map((l) => l.value), 1);
  const ticks = niceTicks(0, top, 5);
  const plotRight = WIDTH - PLOT.right;
  const plotBottom = height - PLOT.bottom;
  const y = linear([0, ticks[ticks.length - 1]!], [plotBottom, plotTop]);
  const band = (plotRight - PLOT.left) / Math.max(years.length, 1);
  const step = labelStep(years.length);
  const chartYears: ChartYear[] = [];
  const yearLabels: { x: number; label: string }[] = [];
  // A band overlaps the next by half a pixel, so a run of missing years reads as one block.
  years.forEach((yr, i) => {
    const x = PLOT.left + i * band;
    const value = shown(yr);
    const label = value === null ? `${yr.year}: no record` : yr.record === 'partial'
      ? `${yr.year}: partial record, would have paid ${value} ${currency} (not counted)` : `${yr.year}: ${value} ${currency}`;
    chartYears.push(value === null
      ? { year: yr.year, record: yr.record, value, label, rect: { x, y: plotTop, width: band + 0.5, height: plotBottom - plotTop }, colour: COLOURS.missing }
      : { year: yr.year, record: yr.record, value, label, rect: { x: x + band * 0.15, y: y(value), width: band * 0.7, height: plotBottom - y(value) }, colour: COLOURS[yr.record === 'partial' ? 'partial' : 'complete'] });
    if (yr.year % step === 0 || (i === 0 && years.length < step)) yearLabels.push({ x: x + band / 2, label: String(yr.year) });
  });
  const missing = years.filter((yr) => yr.record === 'missing').map((yr) => yr.year);
  const partial = years.filter((yr) => yr.record === 'partial').map((yr) => yr.year);
  const desc = `Backtest${artifact.id ? ` ${artifact.id}` : ''}: payout by year of ${years.length} years, ${currency}. ` +
    `Years with no record: ${missing.length === 0 ? 'none' : missing.join(', ')}. Partial years: ${partial.length === 0 ? 'none' : partial.join(', ')}. ` +
    `Lines: ${lines.map((l) => `${l.label} ${l.value}`).join(', ')}. History, not a forecast.`;
  const legend: Array<[string, string]> = [[COLOURS.complete, 'payout (complete record)'], [COLOURS.partial, 'partial record: shown, not counted'], [COLOURS.missing, 'no record (never filled)']];
  return {
    width: WIDTH,
    height,
    plot: { left: PLOT.left, right: plotRight, top: plotTop, bottom: plotBottom },
    title,
    subtitle,
    titleLines: heading.title,
    subtitleLines: heading.subtitle,
    currency,
    ticks: ticks.map((t) => ({ value: t, y: y(t), label: shortAmount(t) })),
    years: chartYears,
    yearLabels,
    lines: lines.map((l) => ({ ...l, y: y(l.value), colour: COLOURS[l.kind], caption: `${l.label} ${shortAmount(l.value)}` })),
    legend: legend.map(([colour, words], i) => ({ x: PLOT.left + i * 230, colour, words })),
    colours: COLOURS,
    desc,
    peril,
  };
}

export function backtestChart(artifact: BacktestChartInput): string {
  const layout = backtestChartLayout(artifact);
  const { plot, ticks } = layout;
  const body: string[] = [];
  for (const line of layout.titleLines) body.push(text(plot.left, line.y, line.text, { 'font-size': 15, 'font-weight': 'bold', class: 'title' }));
  for (const line of layout.subtitleLines) body.push(text(plot.left, line.y, line.text, { 'font-size': 11, fill: '#555555', class: 'subtitle' }));

  // Amount axis with its grid.
  for (const t of ticks) {
    body.push(el('line', { x1: plot.left, x2: plot.right, y1: t.y, y2: t.y, stroke: COLOURS.grid }));
    body.push(text(plot.left - 6, t.y + 4, t.label, { 'text-anchor': 'end', class: 'tick' }));
  }
  body.push(text(18, (plot.top + plot.bottom) / 2, `payout (${layout.currency})`, { transform: `rotate(-90 18 ${(plot.top + plot.bottom) / 2})`, 'text-anchor': 'middle' }));

  // One group per year of the window: a shaded band (no record) or a bar, then the year labels.
  let label = 0;
  layout.years.forEach((yr) => {
    const mark = yr.value === null
      ? el('rect', { class: 'missing', ...yr.rect, fill: yr.colour })
      : el('rect', { class: yr.record === 'partial' ? 'bar partial' : 'bar', 'data-payout': String(yr.value), ...yr.rect, fill: yr.colour });
    body.push(el('g', { class: 'year', 'data-year': String(yr.year), 'data-record': yr.record }, tooltip(yr.label), mark));
    const tick = layout.yearLabels[label];
    if (tick && tick.label === String(yr.year)) {
      label += 1;
      body.push(el('line', { x1: tick.x, x2: tick.x, y1: plot.bottom, y2: plot.bottom + 4, stroke: COLOURS.axis }));
      body.push(text(tick.x, plot.bottom + 17, tick.label, { 'text-anchor': 'middle', class: 'tick' }));
    }
  });

  // The terms' lines, labelled at the right.
  for (const l of layout.lines) {
    body.push(el('line', { class: `line ${l.kind}`, 'data-value': String(l.value), x1: plot.left, x2: plot.right, y1: l.y, y2: l.y, stroke: l.colour, 'stroke-width': 1.5, 'stroke-dasharray': '6 3' }));
    body.push(text(plot.right + 6, l.y + 4, l.caption, { fill: l.colour }));
  }
  body.push(el('line', { x1: plot.left, x2: plot.right, y1: plot.bottom, y2: plot.bottom, stroke: COLOURS.axis }));
  body.push(el('line', { x1: plot.left, x2: plot.left, y1: plot.top, y2: plot.bottom, stroke: COLOURS.axis }));

  // Legend.
  for (const item of layout.legend) {
    body.push(el('rect', { x: item.x, y: layout.height - 30, width: 12, height: 12, fill: item.colour }));
    body.push(text(item.x + 18, layout.height - 20, item.words));
  }
  return svgDocument({ width: layout.width, height: layout.height }, `${layout.peril} backtest payouts by year`, layout.desc, body);
}
