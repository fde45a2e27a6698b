// Money text → an exact integer of ten-thousandths of the unit (bigint; see minor-units.ts) and the
// currency the text states. Accepts what brokers type:
// "$1,200,000", "1.2m", "1.2 M", "USD 1 200 000", "€ 2,5 Mio", "£750k", "2.500.000,00 EUR",
// "1'200'000", plain numbers. Results are exact: digits go straight into a bigint, never through a
// binary float; values with more than four decimals (after scaling) are rounded half-up. Rounding to
// the currency's own minor unit happens where the currency is known (schedule-table.ts).
import { currencyToken, type CurrencyToken } from './currency.js';
import { UNIT_DECIMALS } from './minor-units.js';

export interface MoneyContext {
  readonly currencies: ReadonlySet<string>;
  /**
   * How to read a lone separator followed by exactly three digits ("1,200", "1.200"): true reads
   * the comma as the decimal mark (semicolon-delimited, continental files), false the point.
   */
  readonly decimalComma: boolean;
}

export interface Scale {
  /** Power of ten the number is multiplied by (3 thousand, 6 million, 9 billion). */
  readonly exponent: number;
  /** The word or suffix as written ("k", "Mio", "000s"). */
  readonly written: string;
  /** True for a bare "m"/"M": usually million, but some ledgers write M for thousand. */
  readonly guessed: boolean;
}

export type MoneyReading =
  | { kind: 'empty' }
  | { kind: 'unreadable'; reason: string }
  | {
      kind: 'amount';
      /** Ten-thousandths of the currency unit (UNIT_DECIMALS places). */
      units: bigint;
      currency: CurrencyToken | null;
      scale: Scale | null;
      /** The units were rounded (more than four decimal places after scaling). */
      rounded: boolean;
      /** A lone separator before three digits was read by the file's convention. */
      separatorGuess: 'decimal comma' | 'decimal point' | null;
    };

/** Cells that mean "no value". */
const EMPTY_MARKERS = new Set(['-', '–', '—', 'n/a', 'na', 'n.a.', 'nil', 'none', 'null', '#n/a', '?']);

const SCALE_WORDS: ReadonlyMap<string, number> = new Map([
  ['k', 3],
  ['thousand', 3],
  ['thousands', 3],
  ['tsd', 3],
  ['tsd.', 3],
  ["'000", 3],
  ['000', 3],
  ['000s', 3],
  ["000's", 3],
  ["'000s", 3],
  ['m', 6],
  ['mm', 6],
  ['mn', 6],
  ['mio', 6],
  ['mio.', 6],
  ['million', 6],
  ['millions', 6],
  ['b', 9],
  ['bn', 9],
  ['billion', 9],
  ['billions', 9],
  ['mrd', 9],
  ['mrd.', 9],
]);

/** A scale word (case-insensitive), or null. */
export function scaleWord(token: string): Scale | null {
  const lower = token.toLowerCase();
  const exponent = SCALE_WORDS.get(lower);
  if (exponent === undefined) return null;
  return { exponent, written: token, guessed: lower === 'm' };
}

