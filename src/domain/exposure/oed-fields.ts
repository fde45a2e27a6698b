// The order of each OED file's fields as the pinned spec lists them (OEDInputFields.csv: one row per
// field, "File Name" naming the files it belongs to, e.g. "Acc; Loc"). The OED export writes its
// columns in this order. Pure: the caller reads the file.
import { parse } from 'csv-parse/sync';

export interface OedFieldOrder {
  location: readonly string[];
  account: readonly string[];
  ri_info: readonly string[];
  ri_scope: readonly string[];
}

const FILES: Record<string, keyof OedFieldOrder> = { Loc: 'location', Acc: 'account', ReinsInfo: 'ri_info', ReinsScope: 'ri_scope' };

export function parseOedFieldOrder(inputFields: string): OedFieldOrder {
  const records = parse(inputFields, { columns: true, bom: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
  const order: Record<keyof OedFieldOrder, string[]> = { location: [], account: [], ri_info: [], ri_scope: [] };
  for (const row of records) {
    const name = row['Input Field Name'] ?? '';
    if (name === '') continue;
    for (const file of (row['File Name'] ?? '').split(';')) {
      const table = FILES[file.trim()];
      if (table) order[table].push(name);
    }
  }
  if (order.location.length === 0) throw new Error('OED table OEDInputFields: no location fields');
  return order;
}
