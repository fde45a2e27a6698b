import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OED_PERIL_CODES, perilsNamed } from '../../../src/domain/exposure/peril-words.js';
import { PERIL_CODES } from '../../../src/domain/exposure/types.js';
import { oedReference } from './support.js';

const oed = oedReference();
const named = (text: string) => perilsNamed(text, oed).perils;

test('words for every peril of the vocabulary', () => {
  const cases: Array<[string, string]> = [
    ['Hurricane', 'tropical_cyclone'], ['Typhoon', 'tropical_cyclone'], ['Cyclone', 'tropical_cyclone'],
    ['Tropical storm', 'tropical_cyclone'], ['Quake', 'earthquake'], ['Earthquake', 'earthquake'], ['EQ', 'earthquake'],
    ['Hail', 'severe_convective_storm'], ['Tornado', 'severe_convective_storm'], ['Severe convective storm', 'severe_convective_storm'],
    ['Bushfire', 'wildfire'], ['Wildfire', 'wildfire'], ['Flood', 'flood'], ['River flood', 'flood'],
    ['Power outage', 'grid_outage'], ['European windstorm', 'extratropical_cyclone'], ['Winter storm', 'extratropical_cyclone'],
    ['Extratropical cyclone', 'extratropical_cyclone'], ['Cloud outage', 'cloud_outage'], ['Weather station', 'weather_station'],
    ['HURRICANE', 'tropical_cyclone'], ['hurricane-exposed coastal schedule', 'tropical_cyclone'],
  ];
  for (const [text, peril] of cases) assert.deepEqual(named(text), [peril], text);
  const covered = new Set(cases.map(([, peril]) => peril));
  for (const peril of PERIL_CODES) assert.ok(covered.has(peril), `${peril} has a word`);
});

test('words that name no single peril, and several perils in one text', () => {
  assert.deepEqual(named('Windstorm'), []);
  assert.deepEqual(named('Fire'), []);
  assert.deepEqual(named('Flood zone AE'), []);
  assert.deepEqual(named('Hurricane and flood'), ['flood', 'tropical_cyclone']);
  assert.deepEqual(named('Extratropical cyclone'), ['extratropical_cyclone']); // not also "cyclone"
});

test('OED peril codes (LocPerilsCovered), checked against PerilValues', () => {
  for (const code of Object.keys(OED_PERIL_CODES)) assert.ok(oed.perils.has(code), `${code} is in PerilValues.csv`);
  assert.deepEqual(named('WTC'), ['tropical_cyclone']);
  assert.deepEqual(named('WTC;WSS'), ['tropical_cyclone']);
  assert.deepEqual(named('QEQ;QFF;QTS'), ['earthquake']);
  assert.deepEqual(named('qq1'), ['earthquake']);
  assert.deepEqual(named('ORF, OSF'), ['flood']);
  assert.deepEqual(named('WW1'), ['extratropical_cyclone', 'tropical_cyclone']);
  assert.deepEqual(named('BB1'), ['wildfire']);
  assert.deepEqual(perilsNamed('AA1', oed), { perils: [], unmatchedCodes: ['AA1'] });
  assert.deepEqual(perilsNamed('WSS', oed), { perils: [], unmatchedCodes: ['WSS'] });
});
