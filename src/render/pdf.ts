// A submission pack's documents as PDF, drawn with pdfkit from the pack exactly as stored: every
// page watermarked "DRAFT — not an offer" diagonally (pages pdfkit adds as text flows included),
// DejaVu Sans embedded (subset) so the schedule's accents and € print, the backtest chart drawn as
// vectors from the same geometry as its SVG (backtest-chart.ts). The same pack gives the same bytes:
// the document's dates are the pack's as-of date and its file id is derived from them, nothing is
// random. The fonts' bytes are handed in: render/ reads no file.
import PDFDocument from 'pdfkit';
import { canonicalJson } from '../kernel/canonical-json.js';
import type { ExposureSummary } from '../domain/packages/exposure-summary.js';
import { WATERMARK, money, type BacktestExhibit, type DraftSlip, type Pack, type PackDocumentName, type PricingExhibit } from '../domain/packages/pack.js';
import { backtestChartLayout, type BacktestChartInput } from './backtest-chart.js';
import type { YearOut } from '../domain/backtest/artifact.js';

/** A TrueType font, parsed (by fontkit, as pdfkit reads fonts) or as its file's bytes. */
export type PdfFont = Buffer | { readonly postscriptName: string; layout(text: string): unknown };

export interface PdfFonts {
  readonly regular: PdfFont;
  readonly bold: PdfFont;
}

const PAGE = { width: 595.28, height: 841.89, margin: 50 } as const;
const WIDTH = PAGE.width - 2 * PAGE.margin;
const BOTTOM = PAGE.height - PAGE.margin - 14;
const GREY = '#555555';

type Doc = PDFKit.PDFDocument;
type Face = 'regular' | 'bold';

/** The page furniture and the text style, kept here so the watermark drawn on a new page never leaks into the text around it. */
class Writer {
  face: Face = 'regular';
  size = 10;
  colour = '#000000';

  constructor(readonly doc: Doc, readonly pack: Pack) {
    doc.on('pageAdded', () => this.furniture());
  }

  style(face: Face, size: number, colour = '#000000'): this {
    this.face = face; this.size = size; this.colour = colour;
    this.doc.font(face).fontSize(size).fillColor(colour);
    return this;
  }

  /** The watermark across the page and the footer: drawn first on every page, under what follows. */
  private furniture(): void {
    const { doc } = this;
    const { x, y } = doc;
    doc.save();
    doc.rotate(-Math.atan2(PAGE.height, PAGE.width) * 180 / Math.PI, { origin: [PAGE.width / 2, PAGE.height / 2] });
    doc.font('bold').fontSize(54).fillColor('#c0392b').fillOpacity(0.16);
    const w = doc.widthOfString(WATERMARK);
    doc.text(WATERMARK, PAGE.width / 2 - w / 2, PAGE.height / 2 - 27, { lineBreak: false });
    doc.restore();
    doc.save();
    doc.font('regular').fontSize(7).fillColor(GREY);
    doc.text(`${WATERMARK} · Analysis only · pack ${this.pack.id} · as of ${this.pack.as_of}`, PAGE.margin, PAGE.height - PAGE.margin + 10, { lineBreak: false });
    doc.restore();
    doc.font(this.face).fontSize(this.size).fillColor(this.colour);
    doc.x = x; doc.y = y;
  }

  /** A new page unless `height` more points fit on this one. */
  room(height: number): void {
    if (this.doc.y + height > BOTTOM) { this.doc.addPage(); this.doc.x = PAGE.margin; }
  }

  heading(title: string): void {
    this.style('bold', 16).doc.text(title, PAGE.margin, this.doc.y, { width: WIDTH });
    this.style('regular', 8, GREY).doc.text(
      `Submission pack ${this.pack.id} · object ${this.pack.object.id} version ${this.pack.object.version} · price run ${this.pack.price_run.run_id} · as of ${this.pack.as_of}`,
      { width: WIDTH });
    this.style('bold', 9, '#c0392b').doc.text(`${WATERMARK}. ${this.pack.statement}`, { width: WIDTH });
    this.doc.moveDown(0.8);
    this.style('regular', 10);
  }

