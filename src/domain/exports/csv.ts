// CSV as RFC 4180 writes it: fields separated by commas, records ended by CRLF, a field quoted
// when it holds a comma, a double quote, CR or LF, and a quote inside doubled. Pure.

/** A cell: text as given, a number in its shortest round-trip form, nothing as an empty field. */
export type Cell = string | number | boolean | null | undefined;

const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(value: Cell): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, CRLF included. */
export function csvRecord(cells: readonly Cell[]): string {
  return `${cells.map(csvField).join(',')}\r\n`;
}

/** A whole table: the header record, then one record per row. */
export function csvTable(header: readonly string[], rows: Iterable<readonly Cell[]>): string {
  let out = csvRecord(header);
  for (const row of rows) out += csvRecord(row);
  return out;
}
