// Properties of readSchedule over generated input: it never throws; it answers ok (with the
// fidelity block) or 415 unsupported_source; it is deterministic; its totals are the sums of its
// locations; and a schedule rendered from known values (any delimiter, money style, title lines,
// blank lines, a totals row) reads back to exactly those values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatUnits, minorUnits } from '../../../src/domain/exposure/minor-units.js';

const formatCents = (cents: bigint) => formatUnits(cents * 100n, 2);
import { readSchedule } from '../../../src/domain/exposure/read-schedule.js';
import { COVERAGE_PARTS, type ReadScheduleResult } from '../../../src/domain/exposure/types.js';
import { oedReference } from './support.js';
import { unwrap } from '../../../src/kernel/result.js';

const oed = oedReference();
/** Money has exactly the ISO 4217 minor unit of its currency (two places without one). */
const money = (currency: string | undefined) => {
  const digits = minorUnits(currency);
  return new RegExp(digits === 0 ? '^\\d+$' : `^\\d+\\.\\d{${digits}}$`);
};
/** A money string in its minor unit as an integer (sums of one currency share the unit). */
const minor = (value: string) => BigInt(value.replace('.', ''));
const formatMinor = (value: bigint, currency: string | undefined) => {
  const digits = minorUnits(currency);
  return formatUnits(value * 10n ** BigInt(4 - digits), digits);
};

/** What every answer must satisfy, whatever the input. */
function checkAnswer(result: ReadScheduleResult, lines: number): void {
  if (!result.ok) {
    assert.equal(result.refusal.status, 415, result.refusal.message);
    assert.equal(result.refusal.code, 'unsupported_source');
    assert.ok(result.refusal.message.length > 0);
    return;
  }
  const { exposure } = result.value;
  const fidelity = exposure.source_fidelity;
  assert.ok(Array.isArray(fidelity.unmapped_columns) && Array.isArray(fidelity.guessed_units) && Array.isArray(fidelity.ambiguous_rows) && Array.isArray(fidelity.notes));
  for (const { row, reason } of fidelity.ambiguous_rows) {
    assert.ok(Number.isInteger(row) && row >= 1 && row <= lines, `row ${row} of ${lines}`);
    assert.ok(reason.length > 0);
  }
  for (const column of fidelity.unmapped_columns) assert.ok(column.sample.length <= 3 && new Set(column.sample).size === column.sample.length);
  for (const location of exposure.locations) {
    if (location.latitude !== null) assert.ok(Math.abs(location.latitude) <= 90);
    if (location.longitude !== null) assert.ok(Math.abs(location.longitude) <= 180);
    assert.equal(location.latitude === null, location.longitude === null);
    for (const value of Object.values(location.values)) if (value !== null) assert.match(value, money(location.currency));
  }
  if (exposure.values_by_currency === undefined) {
    // Schedule totals are the sums of the locations' values, part by part.
    for (const part of COVERAGE_PARTS) {
      const values = exposure.locations.map((l) => l.values[part]).filter((v): v is string => v !== undefined);
      assert.equal(exposure.values[part], values.length === 0 ? undefined : formatMinor(values.reduce((sum, v) => sum + minor(v), 0n), exposure.currency));
    }
    const totals = exposure.locations.map((l) => l.values.total).filter((v): v is string => v !== null);
    assert.equal(exposure.values.total, totals.length === 0 ? null : formatMinor(totals.reduce((sum, v) => sum + minor(v), 0n), exposure.currency));
  }
}

function lineCount(bytes: Uint8Array): number {
  let lines = 1;
  for (const b of bytes) if (b === 0x0a || b === 0x0d) lines++;
  return lines;
}

test('property: random bytes → ok with fidelity notes, or 415 unsupported_source; never throws', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.uint8Array({ maxLength: 2048 }),
        fc.uint8Array({ maxLength: 512 }).map((b) => new Uint8Array([0xef, 0xbb, 0xbf, ...b])),
        fc.uint8Array({ maxLength: 512 }).map((b) => new Uint8Array([0xff, 0xfe, ...b])),
        fc.uint8Array({ maxLength: 512 }).map((b) => new Uint8Array([0xfe, 0xff, ...b])),
        fc.array(fc.integer({ min: 0x20, max: 0xff }), { maxLength: 1024 }).map((b) => new Uint8Array(b)),
      ),
      (bytes) => {
        const result = readSchedule(bytes, { fileName: 'random.bin', oed });
        // UTF-16 doubles nothing: a line break byte is still at most one line
        checkAnswer(result, lineCount(bytes));
      },
    ),
    { numRuns: 400 },
  );
});

