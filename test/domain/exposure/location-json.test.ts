// Large schedules keep their locations as canonical JSON text only (LocationJsonList). That text,
// spliced into the object, must be byte for byte the canonical JSON of the object the plain reader
// builds, for every corpus fixture and for locations whose currency is settled only at the end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { LocationJsonList } from '../../../src/domain/exposure/location-json.js';
import { readSchedule } from '../../../src/domain/exposure/read-schedule.js';
import { riskObjectFromSchedule, riskObjectJsonFromSchedule, type IngestProvenance } from '../../../src/domain/risk-object/from-ingest.js';
import { canonicalJson } from '../../../src/kernel/canonical-json.js';
import { FIXTURES_DIR, fixture, oedReference } from './support.js';

const oed = oedReference();
const provenance: IngestProvenance = { objectId: 'obj_000000000000000000000001', fileName: 'f', sha256: '0'.repeat(64), runId: 'r', jobId: 'j', recordedAt: '2026-01-01T00:00:00.000Z' };

function bothWays(bytes: Uint8Array, fileName: string, currency?: string, blockBytes?: number): void {
  const options = { fileName, oed, ...(currency === undefined ? {} : { currency }) };
  const plain = readSchedule(bytes, options);
  const text = readSchedule(bytes, { ...options, locations: new LocationJsonList(undefined, blockBytes) });
  assert.equal(text.ok, plain.ok, fileName);
  if (!plain.ok || !text.ok) return;
  assert.equal(text.value.exposure.locations.count, plain.value.exposure.locations.length, fileName);
  const expected = canonicalJson(riskObjectFromSchedule(plain.value, provenance));
  assert.equal(riskObjectJsonFromSchedule(text.value, provenance, canonicalJson), expected, fileName);
  JSON.parse(expected);
}

test('every corpus fixture: the text-kept locations give the same canonical object', () => {
  for (const name of readdirSync(FIXTURES_DIR)) {
    bothWays(fixture(name), name);
    bothWays(fixture(name), name, 'USD');
  }
});

test('locations settled at the end (a footer currency, several currencies, none), identifiers, quotes and non-Latin text', () => {
  const utf8 = (s: string) => new TextEncoder().encode(s);
  bothWays(utf8('Ref,TIV,LocName,BIPOI,Storeys\n1,100.1234,"Dépôt ""Nord""",30,2\n2,200,東京,,\nAll values in KWD\n'), 'a.csv');
  bothWays(utf8('Ref,TIV,Currency,AccNumber\n1,2500.750,KWD,A\n2,1000000,JPY,B\n3,5,,C\n'), 'b.csv');
  bothWays(utf8('Ref,Buildings,Contents,Lat,Lon\n1,1.005,2,51.5,-0.12\n,3,4,,\n,4.005,6,,\n'), 'c.csv');
});

test('blocks of any size: locations, multi-byte characters and pending slots across block ends', () => {
  const utf8 = (s: string) => new TextEncoder().encode(s);
  const schedules = [
    utf8('Ref,TIV,LocName,BIPOI,Storeys\n1,100.1234,"Dépôt ""Nord""",30,2\n2,200,東京,,\n3,7,😀 Ωmega,1,1\nAll values in KWD\n'),
    utf8('Ref,TIV,Currency,AccNumber\n1,2500.750,KWD,A\n2,1000000,JPY,B\n3,5,,C\n'),
    utf8('Ref,Buildings,Contents,Lat,Lon\n1,1.005,2,51.5,-0.12\n2,3,4,51.6,-0.13\n3,4.005,6,51.7,-0.14\n'),
  ];
  for (const blockBytes of [4, 5, 7, 64, 333]) {
    for (const bytes of schedules) {
      bothWays(bytes, 'blocks.csv', undefined, blockBytes);
      bothWays(bytes, 'blocks.csv', 'USD', blockBytes);
    }
  }
  for (const name of readdirSync(FIXTURES_DIR)) bothWays(fixture(name), name, undefined, 97);
});

test('property: any generated schedule gives the same canonical object either way', () => {
  const cell = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('1,200', '¥3m', '€ 2,5 Mio', 'Total', 'KWD', 'JPY', '0.0005', '51.5', ''));
  fc.assert(
    fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 12 }), (rows) => {
      const header = 'Ref,Buildings,Contents,Currency,Latitude,Longitude';
      const text = [header, ...rows.map((r) => r.map((c) => `"${c.replace(/"/g, '""')}"`).join(','))].join('\n');
      bothWays(new TextEncoder().encode(text), 'p.csv');
    }),
    { numRuns: 200 },
  );
});
