// The location digest (domain/accumulation/digest.ts) on hand-made locations built here (not real
// exposure): every member round-trips exactly (amounts beyond 2^53 ten-thousandths, negative ones,
// locations without coordinates or values, the locations' own currencies), a written digest has no
// cells and withCells completes it with those h3-js gives, the digest read from stored bytes a few
// bytes at a time is the same bytes as the one made from the document, and the Accumulator fed
// digests, with cells or without, answers the same canonical JSON as fed the parsed locations.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { latLngToCell } from 'h3-js';
import { Accumulator } from '../../src/domain/accumulation/accumulate.js';
import { amountUnits, decimalUnits } from '../../src/domain/accumulation/amounts.js';
import { CELLS_NOT_COMPUTED, NO_CELL, DigestingSink, DigestScanner, digestOfDocument, digestUnits, readDigest, withCells } from '../../src/domain/accumulation/digest.js';
import { LocationArray } from '../../src/domain/exposure/location-sink.js';
import { readSchedule } from '../../src/domain/exposure/read-schedule.js';
import { unwrap } from '../../src/kernel/result.js';
import { oedReference } from './exposure/support.js';
import { canonicalJson } from '../../src/kernel/canonical-json.js';
import type { ScheduleLocation } from '../../src/domain/exposure/types.js';

const loc = (latitude: number | null, longitude: number | null, total: unknown, currency?: string) =>
  ({ ref: null, address: {}, latitude, longitude, occupancy: { code: null, text: null }, construction: { code: null, text: null }, year_built: null, values: { total }, ...(currency ? { currency } : {}) });

// Hand-made amounts: the fast path's widest, just either side of 2^53 ten-thousandths
// (900719925474.0992 is exactly 2^53), far beyond, negative, zero, and texts that are not amounts.
const TOTALS: unknown[] = [
  '1200000.50', '-250.25', '0', '-0.00', '900000000.9999', '1000000000', '900719925474.0992', '900719925474.0993',
  '-900719925474.0993', '12345678901234.5678', '-12345678901234.5678', '99999999999999999999.9999', null, '1e5', '12.34567', 5, '',
];

function document(locations: unknown[], extra: Record<string, unknown> = {}) {
  return {
    id: 'obj_digest', status: 'draft', peril: { code: 'flood', region: { type: 'box', min_latitude: 34, max_latitude: 34.1, min_longitude: -118.4, max_longitude: -118.2 } },
    exposure: { locations, currency: 'USD', values: { total: null } }, provenance: { runs: [] }, ...extra,
  };
}