const headerName = fc.constantFrom('Ref', 'Loc #', 'Lat', 'Long', 'Latitude (deg)', 'TIV', 'TIV (EUR)', 'Building Value', 'Contents', 'BI', 'Currency', 'Occupancy', 'Constr', 'YOB', 'Stories', 'Peril', 'Notes', 'Coordinates', '', 'City');
const cellValue = fc.oneof(
  fc.constantFrom('$1,200,000', '1.2m', '1.2 M', '€ 2,5 Mio', '£750k', '2.500.000,00 EUR', 'USD 1 200 000', '-5', '(100)', 'n/a', '0', '1,200', '1.200', 'kr 5', '¥3m', 'A$1'),
  fc.constantFrom(`40°26'46"N`, '40 26 46 N', `79°58'56.0"W`, '91', '-79,98', '0', '40.5, -70.2', 'N 40'),
  fc.constantFrom('Total', 'Grand total', 'Subtotal', 'Hurricane', 'Flood', 'WTC;WSS', 'AA1', 'Office', 'Wood frame', '1050', '9999', 'USD', 'EUR', 'kr', '1985', '19xx', 'Ref', 'TIV', 'Lat'),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
);

const delimitedText = fc
  .record({
    delimiter: fc.constantFrom(',', ';', '\t', '|'),
    eol: fc.constantFrom('\n', '\r\n', '\r'),
    title: fc.array(fc.string({ maxLength: 20 }), { maxLength: 3 }),
    header: fc.array(headerName, { minLength: 1, maxLength: 8 }),
    rows: fc.array(fc.array(cellValue, { maxLength: 9 }), { maxLength: 25 }),
    quoting: fc.constantFrom('none', 'needed', 'all', 'broken'),
  })
  .map(({ delimiter, eol, title, header, rows, quoting }) => {
    const cell = (text: string) => {
      if (quoting === 'all') return `"${text.replace(/"/g, '""')}"`;
      if (quoting === 'needed' && /["\r\n]/.test(text + delimiter) && (text.includes(delimiter) || /["\r\n]/.test(text))) return `"${text.replace(/"/g, '""')}"`;
      if (quoting === 'broken' && text.length > 0 && text.length % 3 === 0) return `"${text}`;
      return text;
    };
    return [...title, header.map(cell).join(delimiter), ...rows.map((row) => row.map(cell).join(delimiter))].join(eol);
  });

test('property: random delimited text → ok (totals equal the sums of locations) or 415; never throws; deterministic', () => {
  fc.assert(
    fc.property(delimitedText, fc.constantFrom('a.csv', 'a.tsv', 'a.txt'), (text, fileName) => {
      const bytes = new TextEncoder().encode(text);
      const first = readSchedule(bytes, { fileName, oed });
      checkAnswer(first, lineCount(bytes));
      assert.deepEqual(readSchedule(bytes, { fileName, oed }), first);
    }),
    { numRuns: 400 },
  );
});

test('property: with a request currency the only other answer is 422 currency_conflict naming both', () => {
  fc.assert(
    fc.property(delimitedText, fc.constantFrom('USD', 'EUR', 'GBP', 'CAD'), (text, currency) => {
      const bytes = new TextEncoder().encode(text);
      const result = readSchedule(bytes, { fileName: 'a.csv', oed, currency });
      if (!result.ok && result.refusal.code === 'currency_conflict') {
        assert.equal(result.refusal.status, 422);
        assert.match(result.refusal.message, new RegExp(`^the file states .+ but the request declared ${currency}$`));
        assert.ok((result.refusal.details ?? []).length > 0);
        return;
      }
      checkAnswer(result, lineCount(bytes));
      if (result.ok) {
        assert.equal(result.value.exposure.currency, currency);
        assert.deepEqual(result.value.exposure.source_fidelity.guessed_units[0], { field: 'currency', unit: currency, source: 'request' });
      }
    }),
    { numRuns: 200 },
  );
});

// ---- model-based: render known locations, read them back ---------------------------------------

interface Model {
  ref: string;
  latitude: number;
  longitude: number;
  buildings: bigint;
  contents: bigint | null;
}

