// The broker-schedule corpus (test/fixtures/schedules): each file read and its exposure asserted
// whole — every location, every total and every source-fidelity entry, written out by hand from
// the fixture's text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSchedule } from '../../../src/domain/exposure/read-schedule.js';
import type { ScheduleRead, ScheduleLocation } from '../../../src/domain/exposure/types.js';
import { fixture, oedReference } from './support.js';
import { unwrap } from '../../../src/kernel/result.js';

const oed = oedReference();

function read(name: string, currency?: string): ScheduleRead {
  const result = readSchedule(fixture(name), { fileName: name, oed, ...(currency === undefined ? {} : { currency }) });
  assert.equal(result.ok, true, result.ok ? '' : `${result.refusal.code}: ${result.refusal.message}`);
  return unwrap(result);
}

const uncoded = { code: null, text: null };

test('01 title lines, DMS coordinates, $ amounts, a quoted newline and a grand total (CRLF)', () => {
  const r = read('01-acme-title-lines-dms.csv');
  assert.equal(r.mediaTypeRead, 'text/csv');
  assert.equal(r.delimiter, ',');
  assert.deepEqual(r.peril, { code: 'tropical_cyclone' }); // "Hurricane cover" on a title line
  const us = (street: string, city: string, postcode: string) => ({ street, city, postcode, country: 'US' });
  const expected: ScheduleLocation[] = [
    {
      ref: '1',
      address: us('100 Biscayne Blvd, Suite 2', 'Miami', '33132'),
      latitude: 25.775, // 25°46'30"N
      longitude: -80.1875, // 80°11'15"W
      occupancy: { code: 1104, text: 'Office' },
      construction: { code: 5050, text: 'Wood frame' },
      year_built: 1985,
      values: { buildings: '1200000.00', contents: '250000.00', business_interruption: '1200000.00', total: '2650000.00' },
      currency: 'USD',
    },
    {
      ref: '2',
      address: us('7 Ocean Dr\r\nUnit B', 'Miami Beach', '33139'),
      latitude: 25.775, // 25 46 30 N
      longitude: -80.13, // 80 7 48 W
      occupancy: { code: 1050, text: 'Residential' },
      construction: { code: 5150, text: 'Reinforced concrete' },
      year_built: 2001,
      values: { buildings: '800000.50', total: '800000.50' },
      currency: 'USD',
    },
    {
      ref: '3',
      address: us('55 Harbor Way', 'Fort Lauderdale', '33301'),
      latitude: 26.1224,
      longitude: -80.1373,
      occupancy: { code: null, text: 'Hotel' },
      construction: { code: 5100, text: 'Masonry' },
      year_built: 1978,
      values: { buildings: '2000000.00', contents: '300000.00', business_interruption: '0.00', total: '2300000.00' },
      currency: 'USD',
    },
    {
      ref: '4',
      address: us('9 Keys Rd', 'Key West', '33040'),
      latitude: null,
      longitude: null,
      occupancy: { code: 1122, text: 'Warehouse' },
      construction: { code: 5200, text: 'Steel' },
      year_built: null,
      values: { buildings: '500000.00', total: '500000.00' },
      currency: 'USD',
    },
  ];
  assert.deepEqual(r.exposure, {
    locations: expected,
    values: { buildings: '4500000.50', contents: '550000.00', business_interruption: '1200000.00', total: '6250000.50' },
    currency: 'USD',
    source_fidelity: {
      encoding: 'utf-8',
      unmapped_columns: [{ column: 'Notes', sample: ['corner lot', 'sea view'] }],
      guessed_units: [
        { field: 'currency', unit: 'USD', source: "symbol '$' in column 'Building Value'" },
        { field: 'scale', unit: 'million', source: "suffix 'm' in column 'BI'" },
        { field: 'currency', unit: 'USD', source: "symbol '$' in column 'Contents'" },
      ],
      ambiguous_rows: [
        { row: 8, reason: "occupancy 'Hotel' has no unambiguous OED code; kept as given" },
        { row: 9, reason: "latitude '95.5': latitude out of range (±90); coordinates null" },
        { row: 9, reason: "year built '19xx' is not a year; null" },
        { row: 11, reason: "totals row ('Grand total') excluded; its values equal the sum of the rows above" },
      ],
      notes: ['header row on line 4; 2 line(s) above it read as title lines'],
      totals_rows: [{
        row: 11, kind: 'total', label: 'Grand total', matched: true, rows_summed: 4,
        stated: { buildings: '4500000.50', contents: '550000.00', business_interruption: '1200000.00' },
        summed: { buildings: '4500000.50', contents: '550000.00', business_interruption: '1200000.00' },
      }],
    },
  });
});