test('a digest gives back every location member accumulation reads, exactly', () => {
  const locations = [
    ...TOTALS.map((t, i) => loc(34 + i * 0.01, -118.3 + i * 0.003, t, i % 3 === 0 ? 'GBP' : i % 5 === 0 ? 'JPY' : undefined)),
    loc(null, null, '10.00'), loc(34.05, null, '11.00', 'EUR'), loc(null, -118.2, null),
    { ref: 'no values', latitude: 52.1, longitude: 4.9, address: {} },
    // A cell shared with the first location, and one on the antimeridian.
    loc(34, -118.3, '1.00'), loc(-16.5, 180, '2.00'), loc(-16.5, -180, '3.00'),
  ];
  const written = digestOfDocument(document(locations));
  // As written: no cells, said so (the resolution word), and no cell section.
  const bare = readDigest(written);
  assert.equal(bare.cells, null);
  assert.equal(bare.cell, null);
  assert.equal(bare.resolution, null);
  assert.equal(new DataView(written.buffer, written.byteOffset).getUint32(12, true), CELLS_NOT_COMPUTED);
  const completed = withCells(written)!;
  assert.equal(withCells(completed), undefined, 'a digest with cells is left as it is');
  // The cell section adds 4 bytes a location and 8 a distinct cell.
  const digest = readDigest(completed);
  assert.equal(completed.byteLength - written.byteLength, 4 * locations.length + 8 * digest.cells!.length);
  assert.equal(digest.count, locations.length);
  assert.deepEqual(digest.header.peril, 'flood');
  assert.deepEqual(digest.header.region, document([]).peril.region);
  assert.equal(digest.header.currency, 'USD');
  const units = [...digestUnits(digest)];
  for (const [name, d] of [['completed', digest], ['as written', bare]] as const) {
    assert.deepEqual([...d.latitude], [...digest.latitude], name);
    assert.deepEqual([...d.longitude], [...digest.longitude], name);
    assert.deepEqual([...digestUnits(d)], [...digestUnits(digest)], name);
    assert.deepEqual([...d.currency], [...digest.currency], name);
    assert.deepEqual(d.header, digest.header, name);
  }
  locations.forEach((l: any, i) => {
    const expected = amountUnits(l.values?.total);
    // Amounts within 2^53 come back as numbers; beyond, as the same bigint.
    const want = typeof expected === 'bigint' && expected <= 2n ** 53n && expected >= -(2n ** 53n) ? Number(expected) : expected;
    assert.deepEqual(units[i], want, `location ${i}: ${String(l.values?.total)}`);
    if (typeof l.values?.total === 'string' && want !== null) assert.equal(BigInt(units[i]!), decimalUnits(l.values.total));
    const own = digest.currency[i]!;
    assert.equal(own === 0 ? undefined : digest.header.currencies[own - 1], l.currency, `location ${i} currency`);
    const located = typeof l.latitude === 'number' && typeof l.longitude === 'number';
    assert.equal(Number.isNaN(digest.latitude[i]!), typeof l.latitude !== 'number');
    assert.equal(Number.isNaN(digest.longitude[i]!), typeof l.longitude !== 'number');
    if (typeof l.latitude === 'number') assert.equal(digest.latitude[i], l.latitude);
    if (typeof l.longitude === 'number') assert.equal(digest.longitude[i], l.longitude);
    if (located) assert.equal(digest.cells![digest.cell![i]!], latLngToCell(l.latitude, l.longitude, 7), `location ${i} cell`);
    else assert.equal(digest.cell![i], NO_CELL);
  });
  assert.deepEqual(digest.header.currencies, ['GBP', 'JPY', 'EUR']);
  // Beyond 2^53: 2^53 + 1 both signs, the two 12345678901234.5678 and the twenty-digit amount.
  assert.deepEqual(digest.header.big.map(([i]) => i), [7, 8, 9, 10, 11]);
  assert.equal(digest.cell![0], digest.cell![locations.length - 3]);
  assert.equal(digest.resolution, 7);
  // A format 1 digest (written with its cells, before they were lazy) is laid out as a completed one and still read.
  const first = completed.slice();
  new DataView(first.buffer).setUint32(0, 1, true);
  const old = readDigest(first);
  assert.deepEqual(old.cells, digest.cells);
  assert.deepEqual([...old.cell!], [...digest.cell!]);
  assert.equal(withCells(first), undefined);
});

test('the digest scanned from stored bytes, however they are cut, is the digest of the document', () => {
  const locations = Array.from({ length: 700 }, (_, i) => loc(10 + (i % 50) * 0.013, 20 + i * 0.002, TOTALS[i % TOTALS.length], i % 7 === 0 ? 'CHF' : undefined));
  for (const doc of [document(locations), document([]), { id: 'obj_bare', status: 'draft', exposure: { locations: [loc(1, 2, '3')] } }]) {
    const whole = digestOfDocument(doc);
    const bytes = Buffer.from(canonicalJson(doc), 'utf8');
    for (const cut of [1, 7, 4096, bytes.byteLength]) {
      const scanner = new DigestScanner();
      for (let at = 0; at < bytes.byteLength; at += cut) scanner.feed(bytes.subarray(at, at + cut));
      assert.deepEqual(Buffer.from(scanner.finish()), Buffer.from(whole), `cut every ${cut} bytes`);
    }
  }
  // Made with a previous version's cells (some locations moved, one added, one gone): the bytes of
  // the digest completed afresh; with a previous version without cells: none either.
  const before = document(locations.slice(1).map((l, i) => (i % 9 === 0 ? { ...l, latitude: (l.latitude as number) + 0.5 } : l)));
  const fresh = digestOfDocument(document(locations));
  for (const previous of [document(locations), before, document(locations.slice(0, 10)), document([...locations, loc(1, 1, '1')])]) {
    assert.deepEqual(Buffer.from(digestOfDocument(document(locations), readDigest(withCells(digestOfDocument(previous))!))), Buffer.from(withCells(fresh)!));
    assert.deepEqual(Buffer.from(digestOfDocument(document(locations), readDigest(digestOfDocument(previous)))), Buffer.from(fresh));
  }
  const bare = readDigest(digestOfDocument({ id: 'obj_bare', status: 'draft', exposure: { locations: [] } }));
  assert.deepEqual({ peril: bare.header.peril, region: bare.header.region, currency: bare.header.currency, count: bare.count }, { peril: null, region: undefined, currency: null, count: 0 });
});