const modelLocations = fc.uniqueArray(
  fc.record({
    ref: fc.stringMatching(/^[A-Z]{1,3}-\d{1,5}$/),
    latitude: fc.integer({ min: -899999, max: 899999 }).map((n) => n / 10000),
    longitude: fc.integer({ min: -1799999, max: 1799999 }).map((n) => n / 10000),
    buildings: fc.bigInt({ min: 0n, max: 10n ** 13n }),
    contents: fc.option(fc.bigInt({ min: 0n, max: 10n ** 11n }), { nil: null }),
  }).filter((l) => l.latitude !== 0 || l.longitude !== 0), // 0, 0 is read as missing (tested elsewhere)
  { minLength: 1, maxLength: 30, selector: (l) => l.ref },
);

function grouped(value: bigint, group: string, decimal: string): string {
  const [int = '', frac = ''] = formatCents(value).split('.');
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, group) + decimal + frac;
}

test('property: a schedule rendered from known values reads back to exactly those values', () => {
  fc.assert(
    fc.property(
      modelLocations,
      fc.record({
        delimiter: fc.constantFrom(',', ';', '\t', '|'),
        style: fc.constantFrom('plain', 'dollar', 'euro-continental', 'iso-suffix'),
        hemispheres: fc.boolean(),
        titles: fc.array(fc.constantFrom('Property schedule', 'Renewal 2026', 'Prepared by a broker'), { maxLength: 3 }),
        blankEvery: fc.integer({ min: 0, max: 5 }),
        totalsRow: fc.boolean(),
        eol: fc.constantFrom('\n', '\r\n'),
      }),
      (locations, { delimiter, style, hemispheres, titles, blankEvery, totalsRow, eol }) => {
        const money = (value: bigint) => {
          switch (style) {
            case 'plain': return formatCents(value);
            case 'dollar': return `"$${grouped(value, ',', '.')}"`;
            case 'euro-continental': return `"${grouped(value, '.', ',')} €"`;
            case 'iso-suffix': return `"${grouped(value, ' ', '.')} GBP"`;
          }
        };
        const coordinate = (value: number, positive: string, negative: string) =>
          hemispheres ? `${Math.abs(value)} ${value < 0 ? negative : positive}` : String(value);
        const lines = [...titles, ['Location ID', 'Latitude', 'Longitude', 'Building Value', 'Contents Value'].join(delimiter)];
        locations.forEach((l, i) => {
          if (blankEvery > 0 && i % blankEvery === 0) lines.push('');
          lines.push([l.ref, coordinate(l.latitude, 'N', 'S'), coordinate(l.longitude, 'E', 'W'), money(l.buildings), l.contents === null ? '' : money(l.contents)].join(delimiter));
        });
        const buildings = locations.reduce((s, l) => s + l.buildings, 0n);
        const contents = locations.reduce((s, l) => s + (l.contents ?? 0n), 0n);
        if (totalsRow) lines.push(['Total', '', '', money(buildings), money(contents)].join(delimiter));
        const result = readSchedule(new TextEncoder().encode(lines.join(eol)), { fileName: 'model.csv', oed });
        assert.equal(result.ok, true);
        const { exposure } = unwrap(result);
        assert.deepEqual(
          exposure.locations.map((l) => [l.ref, l.latitude, l.longitude, l.values]),
          locations.map((l: Model) => [l.ref, l.latitude, l.longitude, {
            buildings: formatCents(l.buildings),
            ...(l.contents === null ? {} : { contents: formatCents(l.contents) }),
            total: formatCents(l.buildings + (l.contents ?? 0n)),
          }]),
        );
        const anyContents = locations.some((l) => l.contents !== null);
        assert.deepEqual(exposure.values, { buildings: formatCents(buildings), ...(anyContents ? { contents: formatCents(contents) } : {}), total: formatCents(buildings + contents) });
        assert.equal(exposure.currency, { plain: undefined, dollar: 'USD', 'euro-continental': 'EUR', 'iso-suffix': 'GBP' }[style]);
        assert.deepEqual(exposure.source_fidelity.unmapped_columns, []);
        for (const { reason } of exposure.source_fidelity.ambiguous_rows) assert.match(reason, /^totals row \('Total'\) excluded; its values equal the sum of the rows above$/);
      },
    ),
    { numRuns: 300 },
  );
});
