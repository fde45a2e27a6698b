import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatUnits } from '../../../src/domain/exposure/minor-units.js';
import { decimalMarkShown, readMoney, scaleWord, type MoneyContext } from '../../../src/domain/exposure/money.js';

/** Amounts are read into ten-thousandths; these cases are written in cents. */
const formatCents = (cents: bigint) => formatUnits(cents * 100n, 2);
import { oedReference } from './support.js';

const anglo: MoneyContext = { currencies: oedReference().currencies, decimalComma: false };
const continental: MoneyContext = { ...anglo, decimalComma: true };

function amount(text: string, context = anglo) {
  const reading = readMoney(text, context);
  assert.equal(reading.kind, 'amount', `${text}: ${JSON.stringify(reading, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`);
  return reading as Extract<ReturnType<typeof readMoney>, { kind: 'amount' }>;
}

test('what brokers type, read to exact cents with the currency written', () => {
  const cases: Array<[string, bigint, string | null, string | null]> = [
    // text, cents, currency as written (or null), ISO code it names alone (or null)
    ['$1,200,000', 120_000_000n, '$', null],
    ['1.2m', 120_000_000n, null, null],
    ['1.2 M', 120_000_000n, null, null],
    ['USD 1 200 000', 120_000_000n, 'USD', 'USD'],
    ['€ 2,5 Mio', 250_000_000n, '€', 'EUR'],
    ['£750k', 75_000_000n, '£', 'GBP'],
    ['2.500.000,00 EUR', 250_000_000n, 'EUR', 'EUR'],
    ["1'200'000", 120_000_000n, null, null],
    ['US$ 3.5bn', 350_000_000_000n, 'US$', 'USD'],
    ['A$1,000', 100_000n, 'A$', 'AUD'],
    ['C$ 2.5M', 250_000_000n, 'C$', 'CAD'],
    ['CHF 12’500’000', 1_250_000_000n, 'CHF', 'CHF'],
    ['R$ 8.000.000,00', 800_000_000n, 'R$', 'BRL'],
    ['12.5 million HKD', 1_250_000_000n, 'HKD', 'HKD'],
    ['1234567.89', 123_456_789n, null, null],
    ['0', 0n, null, null],
    ['.5m', 50_000_000n, null, null],
    ['1 200 000,50 €', 120_000_050n, '€', 'EUR'],
  ];
  for (const [text, cents, written, code] of cases) {
    const reading = amount(text);
    assert.equal(reading.units, cents * 100n, text);
    assert.equal(reading.currency?.written ?? null, written, text);
    assert.equal(reading.currency?.code ?? null, code, text);
  }
});

test('scale words: k, m, Mio, bn; a bare m is flagged as a guess', () => {
  assert.deepEqual(scaleWord('k'), { exponent: 3, written: 'k', guessed: false });
  assert.deepEqual(scaleWord('M'), { exponent: 6, written: 'M', guessed: true });
  assert.deepEqual(scaleWord('Mio'), { exponent: 6, written: 'Mio', guessed: false });
  assert.deepEqual(scaleWord("'000"), { exponent: 3, written: "'000", guessed: false });
  assert.equal(scaleWord('bn')?.exponent, 9);
  assert.equal(scaleWord('x'), null);
  assert.equal(amount('1.2m').scale?.guessed, true);
  assert.equal(amount('1.2 Mio').scale?.guessed, false);
  // a column scale applies when the cell has none, and the cell's own wins
  const thousands = scaleWord('000s');
  assert.equal((readMoney('12,500', anglo, thousands) as { units: bigint }).units, 1_250_000_000_00n);
  assert.equal((readMoney('1.5m', anglo, thousands) as { units: bigint }).units, 150_000_000_00n);
});

test('a lone mark before three digits is read by the file convention and says so', () => {
  assert.equal(amount('1,200').units, 120_000_00n);
  assert.equal(amount('1,200').separatorGuess, 'decimal point');
  assert.equal(amount('1.200').units, 120_00n);
  assert.equal(amount('1,200', continental).units, 120_00n);
  assert.equal(amount('1.200', continental).units, 120_000_00n);
  assert.equal(amount('1.200', continental).separatorGuess, 'decimal comma');
  // not ambiguous: more than three digits before, two after, a leading zero, several marks
  assert.equal(amount('1234,567').units, 1_234_5670n);
  assert.equal(amount('0,500').units, 5000n);
  assert.equal(amount('1,20').units, 1_2000n);
  assert.equal(amount('1,200,000').separatorGuess, null);
});