test('02 semicolon file with decimal commas, € amounts, Mio, unmapped French columns', () => {
  const r = read('02-paris-semicolon.csv');
  assert.equal(r.mediaTypeRead, 'text/csv');
  assert.equal(r.delimiter, ';');
  assert.deepEqual(r.peril, { code: 'extratropical_cyclone' }); // European windstorm, Winter storm
  assert.deepEqual(r.exposure, {
    locations: [
      {
        ref: 'FR-001',
        address: { postcode: '75001', country: 'FR' },
        latitude: 48.8566,
        longitude: 2.3522,
        occupancy: { code: null, text: 'Bureau' },
        construction: { code: null, text: 'Béton armé' },
        year_built: 1972,
        values: { buildings: '2500000.00', contents: '2500000.00', total: '5000000.00' },
        currency: 'EUR',
      },
      {
        ref: 'FR-002',
        address: { postcode: '69002', country: 'FR' },
        latitude: 45.764,
        longitude: 4.8357,
        occupancy: { code: 1104, text: 'Office' },
        construction: { code: 5100, text: 'Masonry' },
        year_built: 1890,
        values: { buildings: '1200000.00', contents: '350000.00', total: '1550000.00' },
        currency: 'EUR',
      },
      {
        ref: 'DE-003',
        address: { postcode: '50667', country: 'DE' },
        latitude: 50.9411111, // 50°56'28"N
        longitude: 6.9577778, // 6°57'28"E
        occupancy: { code: 1101, text: 'Retail' },
        construction: { code: 5150, text: 'Reinforced concrete' },
        year_built: 1955,
        values: { buildings: '3750000.50', total: '3750000.50' },
        currency: 'EUR',
      },
    ],
    values: { buildings: '7450000.50', contents: '2850000.00', total: '10300000.50' },
    currency: 'EUR',
    source_fidelity: {
      encoding: 'utf-8',
      unmapped_columns: [
        { column: 'Adresse', sample: ['12 Rue de Rivoli', '3 Quai Saint-Antoine', 'Domplatz 1'] },
        { column: 'Ville', sample: ['Paris', 'Lyon', 'Köln'] },
      ],
      guessed_units: [
        // "350.000": one point before three digits, read by the file's other amounts.
        { field: 'number_format', unit: 'decimal comma', source: 'amounts with a decimal comma elsewhere in the file' },
      ],
      ambiguous_rows: [
        { row: 4, reason: "occupancy 'Bureau' has no unambiguous OED code; kept as given" },
        { row: 4, reason: "construction 'Béton armé' has no unambiguous OED code; kept as given" },
      ],
      notes: ['header row on line 3; 2 line(s) above it read as title lines'],
    },
  });
});

test('02 with a request currency that the file contradicts → 422 currency_conflict naming both', () => {
  const result = readSchedule(fixture('02-paris-semicolon.csv'), { fileName: '02-paris-semicolon.csv', oed, currency: 'usd' });
  assert.deepEqual(result, {
    ok: false,
    refusal: {
      status: 422,
      code: 'currency_conflict',
      message: 'the file states EUR but the request declared USD',
      details: [
        "line 2: line 'All values in EUR' states EUR",
        "line 4: column 'Building Value' states EUR",
        "line 4: column 'Contents Value' states EUR ('€')",
      ],
    },
  });
});

test('02 with the currency the file states → read, the request recorded', () => {
  const r = read('02-paris-semicolon.csv', 'EUR');
  assert.equal(r.exposure.currency, 'EUR');
  assert.deepEqual(r.exposure.source_fidelity.guessed_units[0], { field: 'currency', unit: 'EUR', source: 'request' });
  assert.ok(r.exposure.locations.every((l) => l.currency === 'EUR'));
});

