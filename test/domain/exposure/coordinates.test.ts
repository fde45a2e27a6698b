import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readCoordinate, readCoordinatePair } from '../../../src/domain/exposure/coordinates.js';

function value(text: string, axis: 'latitude' | 'longitude'): number {
  const reading = readCoordinate(text, axis);
  assert.equal(reading.kind, 'value', `${text}: ${JSON.stringify(reading)}`);
  return (reading as { value: number }).value;
}

test('decimal, hemisphere letters, decimal commas', () => {
  assert.equal(value('40.4461', 'latitude'), 40.4461);
  assert.equal(value('-79.98', 'longitude'), -79.98);
  assert.equal(value('−79.98', 'longitude'), -79.98); // U+2212 minus
  assert.equal(value('40,4461', 'latitude'), 40.4461);
  assert.equal(value('40.5S', 'latitude'), -40.5);
  assert.equal(value('N 40.5', 'latitude'), 40.5);
  assert.equal(value('151.2093 E', 'longitude'), 151.2093);
  assert.equal(value('2.2426 W', 'longitude'), -2.2426);
  assert.equal(value('-33.8688 S', 'latitude'), -33.8688);
  assert.equal(value('0', 'latitude'), 0);
});

test('degrees, minutes and seconds in the shapes brokers write them', () => {
  // 40°26'46"N = 40 + 26/60 + 46/3600 = 40.446111…
  assert.equal(value(`40°26'46"N`, 'latitude'), 40.4461111);
  assert.equal(value('40 26 46 N', 'latitude'), 40.4461111);
  assert.equal(value('40º 26′ 46″ N', 'latitude'), 40.4461111);
  assert.equal(value(`79°58'56.0"W`, 'longitude'), -79.9822222);
  assert.equal(value('40:26.77', 'latitude'), 40.4461667); // degrees and decimal minutes
  assert.equal(value('40 deg 26 min', 'latitude'), 40.4333333);
  assert.equal(value(`-33°52'08"`, 'latitude'), -33.8688889);
});

test('refusals name their reason', () => {
  const cases: Array<[string, 'latitude' | 'longitude', string]> = [
    ['91', 'latitude', 'latitude out of range (±90)'],
    ['181', 'longitude', 'longitude out of range (±180)'],
    ['95.5', 'latitude', 'latitude out of range (±90)'],
    ['45 60 00 N', 'latitude', 'minutes or seconds of 60 or more'],
    ['40 E', 'latitude', 'hemisphere E on a latitude'],
    ['-40 N', 'latitude', 'negative latitude with hemisphere N'],
    ['40.5 26', 'latitude', 'fractional degrees with minutes'],
    ['abc', 'latitude', 'not a latitude'],
    ['1 2 3 4', 'longitude', 'not a longitude'],
  ];
  for (const [text, axis, reason] of cases) assert.deepEqual(readCoordinate(text, axis), { kind: 'unreadable', reason }, text);
  assert.deepEqual(readCoordinate('  ', 'latitude'), { kind: 'empty' });
});

test('pairs: comma, semicolon, space and hemisphere-separated', () => {
  const pair = (text: string) => {
    const reading = readCoordinatePair(text);
    assert.equal(reading.kind, 'pair', text);
    const { latitude, longitude } = reading as Extract<typeof reading, { kind: 'pair' }>;
    return [latitude.kind === 'value' ? latitude.value : latitude.kind, longitude.kind === 'value' ? longitude.value : longitude.kind];
  };
  assert.deepEqual(pair('40.7128, -74.0060'), [40.7128, -74.006]);
  assert.deepEqual(pair('40,7128; -74,0060'), [40.7128, -74.006]);
  assert.deepEqual(pair('40.7128 -74.0060'), [40.7128, -74.006]);
  assert.deepEqual(pair(`40°44'54"N 73°59'08"W`), [40.7483333, -73.9855556]);
  assert.deepEqual(pair('41.0, 200.0'), [41, 'unreadable']);
  assert.deepEqual(readCoordinatePair('somewhere'), { kind: 'unreadable', reason: 'not a latitude/longitude pair' });
});

test('property: decimal degrees and their DMS spelling agree to 1e-7', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 89 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }), fc.boolean(), (d, m, s, south) => {
      const expected = (south ? -1 : 1) * (d + m / 60 + s / 3600);
      const read = value(`${d}°${m}'${s}"${south ? 'S' : 'N'}`, 'latitude');
      assert.ok(Math.abs(read - expected) <= 5e-8, `${read} vs ${expected}`);
      assert.equal(value(`${d} ${m} ${s} ${south ? 'S' : 'N'}`, 'latitude'), read);
    }),
  );
});

test('property: never throws, and a value is always in range', () => {
  fc.assert(fc.property(fc.string({ maxLength: 30 }), fc.constantFrom('latitude', 'longitude'), (text, axis) => {
    const reading = readCoordinate(text, axis as 'latitude' | 'longitude');
    if (reading.kind === 'value') assert.ok(Math.abs(reading.value) <= (axis === 'latitude' ? 90 : 180));
    readCoordinatePair(text);
  }));
});