// Affix tokens: letters ending in $ (US$, A$), a word with an optional trailing point (Mio.),
// a currency symbol, or any other single non-space character.
const AFFIX_TOKEN = /\p{L}*\$|\p{L}+\.?|\p{Sc}|\S/gu;
const GROUP_CHARS = /[\s'’\u00a0\u202f\u2009]+/;
const HAS_GROUP_CHAR = /[\s'’\u00a0\u202f\u2009]/;
const MAX_DIGITS = 24;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

type Amount = { int: string; frac: string; separatorGuess: 'decimal comma' | 'decimal point' | null };

/**
 * Digits of s[from, to) with thousands separator `group` removed, or null unless every group after
 * the first has three digits and the first has one to three.
 */
function groupedDigits(s: string, from: number, to: number, group: number): string | null {
  let digits = '';
  let run = 0;
  let groups = 0;
  let start = from;
  for (let i = from; i < to; i++) {
    if (s.charCodeAt(i) === group) {
      if (groups === 0 ? run < 1 || run > 3 : run !== 3) return null;
      digits += s.slice(start, i);
      start = i + 1;
      run = 0;
      groups++;
    } else {
      run++;
    }
  }
  if (groups > 0 && run !== 3) return null;
  return digits + s.slice(start, to);
}

/** "1,200,000.50" → {int: "1200000", frac: "50"}; null when not one number. */
function readAmount(core: string, decimalComma: boolean): Amount | null {
  let s = core;
  if (HAS_GROUP_CHAR.test(s)) {
    // Spaces and apostrophes group thousands: every group after the first is three digits
    // (the last may carry the decimal part).
    const parts = s.split(GROUP_CHARS);
    const first = parts[0] ?? '';
    if (!/^\d{1,3}$/.test(first)) return null;
    for (let i = 1; i < parts.length; i++) {
      const part = parts[i] ?? '';
      const ok = i === parts.length - 1 ? /^\d{3}(?:[.,]\d+)?$/.test(part) : /^\d{3}$/.test(part);
      if (!ok) return null;
    }
    s = parts.join('');
  }
  let dots = 0;
  let commas = 0;
  let lastDot = -1;
  let lastComma = -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 46) {
      dots++;
      lastDot = i;
    } else if (c === 44) {
      commas++;
      lastComma = i;
    } else if (!isDigit(c)) return null;
  }
  if (dots === 0 && commas === 0) return { int: s, frac: '', separatorGuess: null };
  if (dots > 0 && commas > 0) {
    // Both: the later one is the decimal mark and appears once; the other groups thousands.
    const decimalAt = lastDot > lastComma ? lastDot : lastComma;
    if ((decimalAt === lastDot ? dots : commas) !== 1 || decimalAt === s.length - 1) return null;
    const int = groupedDigits(s, 0, decimalAt, decimalAt === lastDot ? 44 : 46);
    if (int === null || int === '') return null;
    return { int, frac: s.slice(decimalAt + 1), separatorGuess: null };
  }
  const sepCode = dots > 0 ? 46 : 44;
  if (dots + commas > 1) {
    const int = groupedDigits(s, 0, s.length, sepCode);
    return int === null ? null : { int, frac: '', separatorGuess: null };
  }
  const at = dots > 0 ? lastDot : lastComma;
  const before = s.slice(0, at);
  const after = s.slice(at + 1);
  if (after === '') return before === '' ? null : { int: before, frac: '', separatorGuess: null };
  if (after.length !== 3 || before.length > 3 || before === '' || before === '0') {
    return { int: before === '' ? '0' : before, frac: after, separatorGuess: null };
  }
  // "1,200" or "1.200": the file's convention decides.
  const guess = decimalComma ? 'decimal comma' : 'decimal point';
  if ((sepCode === 44) === decimalComma) return { int: before, frac: after, separatorGuess: guess };
  return { int: before + after, frac: '', separatorGuess: guess };
}

const POWERS = Array.from({ length: 40 }, (_, i) => 10n ** BigInt(i));
const SAFE_DIGITS = 15;

/** digits × 10^(exponent) as units, rounded half-up. */
function toUnits(int: string, frac: string, exponent: number): { units: bigint; rounded: boolean } {
  const digits = int + frac;
  const shift = exponent + UNIT_DECIMALS - frac.length;
  if (shift >= 0 && digits.length + shift <= SAFE_DIGITS) {
    // Below 2^53 every step is an exact integer: no rounding can happen.
    return { units: BigInt(Number(digits) * 10 ** shift), rounded: false };
  }
  const mantissa = BigInt(digits);
  if (shift >= 0) return { units: mantissa * (POWERS[shift] as bigint), rounded: false };
  const divisor = POWERS[-shift] as bigint;
  const quotient = mantissa / divisor;
  const remainder = mantissa % divisor;
  return { units: remainder * 2n >= divisor ? quotient + 1n : quotient, rounded: remainder !== 0n };
}

