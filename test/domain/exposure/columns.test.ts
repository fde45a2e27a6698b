import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COLUMN_ALIASES, OED_FIELD_NAMES, normalizeColumnName, readColumnName, type LocationField } from '../../../src/domain/exposure/columns.js';
import { readLayout } from '../../../src/domain/exposure/layout.js';
import { oedReference } from './support.js';

const oed = oedReference();
const field = (name: string) => readColumnName(name, oed).field;

test('OED location field names map, and every one ingest reads is in the pinned field list', () => {
  for (const [name, expected] of Object.entries(OED_FIELD_NAMES)) {
    assert.ok(oed.locFields.includes(name), `${name} is an OED location field`);
    assert.equal(field(name), expected, name);
    assert.equal(field(name.toUpperCase()), expected, name);
  }
});

test('broker aliases, case- and punctuation-insensitive', () => {
  const cases: Array<[string, LocationField]> = [
    ['Lat', 'latitude'], ['Long', 'longitude'], ['Lng', 'longitude'], ['Latitude (deg)', 'latitude'],
    ['TIV', 'tiv'], ['Total Insured Value', 'tiv'], ['Building Value', 'buildings'], ['Bldg Value', 'buildings'],
    ['Contents', 'contents'], ['Contents Value', 'contents'], ['BI', 'business_interruption'],
    ['Business Interruption', 'business_interruption'], ['Constr', 'construction'], ['Construction', 'construction'],
    ['Occupancy', 'occupancy'], ['Occ', 'occupancy'], ['Year Built', 'year_built'], ['YOB', 'year_built'],
    ['Street', 'street'], ['Address', 'street'], ['Zip', 'postcode'], ['Postcode', 'postcode'], ['Country', 'country'],
    ['Loc #', 'ref'], ['Location ID', 'ref'], ['Ref', 'ref'], ['location_id', 'ref'], ['LOC-NO', 'ref'],
    ['  year built  ', 'year_built'], ['Zip/Postal Code', 'postcode'], ['No. of Stories', 'storeys'],
    ['Currency', 'currency'], ['Perils', 'peril'], ['LatLong', 'coordinates'], ['State', 'area'],
  ];
  for (const [name, expected] of cases) assert.equal(field(name), expected, name);
  for (const name of ['Notes', 'Location', 'Site', '', 'Sprinklered']) assert.equal(field(name), null, name);
  assert.equal(normalizeColumnName('Loc #'), 'locnumber');
  assert.equal(normalizeColumnName('Année'), 'annee');
});

test('aliases never collide: each spelling names one field', () => {
  const seen = new Map<string, string>();
  for (const [name, spellings] of Object.entries(COLUMN_ALIASES)) {
    for (const spelling of spellings) {
      assert.equal(seen.get(spelling), undefined, `${spelling} in ${name} and ${seen.get(spelling)}`);
      seen.set(spelling, name);
      assert.equal(normalizeColumnName(spelling), spelling, `${spelling} is written normalized`);
    }
  }
});

test('a unit in the name of a money column: currency and scale', () => {
  const read = (name: string) => {
    const r = readColumnName(name, oed);
    return [r.field, r.currency?.code ?? r.currency?.written ?? null, r.scale?.exponent ?? null];
  };
  assert.deepEqual(read('TIV (EUR)'), ['tiv', 'EUR', null]);
  assert.deepEqual(read('TIV USD'), ['tiv', 'USD', null]);
  assert.deepEqual(read('USD TIV'), ['tiv', 'USD', null]);
  assert.deepEqual(read('TIV_GBP'), ['tiv', 'GBP', null]);
  assert.deepEqual(read('TIV in EUR'), ['tiv', 'EUR', null]);
  assert.deepEqual(read('Building Value €'), ['buildings', 'EUR', null]);
  assert.deepEqual(read('Building Value ($)'), ['buildings', '$', null]);
  assert.deepEqual(read("Contents (USD '000)"), ['contents', 'USD', 3]);
  assert.deepEqual(read('TIV (000s)'), ['tiv', null, 3]);
  assert.deepEqual(read('TIV (EUR m)'), ['tiv', 'EUR', 6]);
  // a unit on a column that is not money is ignored; an unknown unit leaves the field
  assert.deepEqual(read('Latitude (deg)'), ['latitude', null, null]);
  assert.deepEqual(read('TIV (approx.)'), ['tiv', null, null]);
  // upper-case codes only outside brackets: "Top" is not the Tongan paʻanga
  assert.deepEqual(read('TIV Top'), [null, null, null]);
});

test('layout: the first column for a field is read; a second is left with its reason', () => {
  const layout = readLayout(['Ref', 'TIV', 'Total Insured Value', '', 'Coordinates', 'Lat', 'Lon'], oed);
  assert.deepEqual([...layout.byField.entries()], [['ref', 0], ['tiv', 1], ['latitude', 5], ['longitude', 6]]);
  assert.equal(layout.columns[2]?.unreadReason, "a second column for tiv; 'TIV' is read");
  assert.equal(layout.columns[3]?.name, 'column 4');
  assert.equal(layout.columns[4]?.unreadReason, 'latitude and longitude columns are read instead');
  assert.equal(layout.score, 4);
});
