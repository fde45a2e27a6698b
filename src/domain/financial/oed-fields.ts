// Reading OED records (one row of an OED file: field name → number or text, as the risk object keeps
// them) for the financial module: numbers with OED's defaults, texts, and peril codes expanded through
// OED's peril groups (the pinned spec's PerilsCovered.csv: a group such as WW1 or AA1 covers the
// single perils listed under it).

export type OedValue = number | string;
export type OedRecord = Readonly<Record<string, OedValue>>;

/** OED peril code (single or group) → the single perils it covers. */
export type PerilGroups = ReadonlyMap<string, readonly string[]>;

/** A number field; OED's default (0 unless stated) when absent or blank. Text that is no number reads as the default too. */
export function num(r: OedRecord, field: string, fallback = 0): number {
  const v = r[field];
  if (typeof v === 'number') return Number.isFinite(v) ? v : fallback;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v.trim());
    return Number.isFinite(n) ? n : fallback;
  }
  return fallback;
}

/** A text field as written (numbers written back as text), '' when absent. */
export function text(r: OedRecord, field: string): string {
  const v = r[field];
  if (v === undefined) return '';
  return typeof v === 'number' ? String(v) : v.trim();
}

/** The single perils a ';'-separated list of OED peril codes covers (unknown codes stand for themselves). */
export function expandPerils(list: string, groups: PerilGroups): Set<string> {
  const out = new Set<string>();
  for (const raw of list.split(';')) {
    const code = raw.trim().toUpperCase();
    if (code === '') continue;
    const members = groups.get(code);
    if (members === undefined) out.add(code);
    else for (const m of members) out.add(m);
  }
  return out;
}

export function overlaps(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const x of a) if (b.has(x)) return true;
  return false;
}
