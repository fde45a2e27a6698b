// Occupancy and construction text → OED codes, only when the text names one code unambiguously.
// Three sources, in order: a numeric OED code (or "1050 - Residential"); a small explicit table of
// broker words below; the OED names themselves ("Residential, General residential" and its part
// after the comma, "General residential", when that part names one code only). Every code is
// checked against the pinned OED table, so an alias whose code the table lacks is never used.
import type { OedReference } from './oed-reference.js';
import type { CodedText } from './types.js';

/** Broker words for occupancy, normalized (lower case, words separated by one space). */
export const OCCUPANCY_ALIASES: Readonly<Record<string, number>> = {
  unknown: 1000,
  residential: 1050,
  residence: 1050,
  dwelling: 1050,
  dwellings: 1050,
  home: 1050,
  homes: 1050,
  house: 1050,
  housing: 1050,
  'single family': 1051,
  'single family dwelling': 1051,
  'single family home': 1051,
  sfd: 1051,
  'multi family': 1052,
  multifamily: 1052,
  'multi family dwelling': 1052,
  mfd: 1052,
  apartment: 1055,
  apartments: 1055,
  condo: 1055,
  condominium: 1055,
  flat: 1055,
  flats: 1055,
  commercial: 1100,
  office: 1104,
  offices: 1104,
  'office building': 1104,
  retail: 1101,
  shop: 1101,
  shops: 1101,
  store: 1101,
  'retail store': 1101,
  wholesale: 1102,
  warehouse: 1122,
  warehouses: 1122,
  warehousing: 1122,
  'distribution centre': 1122,
  'distribution center': 1122,
  hospital: 1106,
  clinic: 1105,
  'nursing home': 1107,
  restaurant: 1119,
  bank: 1125,
  parking: 1113,
  'car park': 1113,
  industrial: 1150,
  factory: 1150,
  manufacturing: 1150,
  church: 1201,
  school: 1231,
  university: 1230,
  government: 1210,
  museum: 1211,
  library: 1214,
};

/** Broker words for construction, normalized. */
export const CONSTRUCTION_ALIASES: Readonly<Record<string, number>> = {
  unknown: 5000,
  wood: 5050,
  timber: 5050,
  wooden: 5050,
  frame: 5050,
  'timber frame': 5050,
  'wood frame': 5050,
  'wooden frame': 5050,
  masonry: 5100,
  brick: 5100,
  'brick masonry': 5100,
  concrete: 5150,
  'reinforced concrete': 5150,
  rc: 5150,
  rcc: 5150,
  'concrete frame': 5150,
  'tilt up': 5155,
  precast: 5156,
  'pre cast': 5156,
  steel: 5200,
  'steel frame': 5200,
  'structural steel': 5200,
  'mobile home': 5350,
  'mobile homes': 5350,
  'manufactured home': 5350,
};

export type CodeReading = CodedText & { reason?: string };

interface CodeIndex {
  readonly codes: ReadonlyMap<number, string>;
  readonly byText: ReadonlyMap<string, number>;
  /** Readings of texts already seen (schedules repeat a handful of words); bounded. */
  readonly seen: Map<string, CodeReading>;
}

const SEEN_LIMIT = 4096;

const NON_WORD = /[^\p{L}\p{N}]+/gu;
const MARKS = /\p{M}+/gu;
const LEADING_CODE = /^(\d{4})(?:\.0+)?(?:$|[\s\-–:]+)/;

/** Lower case, accents dropped, every run of other characters one space. */
export function normalizeWords(text: string): string {
  return text.normalize('NFD').replace(MARKS, '').toLowerCase().replace(NON_WORD, ' ').trim();
}

function buildIndex(codes: ReadonlyMap<number, string>, aliases: Readonly<Record<string, number>>): CodeIndex {
  const byText = new Map<string, number>();
  // Part after the broad category ("General residential"), kept only when one code has it.
  const parts = new Map<string, number | null>();
  for (const [code, name] of codes) {
    const comma = name.indexOf(',');
    if (comma < 0) continue;
    const part = normalizeWords(name.slice(comma + 1));
    if (part !== '') parts.set(part, parts.has(part) && parts.get(part) !== code ? null : code);
  }
  for (const [part, code] of parts) if (code !== null) byText.set(part, code);
  for (const [code, name] of codes) byText.set(normalizeWords(name), code);
  for (const [text, code] of Object.entries(aliases)) if (codes.has(code)) byText.set(text, code);
  return { codes, byText, seen: new Map() };
}

const indexes = new WeakMap<ReadonlyMap<number, string>, CodeIndex>();

function indexFor(codes: ReadonlyMap<number, string>, aliases: Readonly<Record<string, number>>): CodeIndex {
  let index = indexes.get(codes);
  if (index === undefined) {
    index = buildIndex(codes, aliases);
    indexes.set(codes, index);
  }
  return index;
}

function code(raw: string, index: CodeIndex, what: 'occupancy' | 'construction'): CodeReading {
  const seen = index.seen.get(raw);
  if (seen !== undefined) return seen;
  const reading = readCode(raw, index, what);
  if (index.seen.size < SEEN_LIMIT) index.seen.set(raw, reading);
  return reading;
}

function readCode(raw: string, index: CodeIndex, what: 'occupancy' | 'construction'): CodeReading {
  const text = raw.trim();
  if (text === '') return { code: null, text: null };
  const numeric = LEADING_CODE.exec(text);
  if (numeric !== null) {
    const value = Number(numeric[1]);
    if (index.codes.has(value)) return { code: value, text };
    return { code: null, text, reason: `${what} code ${value} is not in the OED ${what} table` };
  }
  const found = index.byText.get(normalizeWords(text));
  if (found !== undefined) return { code: found, text };
  return { code: null, text, reason: `${what} '${text}' has no unambiguous OED code; kept as given` };
}

export function codeOccupancy(raw: string, oed: OedReference): CodeReading {
  return code(raw, indexFor(oed.occupancy, OCCUPANCY_ALIASES), 'occupancy');
}

export function codeConstruction(raw: string, oed: OedReference): CodeReading {
  return code(raw, indexFor(oed.construction, CONSTRUCTION_ALIASES), 'construction');
}