  section(title: string): void {
    this.room(40);
    this.doc.moveDown(0.5);
    this.style('bold', 11).doc.text(title, PAGE.margin, this.doc.y, { width: WIDTH });
    this.doc.moveDown(0.2);
    this.style('regular', 9);
  }

  para(text: string, size = 9): void {
    this.style('regular', size).doc.text(text, PAGE.margin, this.doc.y, { width: WIDTH });
  }

  /** Label and value lines. */
  pairs(rows: ReadonlyArray<readonly [string, string]>): void {
    for (const [label, value] of rows) {
      this.room(12);
      const y = this.doc.y;
      this.style('bold', 9).doc.text(label, PAGE.margin, y, { width: 150 });
      const after = this.doc.y;
      this.style('regular', 9).doc.text(value, PAGE.margin + 155, y, { width: WIDTH - 155 });
      this.doc.y = Math.max(this.doc.y, after);
    }
  }

  /** A table: a bold header row, then rows, each cell on one line in its column; it continues on the next page with its header again. */
  table(header: readonly string[], widths: readonly number[], rows: ReadonlyArray<readonly string[]>, size = 8): void {
    const line = size + 4;
    const draw = (cells: readonly string[], face: Face) => {
      const y = this.doc.y;
      let x = PAGE.margin;
      this.style(face, size);
      cells.forEach((cell, i) => {
        this.doc.text(cell, x, y, { width: widths[i]! - 4, lineBreak: false, height: line, ellipsis: true });
        x += widths[i]!;
      });
      this.doc.x = PAGE.margin;
      this.doc.y = y + line;
    };
    this.room(line * 3);
    draw(header, 'bold');
    for (const row of rows) {
      if (this.doc.y + line > BOTTOM) { this.doc.addPage(); this.doc.y = PAGE.margin; draw(header, 'bold'); }
      draw(row, 'regular');
    }
    this.style('regular', 9);
  }
}

function amount(value: number | null | undefined, currency: string): string {
  return value === null || value === undefined ? '—' : money(value, currency);
}

function scalar(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number') return String(Number(value.toPrecision(10)));
  if (typeof value === 'string') return value;
  return canonicalJson(value);
}

/** An object's members as label/value rows, nested objects one level down as dotted labels. */
function flatten(value: Record<string, unknown>, prefix = ''): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(value)) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && prefix === '') rows.push(...flatten(v as Record<string, unknown>, `${k}.`));
    else rows.push([`${prefix}${k}`.replace(/_/g, ' '), scalar(v)]);
  }
  return rows;
}

