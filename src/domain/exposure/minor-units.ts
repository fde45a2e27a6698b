// ISO 4217 minor units: how many decimals an amount in a currency carries (JPY 0, BHD 3, CLF 4).
// Amounts are read exactly into ten-thousandths of the unit (the finest minor unit ISO 4217 lists,
// CLF and UYW) and written with the decimals of their currency, rounded half-up.
//
// Every current ISO 4217 code whose minor unit is not 2, from the SIX list (List One) as
// republished in github.com/datasets/currency-codes data/codes-all.csv. Intl.NumberFormat is not
// used: it answers CLDR's cash digits, which differ from ISO for 18 codes (IQD 0 instead of 3;
// HUF, IDR, COP, PKR... 0 instead of 2) and may change with the ICU a Node release ships.
// Codes ISO lists without a minor unit (XAU, XDR, XXX...) and unknown codes keep two places.

/** Decimals of the internal unit amounts are read into. */
export const UNIT_DECIMALS = 4;

const MINOR_UNITS: ReadonlyMap<string, number> = new Map([
  ...['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF'].map((c) => [c, 0] as const),
  ...['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'].map((c) => [c, 3] as const),
  ...['CLF', 'UYW'].map((c) => [c, 4] as const),
]);

/** Decimals the currency's amounts carry; two when no currency is known. */
export function minorUnits(currency: string | null | undefined): number {
  return currency == null ? 2 : MINOR_UNITS.get(currency) ?? 2;
}

const POWERS = [1n, 10n, 100n, 1000n, 10000n] as const;

/** Units (ten-thousandths) rounded half-up to the currency's decimals, still in units. */
export function roundToMinor(units: bigint, decimals: number): bigint {
  const step = POWERS[UNIT_DECIMALS - decimals] ?? 1n;
  if (step === 1n) return units;
  const negative = units < 0n;
  const magnitude = negative ? -units : units;
  const remainder = magnitude % step;
  const rounded = magnitude - remainder + (remainder * 2n >= step ? step : 0n);
  return negative ? -rounded : rounded;
}

/** Units → decimal string with the currency's decimals ("1200000.50", "1200000", "1200.125"). */
export function formatUnits(units: bigint, decimals: number): string {
  const rounded = roundToMinor(units, decimals);
  const negative = rounded < 0n;
  const digits = (negative ? -rounded : rounded).toString().padStart(UNIT_DECIMALS + 1, '0');
  const whole = digits.slice(0, -UNIT_DECIMALS);
  const fraction = digits.slice(digits.length - UNIT_DECIMALS, digits.length - UNIT_DECIMALS + decimals);
  return `${negative ? '-' : ''}${whole}${decimals > 0 ? `.${fraction}` : ''}`;
}
