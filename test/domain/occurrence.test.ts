import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { clusterOccurrences, type CatalogRow } from '../../src/domain/occurrence.js';
import { parseIsoDuration } from '../../src/kernel/dates.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2020, 0, 1);

function row(event_id: string, day: number, magnitude: number | null = 5): CatalogRow {
  return { event_id, epoch_ms: T0 + day * DAY, magnitude };
}
const ids = (occurrences: ReturnType<typeof clusterOccurrences>) => occurrences.map((o) => o.events.map((e) => e.event_id));

test('the window is measured from the first event of the cluster, never from the previous one', () => {
  // Each event follows the previous by 5 days. Chained from the previous event with a 7-day window
  // all five would be one occurrence; measured from the first they make three.
  const catalog = [row('a', 0), row('b', 5), row('c', 10), row('d', 15), row('e', 20)];
  const occurrences = clusterOccurrences(catalog, 7 * DAY);
  assert.deepEqual(ids(occurrences), [['a', 'b'], ['c', 'd'], ['e']]);
  assert.deepEqual(
    occurrences.map((o) => [o.first.event_id, o.from, o.to]),
    [
      ['a', T0, T0 + 5 * DAY],
      ['c', T0 + 10 * DAY, T0 + 15 * DAY],
      ['e', T0 + 20 * DAY, T0 + 20 * DAY],
    ],
  );
});

test('boundary: an event exactly one window after the first is inside; one ms later opens a new cluster', () => {
  const window = 7 * DAY;
  const inside = clusterOccurrences([row('a', 0), { event_id: 'b', epoch_ms: T0 + window, magnitude: 5 }], window);
  assert.deepEqual(ids(inside), [['a', 'b']]);

  const catalog = [
    row('a', 0),
    { event_id: 'b', epoch_ms: T0 + window + 1, magnitude: 5 },
    // Within the window of b (the new first), though more than a window after a.
    { event_id: 'c', epoch_ms: T0 + 2 * window + 1, magnitude: 5 },
    { event_id: 'd', epoch_ms: T0 + 2 * window + 2, magnitude: 5 },
  ];
  assert.deepEqual(ids(clusterOccurrences(catalog, window)), [['a'], ['b', 'c'], ['d']]);
});

test('rows in any order are sorted by time then event id; a zero window groups simultaneous rows only', () => {
  const catalog = [row('z', 1), row('m', 0), row('b', 1), row('a', 3)];
  assert.deepEqual(ids(clusterOccurrences(catalog, 0)), [['m'], ['b', 'z'], ['a']]);
  assert.deepEqual(clusterOccurrences([], DAY), []);
});

test('peak: largest value; ties go to the earliest, then the smallest id; rows without a value never win', () => {
  const catalog: CatalogRow[] = [
    { event_id: 'e1', epoch_ms: T0, magnitude: null },
    { event_id: 'e3', epoch_ms: T0 + DAY, magnitude: 6.1 },
    { event_id: 'e2', epoch_ms: T0 + DAY, magnitude: 6.1 },
    { event_id: 'e0', epoch_ms: T0 + 2 * DAY, magnitude: 6.1 },
    { event_id: 'e4', epoch_ms: T0 + 3 * DAY, magnitude: 5.9 },
  ];
  const [occurrence] = clusterOccurrences(catalog, 7 * DAY);
  assert.equal(occurrence?.peak.event_id, 'e2');
  assert.equal(occurrence?.first.event_id, 'e1');

  // Report extracts carry value instead of magnitude; a cluster with no values peaks at its first row.
  const reports: CatalogRow[] = [
    { event_id: 'r1', epoch_ms: T0, value: 1.0 },
    { event_id: 'r2', epoch_ms: T0 + 1, value: 2.75 },
    { event_id: 'r3', epoch_ms: T0 + 10 * DAY, value: null },
    { event_id: 'r4', epoch_ms: T0 + 10 * DAY + 1, value: null },
  ];
  assert.deepEqual(
    clusterOccurrences(reports, DAY).map((o) => o.peak.event_id),
    ['r2', 'r3'],
  );
});

test('a negative or non-finite window is refused', () => {
  assert.throws(() => clusterOccurrences([row('a', 0)], -1), RangeError);
  assert.throws(() => clusterOccurrences([row('a', 0)], Number.NaN), RangeError);
});

test('property: every event lands in exactly one cluster, clusters span at most the window and open correctly', () => {
  const catalogArb = fc.array(
    fc.record({
      epoch_ms: fc.integer({ min: 0, max: 1_000_000 }),
      magnitude: fc.option(fc.integer({ min: 20, max: 90 }).map((m) => m / 10), { nil: null }),
    }),
    { maxLength: 80 },
  );
  fc.assert(
    fc.property(catalogArb, fc.integer({ min: 0, max: 300_000 }), (raw, window) => {
      const catalog = raw.map((r, i) => ({ ...r, event_id: `ev${i}` }));
      const occurrences = clusterOccurrences(catalog, window);
      const seen = new Map<string, number>();
      for (const o of occurrences) {
        for (const e of o.events) seen.set(e.event_id, (seen.get(e.event_id) ?? 0) + 1);
        assert.ok(o.to - o.from <= window);
        assert.equal(o.first, o.events[0]);
        assert.ok(o.events.includes(o.peak));
        const values = o.events.map((e) => e.magnitude).filter((m): m is number => m !== null);
        if (values.length > 0) assert.equal(o.peak.magnitude, Math.max(...values));
      }
      assert.equal(seen.size, catalog.length);
      assert.ok([...seen.values()].every((count) => count === 1));
      // Each cluster opens at the first event beyond the previous cluster's window.
      for (let i = 1; i < occurrences.length; i++) {
        assert.ok(occurrences[i]!.from - occurrences[i - 1]!.from > window);
      }
    }),
    { seed: 20240601, numRuns: 300 },
  );
});

test('parseIsoDuration reads fixed-length durations into ms', () => {
  assert.equal(parseIsoDuration('P7D'), 7 * DAY);
  assert.equal(parseIsoDuration('PT36H'), 36 * 3_600_000);
  assert.equal(parseIsoDuration('P1DT12H'), 36 * 3_600_000);
  assert.equal(parseIsoDuration('P30D'), 30 * DAY);
  assert.equal(parseIsoDuration('P1W'), 7 * DAY);
  assert.equal(parseIsoDuration('PT90M'), 90 * 60_000);
  assert.equal(parseIsoDuration('P1DT2H3M4S'), DAY + 2 * 3_600_000 + 3 * 60_000 + 4_000);
  assert.equal(parseIsoDuration('PT0.5H'), 1_800_000);
  assert.equal(parseIsoDuration('P1,5D'), 1.5 * DAY);
  assert.equal(parseIsoDuration('PT0S'), 0);
});

test('parseIsoDuration refuses years, months and malformed text with a clear error', () => {
  assert.throws(() => parseIsoDuration('P1Y'), /years or months/);
  assert.throws(() => parseIsoDuration('P1M'), /years or months/);
  assert.throws(() => parseIsoDuration('P1Y2M3D'), /years or months/);
  for (const bad of ['', 'P', 'PT', 'P1DT', '7D', 'P-1D', 'p7d', 'P1W2D', 'PT1H1D', 'P1.5DT2H', 'P7 D']) {
    assert.throws(() => parseIsoDuration(bad), RangeError, bad);
  }
});