function exposureSummary(w: Writer, d: ExposureSummary): void {
  w.heading(d.title);
  w.section('Counts');
  w.pairs(Object.entries(d.counts).map(([k, v]) => [k.replace(/_/g, ' '), String(v)]));
  w.section('Totals per coverage part and currency');
  w.table(['currency', 'locations', 'buildings', 'contents', 'business interruption', 'other', 'total'], [55, 55, 75, 75, 85, 70, 80],
    d.totals.map((t) => [t.currency, String(t.locations), t.buildings ?? '—', t.contents ?? '—', t.business_interruption ?? '—', t.other ?? '—', t.total ?? '—']));
  w.para(`Schedule totals as the object states them${d.stated_totals.currency ? ` (${d.stated_totals.currency})` : ''}: ${Object.entries(d.stated_totals.values).map(([k, v]) => `${k.replace(/_/g, ' ')} ${scalar(v)}`).join(', ') || 'none'}.`, 8);
  w.section('Geographic spread');
  const box = d.geographic_spread.bounding_box;
  w.pairs([
    ['bounding box', box ? `latitude ${box.min_latitude}° to ${box.max_latitude}°, longitude ${box.min_longitude}° to ${box.max_longitude}°` : 'no location has coordinates'],
    ['countries', d.geographic_spread.countries.map((c) => `${c.country} ${c.locations}`).join(', ') || 'none given'],
    ['countries not listed', String(d.geographic_spread.countries_not_listed)],
    ['without a country', String(d.geographic_spread.locations_without_country)],
  ]);
  w.section(`Largest locations${d.largest_locations_currency ? ` (${d.largest_locations_currency})` : ''}`);
  w.table(['rank', 'ref', 'place', 'latitude', 'longitude', 'total value'], [30, 80, 170, 55, 60, 100],
    d.largest_locations.map((l) => [String(l.rank), l.ref ?? '—', l.place || '—', scalar(l.latitude), scalar(l.longitude), `${l.currency} ${l.total}`]));
  w.section('Source fidelity in brief');
  const f = d.source_fidelity;
  w.pairs([
    ['source files', f.source_files.map((s) => `${s.name} (SHA-256 ${s.sha256.slice(0, 16)}…)`).join('; ') || 'none'],
    ['encoding', f.encoding ?? 'not recorded'],
    ['unmapped columns', f.unmapped_columns.join(', ') || 'none'],
    ['guessed units', f.guessed_units.join('; ') || 'none'],
    ['ambiguous rows', String(f.ambiguous_rows)],
    ['totals rows', `${f.totals_rows.read} read, ${f.totals_rows.matched} matched their column sums`],
  ]);
}

function pricingExhibit(w: Writer, d: PricingExhibit): void {
  const cur = d.technical_premium.currency;
  w.heading(d.title);
  w.section('Technical premium');
  w.style('bold', 12).doc.text(`${money(d.technical_premium.amount, cur)}, rate on line ${scalar(d.technical_premium.rate_on_line)}, ${scalar(d.multiple_of_expected_loss)} × expected loss`, PAGE.margin, w.doc.y, { width: WIDTH });
  w.para(d.statement, 8);
  w.para(`${d.technical_premium.formula} ${d.technical_premium.rounding}`, 8);
  w.section('Model and data');
  w.pairs([
    ['model', `${d.model.name} ${d.model.version}`],
    ['backtest engine', `${d.backtest_engine.name} ${d.backtest_engine.version}`],
    ['price run', d.price_id],
    ...d.feeds_read.map((f): [string, string] => ['feed read', `${f.feed_id} ${f.version} SHA-256 ${f.sha256}`]),
    ['window', `${d.window.from_year} to ${d.window.to_year}`],
  ]);
  w.section('Parameters');
  w.pairs(Object.entries(d.parameters).map(([k, v]) => [k.replace(/_/g, ' '), scalar(v)]));
  w.section('Historical burn');
  w.pairs(flatten(d.historical_burn as unknown as Record<string, unknown>));
  w.section('Fitted view');
  w.pairs(flatten(d.fitted_view as unknown as Record<string, unknown>));
  w.section('Credibility blend');
  w.pairs(flatten(d.credibility as unknown as Record<string, unknown>));
  w.section('Loads');
  w.table(['load', 'parameter', 'value', 'amount'], [110, 130, 80, 175], d.loads.map((l) => [l.name.replace(/_/g, ' '), l.parameter_name, scalar(l.parameter), money(l.amount, cur)]));
  for (const l of d.loads) w.para(`${l.name.replace(/_/g, ' ')}: ${l.basis}`, 8);
  w.section('Record needed and data quality');
  w.pairs([
    ['counted years', `${d.record_needed.counted_years} (minimum ${d.record_needed.minimum_counted_years})`],
    ['publisher flags', d.data_quality.publisher_flags.join(', ') || 'none'],
    ['excluded observations', String(d.data_quality.excluded_observations.length)],
  ]);
  w.para(d.record_needed.rule, 8);
  w.section('Assumptions');
  for (const a of d.assumptions) { w.room(20); w.para(`• ${a}`, 8); }
  w.section('Terms priced');
  w.para(canonicalJson(d.terms_priced), 7);
}

