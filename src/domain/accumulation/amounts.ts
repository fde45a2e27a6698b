// Amounts as accumulation sums them: exact ten-thousandths (as ingest reads them), read from the
// decimal text of a location's value. Shared by the sums (accumulate.ts) and the digests written
// for them (digest.ts), so both read a value alike. Pure.
import { UNIT_DECIMALS } from '../exposure/minor-units.js';

const SCALE = 10 ** UNIT_DECIMALS;

/** A decimal amount ("1200000.50") in ten-thousandths, or null when it is not one. */
export function decimalUnits(text: unknown): bigint | null {
  if (typeof text !== 'string') return null;
  const m = /^(-?)(\d+)(?:\.(\d{1,4}))?$/.exec(text);
  if (!m) return null;
  const units = BigInt(m[2]!) * BigInt(SCALE) + BigInt((m[3] ?? '').padEnd(UNIT_DECIMALS, '0'));
  return m[1] ? -units : units;
}

const DECIMAL = /^-?\d{1,9}(?:\.\d{1,4})?$/;
/**
 * The same, as a number when the amount is below a billion (its ten-thousandths then fit a double
 * exactly and the product rounds to them), else as a bigint: most amounts skip bigint arithmetic.
 */
export function amountUnits(text: unknown): number | bigint | null {
  if (typeof text !== 'string') return null;
  if (DECIMAL.test(text)) return Math.round(Number(text) * SCALE);
  return decimalUnits(text);
}
