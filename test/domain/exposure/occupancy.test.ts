import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CONSTRUCTION_ALIASES, OCCUPANCY_ALIASES, codeConstruction, codeOccupancy } from '../../../src/domain/exposure/occupancy.js';
import { oedReference } from './support.js';

const oed = oedReference();

test('every alias names a code the pinned OED tables hold', () => {
  for (const [text, code] of Object.entries(OCCUPANCY_ALIASES)) assert.ok(oed.occupancy.has(code), `${text} → ${code}`);
  for (const [text, code] of Object.entries(CONSTRUCTION_ALIASES)) assert.ok(oed.construction.has(code), `${text} → ${code}`);
});

test('occupancy words → OED codes, checked against the table names', () => {
  const cases: Array<[string, number]> = [
    ['Residential', 1050], ['Dwelling', 1050], ['RESIDENTIAL', 1050], ['General residential', 1050],
    ['Residential, General residential', 1050], ['Permanent dwelling: single-family', 1051],
    ['Apartment', 1055], ['Office', 1104], ['Offices', 1104], ['Retail', 1101], ['Warehouse', 1122],
    ['Hospital', 1106], ['Industrial', 1150], ['Church', 1201], ['Unknown', 1000],
    ['1050', 1050], ['1050.0', 1050], ['1104 - Office', 1104],
  ];
  for (const [text, code] of cases) assert.deepEqual(codeOccupancy(text, oed), { code, text: text.trim() }, text);
  assert.equal(oed.occupancy.get(1104), 'Commercial, Professional, technical and business');
  assert.equal(oed.occupancy.get(1050), 'Residential, General residential');
});

test('construction words → OED codes', () => {
  const cases: Array<[string, number]> = [
    ['Wood frame', 5050], ['Timber', 5050], ['wood', 5050], ['Frame', 5050], ['Light wood frame', 5051],
    ['Heavy timber', 5053], ['Masonry', 5100], ['Brick', 5100], ['Unreinforced masonry bearing wall', 5103],
    ['Reinforced concrete', 5150], ['RC', 5150], ['Tilt-up', 5155], ['Steel', 5200], ['Steel frame', 5200],
    ['Mobile home', 5350], ['5151', 5151],
  ];
  for (const [text, code] of cases) assert.deepEqual(codeConstruction(text, oed), { code, text }, text);
  assert.equal(oed.construction.get(5050), 'Wood, Wood frame');
  assert.equal(oed.construction.get(5150), 'Concrete, Reinforced concrete');
});

test('text with no unambiguous code is kept as given with a reason; empty is empty', () => {
  assert.deepEqual(codeOccupancy('Hotel', oed), { code: null, text: 'Hotel', reason: "occupancy 'Hotel' has no unambiguous OED code; kept as given" });
  assert.deepEqual(codeOccupancy('9999', oed), { code: null, text: '9999', reason: 'occupancy code 9999 is not in the OED occupancy table' });
  assert.deepEqual(codeConstruction('1050', oed), { code: null, text: '1050', reason: 'construction code 1050 is not in the OED construction table' });
  assert.deepEqual(codeConstruction('Béton armé', oed).code, null);
  assert.deepEqual(codeOccupancy('', oed), { code: null, text: null });
  // "Unknown" is a name part in several categories: only the alias decides it
  assert.equal(codeConstruction('Unknown', oed).code, 5000);
});