function draftSlip(w: Writer, d: DraftSlip): void {
  w.heading(d.title);
  for (const s of d.sections) {
    w.room(30);
    const y = w.doc.y;
    w.style('bold', 9).doc.text(s.heading, PAGE.margin, y, { width: 130 });
    const after = w.doc.y;
    w.doc.y = y;
    for (const line of s.lines) w.style('regular', 9).doc.text(line, PAGE.margin + 135, w.doc.y, { width: WIDTH - 135 });
    w.doc.y = Math.max(w.doc.y, after) + 6;
  }
  w.section('Trigger in full');
  w.para(canonicalJson(d.trigger_in_full), 7);
}

/** The chart of backtest-chart.ts drawn with pdfkit's path operators, scaled into the page's width. */
function chart(w: Writer, d: BacktestExhibit): void {
  const layout = backtestChartLayout({ ...d, id: d.backtest_id, years: d.years as unknown as YearOut[] } as BacktestChartInput);
  const s = WIDTH / layout.width;
  w.room(layout.height * s + 10);
  const ox = PAGE.margin;
  const oy = w.doc.y;
  const X = (x: number) => ox + x * s;
  const Y = (y: number) => oy + y * s;
  const { doc } = w;
  const label = (text: string, x: number, baseline: number, size: number, anchor: 'start' | 'middle' | 'end', colour = '#333333', face: Face = 'regular') => {
    w.style(face, size, colour);
    const width = doc.widthOfString(text);
    const left = anchor === 'start' ? x : anchor === 'middle' ? x - width / 2 : x - width;
    doc.text(text, left, baseline - size * 0.8, { lineBreak: false });
  };
  const { plot } = layout;
  label(layout.title, X(plot.left), Y(24), 15 * s, 'start', '#000000', 'bold');
  w.style('regular', Math.max(11 * s, 5), GREY);
  doc.text(layout.subtitle, X(plot.left), Y(44) - 11 * s * 0.8, { width: WIDTH - plot.left * s });
  for (const t of layout.ticks) {
    doc.moveTo(X(plot.left), Y(t.y)).lineTo(X(plot.right), Y(t.y)).lineWidth(0.5).strokeColor(layout.colours.grid).stroke();
    label(t.label, X(plot.left - 6), Y(t.y + 4), 12 * s, 'end');
  }
  for (const yr of layout.years) doc.rect(X(yr.rect.x), Y(yr.rect.y), yr.rect.width * s, yr.rect.height * s).fillColor(yr.colour).fill();
  for (const t of layout.yearLabels) {
    doc.moveTo(X(t.x), Y(plot.bottom)).lineTo(X(t.x), Y(plot.bottom + 4)).lineWidth(0.5).strokeColor(layout.colours.axis).stroke();
    label(t.label, X(t.x), Y(plot.bottom + 17), 12 * s, 'middle');
  }
  for (const l of layout.lines) {
    doc.moveTo(X(plot.left), Y(l.y)).lineTo(X(plot.right), Y(l.y)).lineWidth(1.5 * s).dash(6 * s, { space: 3 * s }).strokeColor(l.colour).stroke().undash();
    label(l.caption, X(plot.right + 6), Y(l.y + 4), 12 * s, 'start', l.colour);
  }
  doc.moveTo(X(plot.left), Y(plot.bottom)).lineTo(X(plot.right), Y(plot.bottom)).lineWidth(0.75).strokeColor(layout.colours.axis).stroke();
  doc.moveTo(X(plot.left), Y(plot.top)).lineTo(X(plot.left), Y(plot.bottom)).lineWidth(0.75).strokeColor(layout.colours.axis).stroke();
  doc.save();
  doc.rotate(-90, { origin: [X(18), Y((plot.top + plot.bottom) / 2)] });
  label(`payout (${layout.currency})`, X(18), Y((plot.top + plot.bottom) / 2), 12 * s, 'middle');
  doc.restore();
  for (const item of layout.legend) {
    doc.rect(X(item.x), Y(layout.height - 30), 12 * s, 12 * s).fillColor(item.colour).fill();
    label(item.words, X(item.x + 18), Y(layout.height - 20), 12 * s, 'start');
  }
  doc.x = PAGE.margin;
  doc.y = oy + layout.height * s + 6;
  w.style('regular', 9);
}

