// Accumulation's pure parts on hand-made data: exact sums past 2^52 ten-thousandths and past a
// billion, a polygon region; the country of a point from the offline borders, at named places.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Accumulator } from '../../src/domain/accumulation/accumulate.js';
import { decimalUnits } from '../../src/domain/accumulation/amounts.js';
import { countryAlpha2, countryAlpha3 } from '../../src/domain/country.js';
import type { ScheduleLocation } from '../../src/domain/exposure/types.js';

const at = (latitude: number | null, longitude: number | null, total: string | null, currency?: string) =>
  ({ ref: null, address: {}, latitude, longitude, occupancy: { code: null, text: null }, construction: { code: null, text: null }, year_built: null, values: { total }, ...(currency ? { currency } : {}) }) as ScheduleLocation;

test('sums stay exact past a billion and past 2^52 ten-thousandths, per currency', () => {
  const acc = new Accumulator([{ id: 'obj_a', peril: 'flood', region: undefined, currency: 'USD' }], { resolution: 5, countryOf: () => null });
  // 900,000,000.9999 ten thousand times: 9,000,000,009,999.0000, beyond 2^52 ten-thousandths.
  acc.add(0, Array.from({ length: 10_000 }, () => at(10, 10, '900000000.9999')));
  acc.add(0, [at(10, 10, '12345678901234.5678'), at(null, null, '1', 'JPY'), at(10, 10, null), at(10, 10, '0.10', 'BHD')]);
  const result = acc.result() as any;
  assert.equal(decimalUnits('12345678901234.5678'), 123456789012345678n);
  assert.deepEqual(result.totals.values, [
    { currency: 'BHD', total: '0.100' }, { currency: 'JPY', total: '1' }, { currency: 'USD', total: (9_000_000_009_999n + 12_345_678_901_234n).toString() + '.57' },
  ]);
  assert.equal(result.totals.unvalued_locations, 1);
  const usd = result.concentration.by_currency.find((b: any) => b.currency === 'USD');
  assert.equal(usd.cells, 1);
  assert.equal(usd.hhi, 1);
  assert.deepEqual(result.countries, [{ country: null, locations: 10_003, values: result.totals.values.filter((v: any) => v.currency !== 'JPY') }]);
});

test('a polygon region holds the locations inside its ring, of every object', () => {
  // A triangle with its corners at (0,0), (0,10), (10,0): (lon, lat) pairs as GeoJSON writes them.
  const triangle = { type: 'polygon', coordinates: [[[0, 0], [10, 0], [0, 10], [0, 0]]] };
  const acc = new Accumulator([
    { id: 'obj_a', peril: 'tropical_cyclone', region: triangle, currency: 'EUR' },
    { id: 'obj_b', peril: null, region: { type: 'box', min_latitude: 50, max_latitude: 40 }, currency: 'EUR' },
  ], { resolution: 3, countryOf: () => null });
  acc.add(0, [at(1, 1, '10.00'), at(6, 6, '20.00')]);
  acc.add(1, [at(2, 2, '5.00'), at(-1, 1, '7.00')]);
  const result = acc.result() as any;
  assert.equal(result.regions.length, 1);
  assert.deepEqual(result.regions[0].objects.map((o: any) => [o.object_id, o.locations, o.values[0].total]), [['obj_a', 1, '10.00'], ['obj_b', 1, '5.00']]);
  assert.equal(result.unread_regions[0].object_id, 'obj_b');
  assert.deepEqual(result.perils.find((p: any) => p.peril === null).objects, ['obj_b']);
});

test('the country of a point: the territory holding it, either side of a border, null at sea', () => {
  // Geneva and Annemasse lie 7 km apart across the Swiss–French border; San Juan is Puerto Rico's own code.
  const places: Array<[string, number, number, string | null, string | null]> = [
    ['Geneva', 46.2044, 6.1432, 'CH', 'CHE'], ['Annemasse', 46.1934, 6.2342, 'FR', 'FRA'], ['Los Angeles', 34.05, -118.25, 'US', 'USA'],
    ['San Juan', 18.4655, -66.1057, 'PR', 'PRI'], ['Amsterdam', 52.37, 4.9, 'NL', 'NLD'], ['Suva', -18.1416, 178.4419, 'FJ', 'FJI'],
    ['the open Atlantic', 30, -40, null, null],
  ];
  for (const [name, lat, lon, alpha2, alpha3] of places) {
    assert.equal(countryAlpha2(lat, lon), alpha2, name);
    assert.equal(countryAlpha3(lat, lon), alpha3, name);
  }
});