test('accumulating digests answers exactly what accumulating the parsed locations answers', () => {
  // Three hand-made objects around Los Angeles and Amsterdam, a region, own currencies, sums past 2^53.
  let s = 99;
  const next = () => (s = (s * 48271) % 2147483647) / 2147483647;
  const make = (n: number, lat0: number, lon0: number) => Array.from({ length: n }, (_, i) => loc(
    i % 19 === 4 ? null : Math.round((lat0 + next() * 0.3) * 1e5) / 1e5, Math.round((lon0 + next() * 0.3) * 1e5) / 1e5,
    i % 13 === 2 ? null : i % 101 === 7 ? TOTALS[(i >> 1) % TOTALS.length] : (Math.round(next() * 1e9) / 100).toFixed(2),
    i % 11 === 0 ? 'GBP' : undefined,
  ));
  const docs = [
    document(make(900, 33.95, -118.45)),
    { ...document(make(600, 52.2, 4.75)), peril: { code: 'wildfire' } },
    { ...document([...make(300, 34.0, -118.35), ...Array.from({ length: 3 }, () => loc(34.05, -118.3, '900719925474.0992'))]), peril: { region: { type: 'nonsense' } } },
  ];
  for (const resolution of [7, 4, 9]) {
    const declared = docs.map((d, i) => ({ id: `obj_${i}`, peril: (d.peril as any)?.code ?? null, region: (d.peril as any)?.region, currency: 'USD' }));
    const options = { resolution, countryOf: (p: { latitude: number; longitude: number }) => (p.longitude < 0 ? 'US' : 'NL') };
    const parsed = new Accumulator(declared, options);
    // As stored: the locations read back from canonical JSON, in batches.
    docs.forEach((d, i) => {
      const back = (JSON.parse(canonicalJson(d)) as any).exposure.locations as ScheduleLocation[];
      for (let at = 0; at < back.length; at += 250) parsed.add(i, back.slice(at, at + 250));
    });
    const expected = canonicalJson(parsed.result());
    const digested = new Accumulator(declared, options);
    docs.forEach((d, i) => digested.addDigest(i, readDigest(digestOfDocument(d))));
    assert.equal(canonicalJson(digested.result()), expected, `resolution ${resolution}, digests without cells`);
    const completed = new Accumulator(declared, options);
    docs.forEach((d, i) => completed.addDigest(i, readDigest(withCells(digestOfDocument(d))!)));
    assert.equal(canonicalJson(completed.result()), expected, `resolution ${resolution}, digests with cells`);
  }
});

test('the digest an ingest writes as it reads is the digest of the locations it stores, values known late included', () => {
  // Hand-made schedules: a currency stated only in a footer (every location pending until then,
  // amounts beyond 2^53 ten-thousandths among them), and one whose rows state their own.
  for (const text of [
    'Ref,Latitude,Longitude,TIV\n1,34.05,-118.25,100.1234\n2,34.06,-118.26,200\n3,,,999999999999999\n4,34.07,-118.2,-5\nAll values in KWD\n',
    'Ref,Latitude,Longitude,TIV,Currency\n1,52.1,4.9,2500.750,KWD\n2,52.2,4.8,1000000,JPY\n3,52.3,4.7,10.0005,\n',
  ]) {
    const sink = new DigestingSink(new LocationArray());
    const read = unwrap(readSchedule(new TextEncoder().encode(text), { fileName: 'schedule.csv', oed: oedReference(), locations: sink }));
    const members = { peril: read.peril ?? undefined, exposure: { currency: read.exposure.currency } };
    const written = sink.writer.finish(members);
    assert.equal(readDigest(written).cells, null, 'an ingest writes no cells');
    const made = readDigest(withCells(written)!);
    const stored = readDigest(withCells(digestOfDocument({ ...members, exposure: { ...members.exposure, locations: JSON.parse(canonicalJson(read.exposure.locations)) } }))!);
    assert.equal(made.count, read.exposure.locations.length);
    const currencyOf = (d: typeof made, i: number) => (d.currency[i] === 0 ? null : d.header.currencies[d.currency[i]! - 1]);
    assert.deepEqual([...digestUnits(made)], [...digestUnits(stored)]);
    for (let i = 0; i < made.count; i += 1) {
      assert.equal(currencyOf(made, i), currencyOf(stored, i), `location ${i}`);
      assert.ok(Object.is(made.latitude[i], stored.latitude[i]) && Object.is(made.longitude[i], stored.longitude[i]));
      assert.equal(made.cells![made.cell![i]!], stored.cells![stored.cell![i]!]);
    }
    assert.equal(made.header.currency, stored.header.currency);
    if (text.includes('footer') || text.includes('All values')) {
      assert.deepEqual(made.header.big.map(([i]) => i), [2], 'the amount beyond 2^53 settled late');
      assert.deepEqual(Array.from({ length: made.count }, (_, i) => currencyOf(made, i)), ['KWD', 'KWD', 'KWD', 'KWD']);
    }
  }
});
