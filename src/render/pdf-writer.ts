// The page furniture and typesetting a pack's PDF documents share: the watermark and footer on
// every page, headings, label and value lines, tables that continue on the next page, and the
// words a figure is printed in (money in its currency with thousands separators, shares as
// percentages with three significant digits, members' names in words, never as dotted keys). A
// member the exhibit does not know by name is still printed, in words: a table for a list of
// records, indented lines for a record inside a record, so no document prints JSON.
import { WATERMARK, money, type Pack } from '../domain/packages/pack.js';

export const PAGE = { width: 595.28, height: 841.89, margin: 50 } as const;
export const WIDTH = PAGE.width - 2 * PAGE.margin;
export const BOTTOM = PAGE.height - PAGE.margin - 14;
export const GREY = '#555555';

export type Doc = PDFKit.PDFDocument;
export type Face = 'regular' | 'bold';

/** A table's column: its header, its width in points, and numbers set flush right. */
export interface Column { readonly header: string; readonly width: number; readonly align?: 'left' | 'right' }

/** The page furniture and the text style, kept here so the watermark drawn on a new page never leaks into the text around it. */
export class Writer {
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
    if (this.doc.y + height > BOTTOM) { this.doc.addPage(); this.doc.x = PAGE.margin; this.doc.y = PAGE.margin; }
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

  /** A heading inside a section. */
  subsection(title: string): void {
    this.room(30);
    this.doc.moveDown(0.3);
    this.style('bold', 9, GREY).doc.text(title, PAGE.margin, this.doc.y, { width: WIDTH });
    this.doc.moveDown(0.1);
    this.style('regular', 9);
  }

  para(text: string, size = 9, indent = 0): void {
    this.room(size + 4);
    this.style('regular', size).doc.text(text, PAGE.margin + indent, this.doc.y, { width: WIDTH - indent });
  }

  /** Label and value lines, the labels `indent` points in. */
  pairs(rows: ReadonlyArray<readonly [string, string]>, indent = 0): void {
    const labelWidth = 150 - indent;
    for (const [label, value] of rows) {
      this.room(12);
      const y = this.doc.y;
      this.style('bold', 9).doc.text(label, PAGE.margin + indent, y, { width: labelWidth });
      const after = this.doc.y;
      this.style('regular', 9).doc.text(value, PAGE.margin + 155, y, { width: WIDTH - 155 });
      this.doc.y = Math.max(this.doc.y, after);
    }
  }

  /** A table: a bold header row, then rows, each cell on one line in its column; it continues on the next page with its header again. */
  table(columns: readonly Column[], rows: ReadonlyArray<readonly string[]>, size = 8, indent = 0): void {
    const line = size + 4;
    const draw = (cells: readonly string[], face: Face) => {
      const y = this.doc.y;
      let x = PAGE.margin + indent;
      this.style(face, size);
      cells.forEach((cell, i) => {
        const c = columns[i]!;
        this.doc.text(cell, x, y, { width: c.width - 4, lineBreak: false, height: line, ellipsis: true, align: c.align ?? 'left' });
        x += c.width;
      });
      this.doc.x = PAGE.margin;
      this.doc.y = y + line;
    };
    this.room(line * 3);
    draw(columns.map((c) => c.header), 'bold');
    const y = this.doc.y - 2;
    this.doc.moveTo(PAGE.margin + indent, y).lineTo(PAGE.margin + indent + columns.reduce((a, c) => a + c.width, 0) - 4, y).lineWidth(0.5).strokeColor('#999999').stroke();
    for (const row of rows) {
      if (this.doc.y + line > BOTTOM) { this.doc.addPage(); this.doc.y = PAGE.margin; draw(columns.map((c) => c.header), 'bold'); }
      draw(row, 'regular');
    }
    this.style('regular', 9);
  }

  /** A bulleted sentence. */
  bullet(text: string, size = 8, indent = 0): void {
    this.room(size * 2 + 4);
    this.style('regular', size).doc.text(`• ${text}`, PAGE.margin + indent, this.doc.y, { width: WIDTH - indent, indent: 0 });
  }