test('03 pipe-delimited, £ with k/m, hemisphere letters, a TIV column only', () => {
  const r = read('03-uk-pipe.psv');
  assert.equal(r.mediaTypeRead, 'text/csv');
  assert.equal(r.delimiter, '|');
  assert.equal(r.peril, undefined);
  const gb = (street: string, city: string, postcode: string) => ({ street, city, postcode, country: 'GB' });
  assert.deepEqual(r.exposure, {
    locations: [
      {
        ref: 'UK-1',
        address: gb('1 Canada Square', 'London', 'E14 5AB'),
        latitude: 51.5049,
        longitude: -0.0195,
        occupancy: { code: 1104, text: 'Office' },
        construction: { code: 5200, text: 'Steel frame' },
        year_built: 1991,
        values: { total: '750000.00' },
        currency: 'GBP',
      },
      {
        ref: 'UK-2',
        address: gb('22 Deansgate', 'Manchester', 'M3 1RH'),
        latitude: 53.4808,
        longitude: -2.2426,
        occupancy: { code: 1101, text: 'Retail' },
        construction: { code: 5100, text: 'Brick' },
        year_built: 1905,
        values: { total: '1250000.00' },
        currency: 'GBP',
      },
      {
        ref: 'UK-3',
        address: gb('Old Mill, 4 Water St', 'Leeds', 'LS1 4AP'),
        latitude: null,
        longitude: null,
        occupancy: { code: 1150, text: 'Industrial' },
        construction: { code: 5050, text: 'Timber' },
        year_built: 1850,
        values: { total: '2000000.00' },
        currency: 'GBP',
      },
      {
        ref: 'UK-4',
        address: gb('5 Castle St', 'Edinburgh', 'EH2 3AH'),
        latitude: 55.9533,
        longitude: -3.1883,
        occupancy: { code: 1055, text: 'Flats' },
        construction: { code: 5100, text: 'Masonry' },
        year_built: null,
        values: { total: null },
        currency: 'GBP',
      },
    ],
    values: { total: '4000000.00' },
    currency: 'GBP',
    source_fidelity: {
      encoding: 'utf-8',
      unmapped_columns: [],
      guessed_units: [{ field: 'scale', unit: 'million', source: "suffix 'm' in column 'TIV'" }],
      ambiguous_rows: [{ row: 5, reason: "year built 'c.1900' is not a year; null" }],
      notes: ["column 'TIV' gives total insured values without coverage parts; values are totals only"],
    },
  });
});

test('04 tab-delimited (CRLF), A$ and a currency column, storeys, two perils named', () => {
  const r = read('04-sydney-tab.tsv');
  assert.equal(r.mediaTypeRead, 'text/tab-separated-values');
  assert.equal(r.delimiter, '\t');
  assert.equal(r.peril, undefined);
  assert.deepEqual(r.exposure, {
    locations: [
      {
        ref: 'AU-01',
        address: { street: '1 Macquarie St', city: 'Sydney', area: 'NSW', postcode: '2000', country: 'AU' },
        latitude: -33.8688,
        longitude: 151.2093,
        occupancy: { code: 1104, text: 'Office' },
        construction: { code: 5150, text: 'Reinforced concrete' },
        year_built: null,
        storeys: 12,
        values: { buildings: '12500000.00', contents: '1500000.00', business_interruption: '3000000.00', total: '17000000.00' },
        currency: 'AUD',
      },
      {
        ref: 'AU-02',
        address: { street: '8 Ridge Rd, Blue Mountains', city: 'Katoomba', area: 'NSW', postcode: '2780', country: 'AU' },
        latitude: -33.712,
        longitude: 150.3119,
        occupancy: { code: 1050, text: 'Dwelling' },
        construction: { code: 5050, text: 'Timber' },
        year_built: null,
        storeys: 2,
        values: { buildings: '850000.00', contents: '120000.00', total: '970000.00' },
        currency: 'AUD',
      },
      {
        ref: 'AU-03',
        address: { street: '12 Esplanade', city: 'Cairns', area: 'QLD', postcode: '4870', country: 'AU' },
        latitude: -16.9186,
        longitude: 145.7781,
        occupancy: { code: null, text: 'Hotel' },
        construction: { code: 5100, text: 'Masonry' },
        year_built: null,
        storeys: null,
        values: { buildings: '4200000.00', contents: '600000.00', business_interruption: '900000.00', total: '5700000.00' },
        currency: 'AUD',
      },
    ],
    values: { buildings: '17550000.00', contents: '2220000.00', business_interruption: '3900000.00', total: '23670000.00' },
    currency: 'AUD',
    source_fidelity: {
      encoding: 'utf-8',
      unmapped_columns: [],
      guessed_units: [],
      ambiguous_rows: [
        { row: 4, reason: "occupancy 'Hotel' has no unambiguous OED code; kept as given" },
        { row: 4, reason: "storeys '4.5' is not a number of storeys; null" },
      ],
      notes: ['several perils named (wildfire from line 2, tropical_cyclone from line 4); peril.code not set'],
    },
  });
});