function backtestExhibit(w: Writer, d: BacktestExhibit): void {
  w.heading(d.title);
  w.para(d.statement, 8);
  w.pairs([
    ['backtest', d.backtest_id],
    ['feed', `${d.feed.feed_id} ${d.feed.version} SHA-256 ${d.feed.sha256}`],
    ['engine', `${d.engine.name} ${d.engine.version}`],
    ['window', `${d.window.from_year} to ${d.window.to_year}`],
  ]);
  w.doc.moveDown(0.5);
  chart(w, d);
  w.section('Statistics');
  w.pairs(flatten(d.statistics as unknown as Record<string, unknown>));
  w.section('Payout by year');
  w.table(['year', 'record', `payout (${d.currency})`, `gross payout (${d.currency})`, 'occurrences', 'on partial record'], [45, 70, 120, 120, 70, 70],
    d.years.map((y) => [String(y.year), y.record, amount(y.payout, d.currency), amount(y.gross_payout, d.currency), String(y.occurrences),
      y.record === 'partial' ? amount(y.payout_on_partial_record ?? null, d.currency) : '']));
}

function drawDocument(w: Writer, name: PackDocumentName): void {
  const d = w.pack.documents[name];
  if (!d) return;
  if (name === 'exposure_summary') exposureSummary(w, d as ExposureSummary);
  else if (name === 'pricing_exhibit') pricingExhibit(w, d as PricingExhibit);
  else if (name === 'draft_slip') draftSlip(w, d as DraftSlip);
  else backtestExhibit(w, d as BacktestExhibit);
}

const TITLES: Record<PackDocumentName, string> = {
  exposure_summary: 'Exposure summary', pricing_exhibit: 'Pricing exhibit', draft_slip: 'Draft slip', backtest_exhibit: 'Backtest exhibit',
};

/**
 * The PDF of one document of the pack, or (`names` holding several) of those documents after a
 * cover page, each from a new page.
 */
export function packPdf(pack: Pack, names: readonly PackDocumentName[], fonts: PdfFonts): Promise<Buffer> {
  const at = new Date(`${pack.as_of}T00:00:00Z`);
  const whole = names.length > 1;
  const title = whole ? `Submission pack ${pack.id}` : `${TITLES[names[0]!]}, submission pack ${pack.id}`;
  const doc = new PDFDocument({
    autoFirstPage: false,
    size: 'A4',
    margin: PAGE.margin,
    // No default font: pdfkit would read Helvetica's metrics from its own files; the fonts handed in are registered below.
    font: null as unknown as string,
    pdfVersion: '1.7',
    info: { Title: title, Subject: `${WATERMARK}. Analysis only.`, Author: 'catrisk', Creator: 'catrisk', Producer: 'catrisk (pdfkit)', Keywords: 'draft, technical price, not an offer', CreationDate: at, ModDate: at },
  });
  doc.registerFont('regular', fonts.regular as Buffer);
  doc.registerFont('bold', fonts.bold as Buffer);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const w = new Writer(doc, pack);
  if (whole) {
    doc.addPage();
    w.heading(`Submission pack`);
    w.section('Documents');
    for (const name of names) w.para(`${TITLES[name]}${pack.documents[name] ? '' : ' (not in this pack)'}`, 10);
    for (const o of pack.omitted) w.para(`${TITLES[o.document]} not included: ${o.reason}.`, 8);
  }
  for (const name of names) {
    if (!pack.documents[name]) continue;
    doc.addPage();
    drawDocument(w, name);
  }
  doc.end();
  return done;
}
