import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseOedReference } from '../../../src/domain/exposure/oed-reference.js';
import { oedReference } from './support.js';

test('the pinned OED v5.0.0 tables load whole', () => {
  const oed = oedReference();
  assert.equal(oed.locFields.length, 243);
  assert.equal(oed.locFields[2], 'LocNumber');
  assert.equal(oed.occupancy.size, 217);
  assert.equal(oed.construction.size, 376);
  assert.equal(oed.currencies.size, 194); // 195 rows; "UF" is not a three-letter code
  assert.ok(oed.currencies.has('USD') && oed.currencies.has('JPY') && !oed.currencies.has('UF'));
  assert.equal(oed.perils.size, 47);
  assert.equal(oed.perils.get('WTC'), 'Strong wind from Tropical Cyclone');
  assert.equal(oed.occupancy.get(1000), 'Unknown');
  assert.equal(oed.construction.get(5000), 'Unknown');
});

test('a table without its columns is refused by name', () => {
  const texts = { locFields: '"Input Field Name"\n"LocNumber"\n', occupancy: '"OED Code","Name"\n"1050","Residential"\n', construction: '"OED Code","Name"\n"5050","Wood"\n', currency: '"Code"\n"USD"\n', perils: '"Input format abbreviation","Peril Description"\n"WTC","TC"\n' };
  assert.equal(parseOedReference(texts).occupancy.get(1050), 'Residential');
  assert.throws(() => parseOedReference({ ...texts, occupancy: '"Code","Name"\n"1050","x"\n' }), /OccupancyValues: column "OED Code" missing/);
  assert.throws(() => parseOedReference({ ...texts, perils: '' }), /PerilValues: column "Input format abbreviation" missing/);
});