// Before ISO 4217 minor units, these JPY amounts were written with two decimals ('5000000000.00',
// L3 '120000000.56') and the OED identifiers were left unmapped.
// An OED location file (its header names PortNumber, AccNumber and LocNumber) keeps every OED field
// verbatim under oed, as OED types it (the TIV as written, before rounding to whole yen).
test('05 an OED location file (UTF-8 BOM): codes passed through, peril codes, JPY in whole yen, every OED field kept', () => {
  const r = read('05-oed-location.csv');
  assert.deepEqual(r.peril, { code: 'earthquake' }); // QEQ;QFF, QQ1, QEQ
  const jp = (street: string, city: string, postcode: string) => ({ street, city, postcode, country: 'JP' });
  assert.deepEqual(r.exposure, {
    locations: [
      {
        ref: 'L1',
        address: jp('1-1 Marunouchi', 'Chiyoda', '100-0005'),
        latitude: 35.6812,
        longitude: 139.7671,
        occupancy: { code: 1104, text: '1104' },
        construction: { code: 5151, text: '5151' },
        year_built: 1998,
        storeys: 20,
        values: { buildings: '5000000000', other: '0', contents: '1000000000', business_interruption: '2000000000', total: '8000000000' },
        oed: { PortNumber: 'P1', AccNumber: 'A1', LocNumber: 'L1', LocName: 'Head office', StreetAddress: '1-1 Marunouchi', City: 'Chiyoda', PostalCode: '100-0005', CountryCode: 'JP', Latitude: 35.6812, Longitude: 139.7671, OccupancyCode: 1104, ConstructionCode: 5151, YearBuilt: 1998, NumberOfStoreys: 20, LocPerilsCovered: 'QEQ;QFF', BuildingTIV: 5000000000, OtherTIV: 0, ContentsTIV: 1000000000, BITIV: 2000000000, LocCurrency: 'JPY' },
        currency: 'JPY',
        perils_covered: 'QEQ;QFF',
      },
      {
        ref: 'L2',
        address: jp('2-3 Ariake', 'Koto', '135-0063'),
        latitude: 35.635,
        longitude: 139.793,
        occupancy: { code: 1122, text: '1122' },
        construction: { code: 5200, text: '5200' },
        year_built: 2010,
        storeys: 2,
        values: { buildings: '800000000', other: '50000000', contents: '400000000', business_interruption: '0', total: '1250000000' },
        oed: { PortNumber: 'P1', AccNumber: 'A1', LocNumber: 'L2', LocName: 'Warehouse', StreetAddress: '2-3 Ariake', City: 'Koto', PostalCode: '135-0063', CountryCode: 'JP', Latitude: 35.635, Longitude: 139.793, OccupancyCode: 1122, ConstructionCode: 5200, YearBuilt: 2010, NumberOfStoreys: 2, LocPerilsCovered: 'QQ1', BuildingTIV: 800000000, OtherTIV: 50000000, ContentsTIV: 400000000, BITIV: 0, LocCurrency: 'JPY' },
        currency: 'JPY',
        perils_covered: 'QQ1',
      },
      {
        ref: 'L3',
        address: jp('4-5 Sakae', 'Nagoya', '460-0008'),
        latitude: 35.1709,
        longitude: 136.9084,
        occupancy: { code: null, text: '9999' },
        construction: { code: 5050, text: '5050' },
        year_built: 1985,
        storeys: -1, // OED: unknown number of storeys, low rise
        values: { buildings: '120000001', other: '0', contents: '30000000', business_interruption: '0', total: '150000001' }, // 120000000.555 rounded half-up to whole yen
        oed: { PortNumber: 'P1', AccNumber: 'A1', LocNumber: 'L3', LocName: 'Staff housing', StreetAddress: '4-5 Sakae', City: 'Nagoya', PostalCode: '460-0008', CountryCode: 'JP', Latitude: 35.1709, Longitude: 136.9084, OccupancyCode: 9999, ConstructionCode: 5050, YearBuilt: 1985, NumberOfStoreys: -1, LocPerilsCovered: 'QEQ', BuildingTIV: 120000000.555, OtherTIV: 0, ContentsTIV: 30000000, BITIV: 0, LocCurrency: 'JPY' },
        currency: 'JPY',
        perils_covered: 'QEQ',
      },
    ],
    values: { buildings: '5920000001', contents: '1430000000', business_interruption: '2000000000', other: '50000000', total: '9400000001' },
    currency: 'JPY',
    source_fidelity: {
      encoding: 'utf-8',
      unmapped_columns: [],
      guessed_units: [],
      ambiguous_rows: [{ row: 4, reason: 'occupancy code 9999 is not in the OED occupancy table' }],
      notes: ["1 value(s) had more decimal places than JPY's ISO 4217 minor unit (0) and were rounded half-up"],
    },
  });
});