/**
 * Reads one money cell. columnScale applies when the cell carries no scale of its own (a header
 * such as "TIV (000s)").
 */
export function readMoney(raw: string, context: MoneyContext, columnScale: Scale | null = null): MoneyReading {
  const text = raw.trim();
  if (text === '') return { kind: 'empty' };
  let first = -1;
  let last = -1;
  for (let i = 0; i < text.length; i++) {
    if (isDigit(text.charCodeAt(i))) {
      if (first === -1) first = i;
      last = i;
    }
  }
  if (first === -1) {
    return EMPTY_MARKERS.has(text.toLowerCase()) ? { kind: 'empty' } : { kind: 'unreadable', reason: 'no number' };
  }
  let prefix = text.slice(0, first);
  let core = text.slice(first, last + 1);
  const suffix = text.slice(last + 1);
  // ".5m" / ",5 Mio": a leading separator belongs to the number.
  if (prefix.endsWith('.') || prefix.endsWith(',')) {
    core = '0' + prefix.slice(-1) + core;
    prefix = prefix.slice(0, -1);
  }

  let negative = false;
  let currency: CurrencyToken | null = null;
  let scale: Scale | null = null;
  for (const affix of prefix === '' ? (suffix === '' ? [] : [suffix]) : [prefix, suffix]) {
    const tokens = affix.match(AFFIX_TOKEN);
    if (tokens === null) continue;
    for (const token of tokens) {
      if (token === '-' || token === '−' || token === '(' || token === ')') {
        negative = true;
        continue;
      }
      if (token === '+' || token === ':' || token === '=') continue;
      const asScale = scaleWord(token);
      if (asScale !== null) {
        if (scale !== null) return { kind: 'unreadable', reason: 'two scale words' };
        scale = asScale;
        continue;
      }
      const asCurrency = currencyToken(token, context.currencies);
      if (asCurrency !== null) {
        if (currency !== null && currency.written.toLowerCase() !== asCurrency.written.toLowerCase()) {
          return { kind: 'unreadable', reason: 'two currencies' };
        }
        currency = asCurrency;
        continue;
      }
      return { kind: 'unreadable', reason: `'${token}' is neither a currency nor a scale` };
    }
  }
  if (negative) return { kind: 'unreadable', reason: 'negative value' };
  const amount = readAmount(core, context.decimalComma);
  if (amount === null) return { kind: 'unreadable', reason: 'not one number' };
  if (amount.int.length + amount.frac.length > MAX_DIGITS) return { kind: 'unreadable', reason: 'too many digits' };
  const applied = scale ?? columnScale;
  const { units, rounded } = toUnits(amount.int, amount.frac, applied?.exponent ?? 0);
  return { kind: 'amount', units, currency, scale: applied, rounded, separatorGuess: amount.separatorGuess };
}

/**
 * Which decimal mark an amount shows unambiguously: "1.500.000" and "2,5" are continental,
 * "1,500,000" and "1.25" anglo; "1,200" or "1.200" (one mark, three digits after) show nothing.
 */
export function decimalMarkShown(raw: string): 'comma' | 'point' | null {
  let dots = 0;
  let commas = 0;
  let lastMark = 0;
  let digitsAfter = -1; // digits after the last mark; −1 before any mark
  let previousDigit = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    const next = raw.charCodeAt(i + 1);
    if ((c === 46 || c === 44) && previousDigit && isDigit(next)) {
      if (c === 46) dots++;
      else commas++;
      lastMark = c;
      digitsAfter = 0;
      previousDigit = false;
      continue;
    }
    previousDigit = isDigit(c);
    if (previousDigit && digitsAfter >= 0) digitsAfter++;
    else if (!previousDigit && digitsAfter >= 0 && c !== 32) break;
  }
  if (digitsAfter <= 0) return null;
  if (dots > 0 && commas > 0) return lastMark === 44 ? 'comma' : 'point';
  if (dots > 1) return 'comma';
  if (commas > 1) return 'point';
  if (digitsAfter === 3) return null;
  return lastMark === 44 ? 'comma' : 'point';
}
