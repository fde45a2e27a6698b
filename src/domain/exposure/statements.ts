// What title and footer lines state about the whole schedule: "All values in EUR", "Currency: USD",
// "Hurricane schedule 2026". A currency counts only next to a word that announces one, and only
// when the line names exactly one; ISO codes count only in upper case.
import { currencyToken, type CurrencyToken } from './currency.js';
import type { OedReference } from './oed-reference.js';
import { perilsNamed } from './peril-words.js';
import type { PerilCode } from './types.js';

const ANNOUNCES_CURRENCY = /\b(?:currency|ccy|values? (?:are )?in|amounts? (?:are )?in|figures (?:are )?in|all values|all amounts|sums? insured in|tiv in)\b/i;
const TOKENS = /[\s:;,()[\]=]+/;

export interface LineStatement {
  currency: CurrencyToken | null;
  perils: PerilCode[];
}

export function readLineStatement(text: string, oed: OedReference): LineStatement {
  let currency: CurrencyToken | null = null;
  if (ANNOUNCES_CURRENCY.test(text)) {
    const found = new Map<string, CurrencyToken>();
    for (const token of text.split(TOKENS)) {
      if (token === '') continue;
      const named = currencyToken(token, oed.currencies, true);
      if (named !== null) found.set(named.code ?? named.written, named);
    }
    if (found.size === 1) currency = [...found.values()][0] ?? null;
  }
  return { currency, perils: perilsNamed(text, oed).perils };
}