test('06 JSON Lines: blank line, a non-object line, an invalid line, a key first seen later', () => {
  const r = read('06-feed.jsonl');
  assert.equal(r.mediaTypeRead, 'application/x-ndjson');
  assert.equal(r.delimiter, undefined);
  assert.deepEqual(r.peril, { code: 'tropical_cyclone' }); // Typhoon, typhoon, Tropical storm
  assert.deepEqual(r.exposure, {
    locations: [
      {
        ref: 'J-1',
        address: { street: '1 Harbour Rd', city: 'Hong Kong', country: 'HK' },
        latitude: 22.2793,
        longitude: 114.1628,
        occupancy: { code: 1104, text: 'Office' },
        construction: { code: 5150, text: 'Reinforced concrete' },
        year_built: 1999,
        values: { total: '85000000.00' },
        currency: 'HKD',
      },
      {
        ref: 'J-2',
        address: { street: '8 Nathan Rd', city: 'Kowloon', country: 'HK' },
        latitude: 22.2966667, // 22°17'48"N
        longitude: 114.1719444, // 114°10'19"E
        occupancy: { code: 1101, text: 'Retail' },
        construction: { code: 5150, text: '5150' },
        year_built: 1975,
        values: { contents: '5000000.00', total: '42000000.00' },
        currency: 'HKD',
      },
      {
        ref: 'J-3',
        address: {},
        latitude: null,
        longitude: null,
        occupancy: { code: 1055, text: 'Apartment' },
        construction: uncoded,
        year_built: null,
        values: { total: '12500000.00' },
        currency: 'HKD',
      },
    ],
    values: { contents: '5000000.00', total: '139500000.00' },
    currency: 'HKD',
    source_fidelity: {
      encoding: 'utf-8',
      unmapped_columns: [],
      guessed_units: [{ field: 'scale', unit: 'million', source: "suffix 'm' in column 'contents'" }],
      ambiguous_rows: [
        { row: 3, reason: 'stated total 42000000.00 differs from the sum of parts 5000000.00; total is the stated total' },
        { row: 4, reason: 'line is not a JSON object; skipped' },
        { row: 5, reason: 'line is not valid JSON; skipped' },
      ],
      notes: [],
    },
  });
});

test('07 two blocks: subtotal, repeated header, duplicate ref, grand total, footer naming perils', () => {
  const r = read('07-two-blocks-repeated-header.csv');
  assert.deepEqual(r.peril, { code: 'severe_convective_storm' }); // "tornado and hail" in the footer
  const location = (ref: string, street: string, city: string, area: string, postcode: string, latitude: number, longitude: number,
    occupancy: { code: number | null; text: string }, construction: { code: number | null; text: string }, year_built: number,
    buildings: string, contents: string, total: string): ScheduleLocation => ({
    ref, address: { street, city, area, postcode }, latitude, longitude, occupancy, construction, year_built,
    values: { buildings, contents, total },
  });
  const office = { code: 1104, text: 'Office' };
  const steel = { code: 5200, text: 'Steel' };
  assert.deepEqual(r.exposure, {
    locations: [
      location('TX-1', '100 Main St', 'Houston', 'TX', '77002', 29.7604, -95.3698, office, steel, 1982, '1000000.00', '200000.00', '1200000.00'),
      location('TX-2', '200 Elm St', 'Dallas', 'TX', '75201', 32.7767, -96.797, { code: 1101, text: 'Retail' }, { code: 5100, text: 'Masonry' }, 1990, '2000000.00', '300000.00', '2300000.00'),
      location('OK-1', '300 Oak Ave', 'Tulsa', 'OK', '74103', 36.154, -95.9928, { code: 1122, text: 'Warehouse' }, { code: 5155, text: 'Tilt-up' }, 2005, '1500000.00', '100000.00', '1600000.00'),
      location('OK-2', '400 Pine Rd', 'Norman', 'OK', '73069', 35.2226, -97.4395, { code: 1050, text: 'Dwelling' }, { code: 5050, text: 'Wood frame' }, 1965, '250000.00', '50000.00', '300000.00'),
      location('TX-1', '100 Main St', 'Houston', 'TX', '77002', 29.7604, -95.3698, office, steel, 1982, '1000000.00', '200000.00', '1200000.00'),
    ],
    values: { buildings: '5750000.00', contents: '850000.00', total: '6600000.00' },
    source_fidelity: {
      encoding: 'utf-8',
      unmapped_columns: [],
      guessed_units: [],
      ambiguous_rows: [
        { row: 4, reason: "totals row ('Subtotal Texas') excluded; its values equal the sum of the rows above" },
        { row: 6, reason: 'repeated header row skipped' },
        { row: 9, reason: "ref 'TX-1' repeats line 2" },
        { row: 10, reason: "totals row ('Total') excluded; its values equal the sum of the rows above" },
        { row: 11, reason: 'row has no location data; skipped' },
      ],
      notes: [],
      totals_rows: [
        {
          row: 4, kind: 'subtotal', label: 'Subtotal Texas', matched: true, rows_summed: 2,
          stated: { buildings: '3000000.00', contents: '500000.00' }, summed: { buildings: '3000000.00', contents: '500000.00' },
        },
        {
          row: 10, kind: 'total', label: 'Total', matched: true, rows_summed: 5,
          stated: { buildings: '5750000.00', contents: '850000.00' }, summed: { buildings: '5750000.00', contents: '850000.00' },
        },
      ],
    },
  });
});

