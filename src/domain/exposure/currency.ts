// Currency as written in schedules: ISO 4217 codes, symbols and a few words. Some symbols name a
// family of currencies ($ is used by the US, Canada, Australia...); such a symbol is read as the
// request's currency when that currency is in its family, else as the family's default, and that
// default is a guess to be recorded. A family without a default (kr) stays unread.

export interface CurrencyToken {
  /** What the text said ("$", "US$", "EUR", "euro"). */
  readonly written: string;
  /** The single currency it names, when it names exactly one. */
  readonly code?: string;
  /** Currencies a symbol like $ or ¥ may stand for, with the one assumed when nothing says which. */
  readonly family?: readonly string[];
  readonly assumed?: string;
}

const DOLLARS = ['USD', 'CAD', 'AUD', 'NZD', 'HKD', 'SGD', 'MXN', 'TWD', 'ARS', 'CLP', 'COP', 'UYU', 'BND', 'BSD', 'BBD', 'BMD', 'BZD', 'FJD', 'JMD', 'KYD', 'NAD', 'TTD', 'XCD', 'LRD', 'GYD', 'SRD', 'SBD'] as const;
const YEN = ['JPY', 'CNY'] as const;
const KRONE = ['SEK', 'NOK', 'DKK', 'ISK'] as const;
const RUPEE = ['INR', 'PKR', 'LKR', 'NPR', 'MUR', 'SCR'] as const;

/** Symbols and words, lower case, to what they name. Codes (three letters) are checked separately. */
const WRITTEN: ReadonlyMap<string, Omit<CurrencyToken, 'written'>> = new Map<string, Omit<CurrencyToken, 'written'>>([
  ['$', { family: DOLLARS, assumed: 'USD' }],
  ['dollar', { family: DOLLARS, assumed: 'USD' }],
  ['dollars', { family: DOLLARS, assumed: 'USD' }],
  ['us$', { code: 'USD' }],
  ['u$s', { code: 'USD' }],
  ['a$', { code: 'AUD' }],
  ['au$', { code: 'AUD' }],
  ['c$', { code: 'CAD' }],
  ['ca$', { code: 'CAD' }],
  ['can$', { code: 'CAD' }],
  ['nz$', { code: 'NZD' }],
  ['hk$', { code: 'HKD' }],
  ['s$', { code: 'SGD' }],
  ['sg$', { code: 'SGD' }],
  ['mx$', { code: 'MXN' }],
  ['nt$', { code: 'TWD' }],
  ['r$', { code: 'BRL' }],
  ['€', { code: 'EUR' }],
  ['euro', { code: 'EUR' }],
  ['euros', { code: 'EUR' }],
  ['£', { code: 'GBP' }],
  ['sterling', { code: 'GBP' }],
  ['¥', { family: YEN, assumed: 'JPY' }],
  ['￥', { family: YEN, assumed: 'JPY' }],
  ['yen', { code: 'JPY' }],
  ['jp¥', { code: 'JPY' }],
  ['cn¥', { code: 'CNY' }],
  ['rmb', { code: 'CNY' }],
  ['yuan', { code: 'CNY' }],
  ['₹', { code: 'INR' }],
  ['rs', { family: RUPEE }],
  ['rs.', { family: RUPEE }],
  ['kr', { family: KRONE }],
  ['kr.', { family: KRONE }],
  ['sfr', { code: 'CHF' }],
  ['sfr.', { code: 'CHF' }],
  ['₩', { code: 'KRW' }],
  ['₽', { code: 'RUB' }],
  ['₺', { code: 'TRY' }],
  ['₪', { code: 'ILS' }],
  ['₱', { code: 'PHP' }],
  ['฿', { code: 'THB' }],
  ['₫', { code: 'VND' }],
  ['₦', { code: 'NGN' }],
  ['zł', { code: 'PLN' }],
  ['kč', { code: 'CZK' }],
]);

const CODE = /^[A-Za-z]{3}$/;

/**
 * Reads one token as a currency. Three-letter tokens are ISO codes when OED lists them; with
 * codesUpperCaseOnly (header words outside brackets) only upper-case spellings count, so a header
 * word like "Top" is not read as the Tongan paʻanga.
 */
export function currencyToken(
  token: string,
  currencies: ReadonlySet<string>,
  codesUpperCaseOnly = false,
): CurrencyToken | null {
  const written = WRITTEN.get(token.toLowerCase());
  if (written !== undefined) return { written: token, ...written };
  if (CODE.test(token)) {
    if (codesUpperCaseOnly && token !== token.toUpperCase()) return null;
    const code = token.toUpperCase();
    if (currencies.has(code)) return { written: token, code };
  }
  return null;
}

export type ResolvedCurrency =
  | { code: string; guessed: boolean }
  | { code: null; written: string; family: readonly string[] };

/** The currency a token stands for, given the currency the request declared (if any). */
export function resolveCurrency(token: CurrencyToken, declared: string | undefined): ResolvedCurrency {
  if (token.code !== undefined) return { code: token.code, guessed: false };
  const family = token.family ?? [];
  if (declared !== undefined && family.includes(declared)) return { code: declared, guessed: false };
  if (token.assumed !== undefined) return { code: token.assumed, guessed: true };
  return { code: null, written: token.written, family };
}
