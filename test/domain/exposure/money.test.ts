import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decimalMarkShown, formatCents, readMoney, scaleWord, type MoneyContext } from '../../../src/domain/exposure/money.js';
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
    assert.equal(reading.cents, cents, text);
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
  assert.equal((readMoney('12,500', anglo, thousands) as { cents: bigint }).cents, 1_250_000_000n);
  assert.equal((readMoney('1.5m', anglo, thousands) as { cents: bigint }).cents, 150_000_000n);
});

test('a lone mark before three digits is read by the file convention and says so', () => {
  assert.equal(amount('1,200').cents, 120_000n);
  assert.equal(amount('1,200').separatorGuess, 'decimal point');
  assert.equal(amount('1.200').cents, 120n);
  assert.equal(amount('1,200', continental).cents, 120n);
  assert.equal(amount('1.200', continental).cents, 120_000n);
  assert.equal(amount('1.200', continental).separatorGuess, 'decimal comma');
  // not ambiguous: more than three digits before, two after, a leading zero, several marks
  assert.equal(amount('1234,567').cents, 123_457n);
  assert.equal(amount('0,500').cents, 50n);
  assert.equal(amount('1,20').cents, 120n);
  assert.equal(amount('1,200,000').separatorGuess, null);
});

test('more than two decimals are rounded half-up to cents and flagged', () => {
  assert.deepEqual([amount('0.005').cents, amount('0.005').rounded], [1n, true]);
  assert.deepEqual([amount('0.0049').cents, amount('0.0049').rounded], [0n, true]);
  assert.deepEqual([amount('120000000.555').cents, amount('120000000.555').rounded], [12_000_000_056n, true]);
  assert.equal(amount('1.25').rounded, false);
  // beyond 2^53 the digits still go through exactly
  assert.equal(amount('98765432109876543210.99').cents, 9_876_543_210_987_654_321_099n);
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

test('formatCents writes two places', () => {
  assert.equal(formatCents(0n), '0.00');
  assert.equal(formatCents(5n), '0.05');
  assert.equal(formatCents(120_000_050n), '1200000.50');
  assert.equal(formatCents(-150n), '-1.50');
});

test('property: any cents written as a decimal string (or with grouping) read back exactly', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.constantFrom('', '$', 'EUR ', '€'), (cents, prefix) => {
      const plain = formatCents(cents);
      assert.equal(amount(prefix + plain).cents, cents);
      const [int = '', frac = ''] = plain.split('.');
      const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + '.' + frac;
      assert.equal(amount(prefix + grouped).cents, cents);
      const continentalText = int.replace(/\B(?=(\d{3})+(?!\d))/g, '.') + ',' + frac;
      assert.equal(amount(prefix + continentalText, continental).cents, cents);
    }),
  );
});

test('property: readMoney never throws on any string', () => {
  fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.boolean(), (text, decimalComma) => {
    readMoney(text, { ...anglo, decimalComma });
  }));
});