test('08 Excel "Unicode text": UTF-16 LE with BOM, tab-delimited, two currencies kept per row', () => {
  const r = read('08-excel-unicode-text.txt');
  assert.equal(r.mediaTypeRead, 'text/tab-separated-values');
  assert.deepEqual(r.exposure, {
    locations: [
      {
        ref: 'CH-1',
        address: { street: 'Bahnhofstrasse 1', city: 'Zürich', country: 'CH' },
        latitude: 47.3769,
        longitude: 8.5417,
        occupancy: { code: null, text: 'Büro' },
        construction: { code: null, text: 'Stahlbeton' },
        year_built: null,
        values: { total: '12500000.00' },
        currency: 'CHF',
      },
      {
        ref: 'BR-1',
        address: { street: 'Av. Paulista 1000', city: 'São Paulo', country: 'BR' },
        latitude: -23.5614,
        longitude: -46.6559,
        occupancy: { code: 1104, text: 'Office' },
        construction: { code: 5150, text: 'Concrete' },
        year_built: null,
        values: { total: '8000000.00' },
        currency: 'BRL',
      },
    ],
    values: { total: null },
    values_by_currency: { BRL: { total: '8000000.00' }, CHF: { total: '12500000.00' } },
    source_fidelity: {
      encoding: 'utf-16le',
      unmapped_columns: [{ column: 'Location', sample: ['Zürich HQ', 'São Paulo'] }],
      guessed_units: [],
      ambiguous_rows: [
        { row: 2, reason: "occupancy 'Büro' has no unambiguous OED code; kept as given" },
        { row: 2, reason: "construction 'Stahlbeton' has no unambiguous OED code; kept as given" },
      ],
      notes: [
        "column 'TIV' gives total insured values without coverage parts; values are totals only",
        'the file states several currencies (BRL, CHF); each location keeps its own and totals are per currency',
      ],
    },
  });
});

test('08 as UTF-16 BE (BOM) reads the same, only the encoding differs', () => {
  const le = fixture('08-excel-unicode-text.txt');
  const be = new Uint8Array(le.length);
  for (let i = 0; i + 1 < le.length; i += 2) {
    be[i] = le[i + 1] as number;
    be[i + 1] = le[i] as number;
  }
  const a = read('08-excel-unicode-text.txt');
  const b = readSchedule(be, { fileName: 'be.txt', oed });
  assert.equal(b.ok, true);
  if (!b.ok) return;
  assert.equal(b.value.exposure.source_fidelity.encoding, 'utf-16be');
  assert.deepEqual({ ...b.value.exposure, source_fidelity: { ...b.value.exposure.source_fidelity, encoding: 'utf-16le' } }, a.exposure);
});

test('09 Windows-1252 bytes: read with the fallback and said so; € amounts by the file\'s decimal mark', () => {
  const r = read('09-windows-1252.csv');
  assert.deepEqual(r.exposure, {
    locations: [
      {
        ref: 'K-1',
        address: { street: 'Domkloster 4', city: 'Köln', country: 'DE' },
        latitude: 50.9413,
        longitude: 6.9583,
        occupancy: { code: null, text: 'Büro' },
        construction: { code: null, text: 'Stahlbeton' },
        year_built: 1956,
        values: { buildings: '1500000.00', contents: '250000.00', total: '1750000.00' },
        currency: 'EUR',
      },
      {
        ref: 'K-2',
        address: { street: 'Café de Flore', city: 'Paris', country: 'FR' },
        latitude: 48.854,
        longitude: 2.3325,
        occupancy: { code: 1119, text: 'Restaurant' },
        construction: { code: 5100, text: 'Masonry' },
        year_built: 1887,
        values: { buildings: '900000.00', total: '900000.00' },
        currency: 'EUR',
      },
    ],
    values: { buildings: '2400000.00', contents: '250000.00', total: '2650000.00' },
    currency: 'EUR',
    source_fidelity: {
      encoding: 'windows-1252',
      unmapped_columns: [],
      guessed_units: [
        { field: 'number_format', unit: 'decimal comma', source: 'amounts with a decimal comma elsewhere in the file' },
      ],
      ambiguous_rows: [
        { row: 2, reason: "occupancy 'Büro' has no unambiguous OED code; kept as given" },
        { row: 2, reason: "construction 'Stahlbeton' has no unambiguous OED code; kept as given" },
      ],
      notes: ['the bytes are not valid UTF-8; read as Windows-1252'],
    },
  });
});