  /**
   * Any member of a document, in words: a value on its label's line; a list of records as a table
   * when its columns fit across the page, else each record in turn; a record inside a record as
   * its label, then its own members indented below. `currency` names the money members at this
   * level (a trigger's attachment is an index value, not money: only a record stating a currency
   * passes one down).
   */
  stated(value: Record<string, unknown>, currency: string | null, indent = 0): void {
    for (const [key, v] of Object.entries(value)) {
      const label = words(key);
      if (isRecord(v)) {
        this.room(24);
        this.style('bold', 9).doc.text(label, PAGE.margin + indent, this.doc.y, { width: WIDTH - indent });
        // A record naming its own currency (a financial structure) prints its money in it; money is read nowhere else.
        this.stated(v, typeof v.currency === 'string' ? v.currency : null, indent + 12);
      } else if (Array.isArray(v) && v.length > 0 && v.every(isRecord)) {
        this.pairs([[label, `${v.length} ${v.length === 1 ? 'entry' : 'entries'}:`]], indent);
        this.records(v as Record<string, unknown>[], currency, indent + 12);
      } else {
        this.pairs([[label, said(key, v, currency)]], indent);
      }
    }
  }

  /** A list of records: a table of their members when it fits, else each in turn. */
  records(list: readonly Record<string, unknown>[], currency: string | null, indent = 0): void {
    const keys = [...new Set(list.flatMap((r) => Object.keys(r)))];
    const cells = list.map((r) => keys.map((k) => (isRecord(r[k]) ? null : said(k, r[k], currency))));
    const flat = cells.every((row) => row.every((c) => c !== null));
    const size = 7.5;
    this.style('regular', size);
    const widths = keys.map((k, i) => Math.max(...cells.map((row) => this.doc.widthOfString(row[i] ?? '') + 10)));
    this.style('bold', size);
    keys.forEach((k, i) => { widths[i] = Math.max(widths[i]!, this.doc.widthOfString(words(k)) + 10); });
    if (flat && widths.reduce((a, b) => a + b, 0) <= WIDTH - indent) {
      this.table(keys.map((k, i) => ({ header: words(k), width: widths[i]!, align: list.every((r) => typeof r[k] === 'number') ? 'right' : 'left' })), cells as string[][], size, indent);
      return;
    }
    list.forEach((r, i) => {
      this.subsection(`${i + 1}.`);
      this.stated(r, currency, indent);
    });
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A member's name in words: "annual_cap" is "annual cap". */
export function words(key: string): string {
  return key.replace(/_/g, ' ');
}

/** Digits grouped in thousands: "1,234,567". */
export function grouped(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A figure with sensible digits: integers whole (grouped from 10,000), other numbers to 4 significant digits. */
export function figure(x: number): string {
  const n = Number.isInteger(x) ? x : Number(x.toPrecision(4));
  const [whole, fraction] = String(Math.abs(n)).split('.');
  const sign = n < 0 ? '-' : '';
  if (whole!.includes('e')) return String(n);
  return `${sign}${Math.abs(n) >= 10_000 ? grouped(whole!) : whole}${fraction ? `.${fraction}` : ''}`;
}

/** A share as a percentage with three significant digits: 0.098823909 is "9.88%". */
export function share(x: number): string {
  return `${Number((x * 100).toPrecision(3))}%`;
}

const MONEY_MEMBER = /(^|_)(amount|payout|attachment|annual_cap|annual_limit|limit|expected_loss|premium)$/;
const SHARE_MEMBER = /(^|_)(share|probability|frequency|fraction)$/;

/** A member's value in words, read by its name: money in the currency, shares as percentages, seeds and years as written. */
export function said(key: string, v: unknown, currency: string | null): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'string') return /^[a-z]+(_[a-z]+)+$/.test(v) ? words(v) : v;
  if (typeof v === 'number') {
    if (currency && MONEY_MEMBER.test(key) && !/count|rate/.test(key)) return money(v, currency);
    if (SHARE_MEMBER.test(key)) return share(v);
    if (/seed|year$/.test(key) && Number.isInteger(v)) return String(v);
    return figure(v);
  }
  if (Array.isArray(v)) return v.length === 0 ? 'none' : v.map((x) => said(key, x, currency)).join(', ');
  return Object.entries(v as Record<string, unknown>).map(([k, x]) => `${words(k)} ${said(k, x, currency)}`).join(', ');
}
