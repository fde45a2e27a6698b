// A submission pack's documents as PDF, drawn with pdfkit from the pack exactly as stored: every
// page watermarked "DRAFT — not an offer" diagonally (pages pdfkit adds as text flows included),
// DejaVu Sans embedded (subset) so the schedule's accents and € print, the backtest chart drawn as
// vectors from the same geometry as its SVG (backtest-chart.ts). The same pack gives the same bytes:
// the document's dates are the pack's as-of date and its file id is derived from them, nothing is
// random. The fonts' bytes are handed in: render/ reads no file.
import PDFDocument from 'pdfkit';
import type { ExposureSummary } from '../domain/packages/exposure-summary.js';
import { WATERMARK, money, type BacktestExhibit, type DraftSlip, type Pack, type PackDocumentName, type PricingExhibit } from '../domain/packages/pack.js';
import { backtestChartLayout, type BacktestChartInput } from './backtest-chart.js';
import type { YearOut } from '../domain/backtest/artifact.js';
import { GREY, PAGE, WIDTH, Writer, figure, grouped, said, share, words, type Face } from './pdf-writer.js';
import { partialYearWords, pricingExhibitPdf } from './pricing-exhibit-pdf.js';

/** A TrueType font, parsed (by fontkit, as pdfkit reads fonts) or as its file's bytes. */
export type PdfFont = Buffer | { readonly postscriptName: string; layout(text: string): unknown };

export interface PdfFonts {
  readonly regular: PdfFont;
  readonly bold: PdfFont;
}

/** Columns from headers and widths; those from `right` on hold figures, set flush right. */
function columns(headers: readonly string[], widths: readonly number[], right: number) {
  return headers.map((header, i) => ({ header, width: widths[i]!, align: i >= right ? 'right' as const : 'left' as const }));
}

function amount(value: number | null | undefined, currency: string): string {
  return value === null || value === undefined ? '—' : money(value, currency);
}

/** A coordinate as written, or a dash. */
function scalar(value: unknown): string {
  return value === null || value === undefined ? '—' : String(value);
}

/** A decimal amount as the summary states it (exact, as text), grouped in thousands. */
function decimal(value: string | null | undefined): string {
  return value === null || value === undefined ? '—' : value.replace(/^(-?)(\d+)/, (_, sign: string, digits: string) => sign + grouped(digits));
}

function exposureSummary(w: Writer, d: ExposureSummary): void {
  w.heading(d.title);
  w.section('Counts');
  w.pairs(Object.entries(d.counts).map(([k, v]) => [k.replace(/_/g, ' '), String(v)]));
  w.section('Totals per coverage part and currency');
  w.table(columns(['currency', 'locations', 'buildings', 'contents', 'business interruption', 'other', 'total'], [45, 50, 75, 75, 115, 55, 80], 1),
    d.totals.map((t) => [t.currency, figure(t.locations), decimal(t.buildings), decimal(t.contents), decimal(t.business_interruption), decimal(t.other), decimal(t.total)]));
  w.para(`Schedule totals as the object states them${d.stated_totals.currency ? ` (${d.stated_totals.currency})` : ''}: ${Object.entries(d.stated_totals.values).map(([k, v]) => `${words(k)} ${typeof v === 'string' ? decimal(v) : said(k, v, null)}`).join(', ') || 'none'}.`, 8);
  w.section('Geographic spread');
  const box = d.geographic_spread.bounding_box;
  w.pairs([
    ['bounding box', box ? `latitude ${box.min_latitude}° to ${box.max_latitude}°, longitude ${box.min_longitude}° to ${box.max_longitude}°` : 'no location has coordinates'],
    ['countries', d.geographic_spread.countries.map((c) => `${c.country} ${c.locations}`).join(', ') || 'none given'],
    ['countries not listed', String(d.geographic_spread.countries_not_listed)],
    ['without a country', String(d.geographic_spread.locations_without_country)],
  ]);
  w.section(`Largest locations${d.largest_locations_currency ? ` (${d.largest_locations_currency})` : ''}`);
  w.table(columns(['rank', 'ref', 'place', 'latitude', 'longitude', 'total value'], [30, 80, 170, 55, 60, 100], 3),
    d.largest_locations.map((l) => [String(l.rank), l.ref ?? '—', l.place || '—', scalar(l.latitude), scalar(l.longitude), `${l.currency} ${decimal(l.total)}`]));
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
  w.section('Trigger in full, member by member');
  w.stated(d.trigger_in_full, null);
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
  for (const line of layout.titleLines) label(line.text, X(plot.left), Y(line.y), 15 * s, 'start', '#000000', 'bold');
  for (const line of layout.subtitleLines) label(line.text, X(plot.left), Y(line.y), 11 * s, 'start', GREY);
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
  const s = d.statistics;
  const cur = d.currency;
  const or = (x: number | null, f: (x: number) => string) => (x === null ? '—' : f(x));
  w.section('Statistics');
  w.pairs([
    ['years counted', `${s.years}, of which ${s.years_paying} paid`],
    ['mean annual payout', or(s.mean_annual_payout, (x) => money(x, cur))],
    ['standard deviation', or(s.standard_deviation, (x) => money(x, cur))],
    ['standard error', or(s.standard_error, (x) => money(x, cur))],
    ['total paid', money(s.total_payout, cur)],
    ['largest year', s.largest_year ? `${s.largest_year.year}, ${money(s.largest_year.payout, cur)}` : '—'],
    ['payment frequency', or(s.payment_frequency, share)],
    ['trigger probability', or(s.trigger_probability, share)],
    ['attachment probability', or(s.attachment_probability, share)],
    ['exhaustion probability', or(s.exhaustion_probability, share)],
    ['paying occurrences a year', or(s.occurrences_per_year, figure)],
  ]);
  const coverage = d.data_coverage as { years_missing_detail?: { year: number; reason: string }[]; partial_years?: { year: number }[] };
  w.subsection('Years without a full record');
  const missing = coverage.years_missing_detail ?? [];
  const partial = coverage.partial_years ?? [];
  if (missing.length === 0 && partial.length === 0) w.para('Every year of the window has a complete record.', 8);
  for (const m of missing) w.bullet(`${m.year}: no record (${m.reason}); left out, never filled.`);
  for (const p of partial) w.bullet(partialYearWords(p, cur));
  w.section('Payout by year');
  w.table(columns(['year', 'record', `payout (${d.currency})`, `gross payout (${d.currency})`, 'occurrences', 'on partial record'], [40, 60, 110, 110, 75, 100], 2),
    d.years.map((y) => [String(y.year), y.record, amount(y.payout, d.currency), amount(y.gross_payout, d.currency), String(y.occurrences),
      y.record === 'partial' ? amount(y.payout_on_partial_record ?? null, d.currency) : '']));
}

function drawDocument(w: Writer, name: PackDocumentName): void {
  const d = w.pack.documents[name];
  if (!d) return;
  if (name === 'exposure_summary') exposureSummary(w, d as ExposureSummary);
  else if (name === 'pricing_exhibit') pricingExhibitPdf(w, d as PricingExhibit);
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