test('10 an unlabelled totals row (no ref, values sum the rows above) and a row without a ref', () => {
  const r = read('10-unlabelled-total.csv');
  assert.equal(r.peril, undefined);
  const none = { code: null, text: null };
  assert.deepEqual(r.exposure, {
    locations: [
      {
        ref: 'S1',
        address: { street: 'Unit 4 Trade Park', postcode: 'B6 7AA' },
        latitude: 52.5,
        longitude: -1.89,
        occupancy: none,
        construction: none,
        year_built: null,
        values: { buildings: '400000.00', contents: '100000.00', business_interruption: '50000.00', total: '550000.00' },
      },
      {
        ref: 'S2',
        address: { street: '12 High St', postcode: 'CV1 1AA' },
        latitude: 52.4068,
        longitude: -1.5197,
        occupancy: none,
        construction: none,
        year_built: null,
        values: { buildings: '600000.00', contents: '150000.00', business_interruption: '0.00', total: '750000.00' },
      },
      {
        ref: null,
        address: { street: 'Plot 9' },
        latitude: null,
        longitude: null,
        occupancy: none,
        construction: none,
        year_built: null,
        values: { buildings: '200000.00', total: '200000.00' },
      },
    ],
    values: { buildings: '1200000.00', contents: '250000.00', business_interruption: '50000.00', total: '1500000.00' },
    source_fidelity: {
      encoding: 'utf-8',
      unmapped_columns: [{ column: 'Site', sample: ['Depot', 'Store'] }],
      guessed_units: [],
      ambiguous_rows: [
        { row: 4, reason: 'no ref' },
        { row: 5, reason: 'row with no ref whose values equal the sum of the rows above read as a totals row; excluded' },
      ],
      notes: [],
      totals_rows: [{
        row: 5, kind: 'total', label: null, matched: true, rows_summed: 3,
        stated: { buildings: '1200000.00', contents: '250000.00', business_interruption: '50000.00' },
        summed: { buildings: '1200000.00', contents: '250000.00', business_interruption: '50000.00' },
      }],
    },
  });
});

test("11 units in column names (USD '000), a coordinates column, DMS pair, out-of-range pair", () => {
  const r = read('11-header-units-coordinates.csv');
  assert.equal(r.peril, undefined);
  assert.deepEqual(r.exposure, {
    locations: [
      {
        ref: 'NY-1',
        address: {},
        latitude: 40.7128,
        longitude: -74.006,
        occupancy: { code: 1104, text: 'Office' },
        construction: { code: 5200, text: 'Steel frame' },
        year_built: null,
        storeys: 40,
        values: { buildings: '12500000.00', contents: '2000000.00', total: '14500000.00' },
        currency: 'USD',
      },
      {
        ref: 'NY-2',
        address: {},
        latitude: 40.7483333, // 40°44'54"N
        longitude: -73.9855556, // 73°59'08"W
        occupancy: { code: 1055, text: 'Apartment' },
        construction: { code: 5100, text: 'Masonry' },
        year_built: null,
        storeys: 6,
        values: { buildings: '850500.00', contents: '150000.00', total: '1000500.00' },
        currency: 'USD',
      },
      {
        ref: 'NY-3',
        address: {},
        latitude: null,
        longitude: null,
        occupancy: { code: 1201, text: 'Church' },
        construction: { code: 5050, text: 'Wood' },
        year_built: null,
        storeys: 1,
        values: { buildings: '300000.00', total: '300000.00' },
        currency: 'USD',
      },
    ],
    values: { buildings: '13650500.00', contents: '2150000.00', total: '15800500.00' },
    currency: 'USD',
    source_fidelity: {
      encoding: 'utf-8',
      unmapped_columns: [],
      guessed_units: [
        { field: 'scale', unit: 'thousand', source: "column name 'Building Value (USD '000)'" },
        { field: 'scale', unit: 'thousand', source: "column name 'Contents (USD '000)'" },
      ],
      ambiguous_rows: [{ row: 4, reason: "longitude '41.0, 200.0': longitude out of range (±180); coordinates null" }],
      notes: ['several perils named (tropical_cyclone from line 2, flood from line 3); peril.code not set'],
    },
  });
});