test('amounts are exact to four decimals (the finest ISO 4217 minor unit); more are rounded half-up and flagged', () => {
  // Read exactly: three decimals are a BHD or KWD amount, not a rounding.
  assert.deepEqual([amount('0.005').units, amount('0.005').rounded], [50n, false]);
  assert.deepEqual([amount('1200.125').units, amount('1200.125').rounded], [12_001_250n, false]);
  assert.deepEqual([amount('0.00005').units, amount('0.00005').rounded], [1n, true]);
  assert.deepEqual([amount('0.000049').units, amount('0.000049').rounded], [0n, true]);
  assert.deepEqual([amount('120000000.55555').units, amount('120000000.55555').rounded], [1_200_000_005_556n, true]);
  assert.equal(amount('1.25').rounded, false);
  // beyond 2^53 the digits still go through exactly
  assert.equal(amount('98765432109876543210.99').units, 987_654_321_098_765_432_109_900n);
});

test('empty markers are empty; negatives, ranges, percentages and words are unreadable', () => {
  for (const text of ['', '  ', '-', '–', 'n/a', 'N/A', 'nil', 'none']) assert.equal(readMoney(text, anglo).kind, 'empty', text);
  const unreadable: Array<[string, string]> = [
    ['(1,000)', 'negative value'],
    ['-5', 'negative value'],
    ['12%', "'%' is neither a currency nor a scale"],
    ['tbc', 'no number'],
    ['1.2m-1.5m', 'not one number'],
    ['1,2,3.4.5', 'not one number'],
    ['12 34', 'not one number'],
    ['$5 €5', 'not one number'],
    ['USD 5 EUR', 'two currencies'],
    ['5 k m', 'two scale words'],
    ['1'.repeat(30), 'too many digits'],
  ];
  for (const [text, reason] of unreadable) assert.deepEqual(readMoney(text, anglo), { kind: 'unreadable', reason }, text);
});

test('decimalMarkShown: the decimal mark an amount shows unambiguously', () => {
  const cases: Array<[string, 'comma' | 'point' | null]> = [
    ['1.500.000', 'comma'], ['2,5 Mio', 'comma'], ['2.500.000,00 EUR', 'comma'], ['1 200 000,50', 'comma'],
    ['1,500,000', 'point'], ['1.25', 'point'], ['$1,200,000.50', 'point'], ['1.2m', 'point'],
    ['1,200', null], ['1.200', null], ['12', null], ['USD 1 200 000', null],
  ];
  for (const [text, shown] of cases) assert.equal(decimalMarkShown(text), shown, text);
});

test('formatUnits writes the minor unit of the currency, rounding half-up', () => {
  assert.equal(formatUnits(0n, 2), '0.00');
  assert.equal(formatUnits(500n, 2), '0.05');
  assert.equal(formatUnits(12_000_005_000n, 2), '1200000.50');
  assert.equal(formatUnits(-15_000n, 2), '-1.50');
  assert.equal(formatUnits(12_000_005_000n, 0), '1200001');
  assert.equal(formatUnits(12_000_004_999n, 0), '1200000');
  assert.equal(formatUnits(12_001_250n, 3), '1200.125');
  assert.equal(formatUnits(12_001_255n, 3), '1200.126');
  assert.equal(formatUnits(12_001_255n, 4), '1200.1255');
});

test('property: any cents written as a decimal string (or with grouping) read back exactly', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.constantFrom('', '$', 'EUR ', '€'), (cents, prefix) => {
      const plain = formatCents(cents);
      assert.equal(amount(prefix + plain).units, cents * 100n);
      const [int = '', frac = ''] = plain.split('.');
      const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + '.' + frac;
      assert.equal(amount(prefix + grouped).units, cents * 100n);
      const continentalText = int.replace(/\B(?=(\d{3})+(?!\d))/g, '.') + ',' + frac;
      assert.equal(amount(prefix + continentalText, continental).units, cents * 100n);
    }),
  );
});

test('property: readMoney never throws on any string', () => {
  fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.boolean(), (text, decimalComma) => {
    readMoney(text, { ...anglo, decimalComma });
  }));
});