test('12 a bare $: USD guessed without a request; the request currency when it is a dollar', () => {
  const guessed = read('12-dollar-family.csv');
  assert.equal(guessed.exposure.currency, 'USD');
  assert.deepEqual(guessed.exposure.source_fidelity.guessed_units, [
    { field: 'currency', unit: 'USD', source: "symbol '$' in column 'TIV'" },
    { field: 'scale', unit: 'million', source: "suffix 'M' in column 'TIV'" },
  ]);

  const r = read('12-dollar-family.csv', 'CAD');
  assert.deepEqual(r.exposure, {
    locations: [
      {
        ref: 'CA-1',
        address: { street: '100 King St W', city: 'Toronto', area: 'ON', country: 'CA' },
        latitude: 43.6487,
        longitude: -79.3817,
        occupancy: uncoded,
        construction: uncoded,
        year_built: null,
        values: { total: '4000000.00' },
        currency: 'CAD',
      },
      {
        ref: 'CA-2',
        address: { street: '1 Place Ville-Marie', city: 'Montréal', area: 'QC', country: 'CA' },
        latitude: 45.5017,
        longitude: -73.5673,
        occupancy: uncoded,
        construction: uncoded,
        year_built: null,
        values: { total: '2500000.00' },
        currency: 'CAD',
      },
    ],
    values: { total: '6500000.00' },
    currency: 'CAD',
    source_fidelity: {
      encoding: 'utf-8',
      unmapped_columns: [],
      guessed_units: [
        { field: 'currency', unit: 'CAD', source: 'request' },
        { field: 'scale', unit: 'million', source: "suffix 'M' in column 'TIV'" },
      ],
      ambiguous_rows: [],
      notes: ["column 'TIV' gives total insured values without coverage parts; values are totals only"],
    },
  });
});

test('12 a bare $ against a request currency outside the dollar family → currency_conflict', () => {
  const result = readSchedule(fixture('12-dollar-family.csv'), { fileName: '12-dollar-family.csv', oed, currency: 'EUR' });
  assert.deepEqual(result, {
    ok: false,
    refusal: {
      status: 422,
      code: 'currency_conflict',
      message: 'the file states USD but the request declared EUR',
      details: ["line 2: column 'TIV' states USD ('$')", "line 3: column 'TIV' states USD ('$')"],
    },
  });
});

test('13 a currency column naming two currencies: per-row currency and totals per currency', () => {
  const r = read('13-multi-currency-column.csv');
  const sg = (street: string) => ({ street, country: 'SG' });
  assert.deepEqual(r.exposure, {
    locations: [
      { ref: '1', address: sg('Marina Bay 1'), latitude: 1.2834, longitude: 103.8607, occupancy: uncoded, construction: uncoded, year_built: null, values: { buildings: '5000000.00', contents: '1000000.00', total: '6000000.00' }, currency: 'USD' },
      { ref: '2', address: sg('Orchard Rd 2'), latitude: 1.3048, longitude: 103.8318, occupancy: uncoded, construction: uncoded, year_built: null, values: { buildings: '3000000.00', total: '3000000.00' }, currency: 'SGD' },
      { ref: '3', address: sg('Raffles Pl 3'), latitude: 1.2841, longitude: 103.8515, occupancy: uncoded, construction: uncoded, year_built: null, values: { buildings: '2000000.00', contents: '500000.00', total: '2500000.00' }, currency: 'USD' },
      { ref: '4', address: sg('Jurong 4'), latitude: 1.3329, longitude: 103.7436, occupancy: uncoded, construction: uncoded, year_built: null, values: { buildings: '1000000.00', total: '1000000.00' } },
    ],
    values: { total: null },
    values_by_currency: {
      SGD: { buildings: '3000000.00', total: '3000000.00' },
      USD: { buildings: '7000000.00', contents: '1500000.00', total: '8500000.00' },
    },
    source_fidelity: {
      encoding: 'utf-8',
      unmapped_columns: [],
      guessed_units: [],
      ambiguous_rows: [{ row: 5, reason: 'values carry no currency while the file states several; left out of the totals' }],
      notes: ['the file states several currencies (SGD, USD); each location keeps its own and totals are per currency'],
    },
  });
});

test('every fixture reads the same twice (deterministic)', () => {
  for (const name of ['01-acme-title-lines-dms.csv', '06-feed.jsonl', '08-excel-unicode-text.txt', '13-multi-currency-column.csv']) {
    assert.deepEqual(read(name), read(name));
  }
});
