// The location scanner against JSON.parse on tiny hand-made documents (built here, not real
// exposure), fed in chunks of every size, with decoys at the wrong depth and hostile strings.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LocationScanner, type LocationMark } from '../../src/domain/risk-object/location-scan.js';

const DOCUMENTS: string[] = [
  JSON.stringify({
    aaa: { locations: [{ decoy: 1 }] },
    exposure: {
      currency: 'USD',
      extra: { locations: ['not these'] },
      locations: [
        { ref: 'A"1]', note: 'brackets [{ and }] and a \\ backslash, a "quote", ünïcødé 東京 😀' },
        { ref: 'B', nested: { locations: [1, 2], list: [[], {}, [{}]] }, values: { buildings: '1.00' } },
        { ref: 'C,', empty: {} },
        { ref: 'D', ['exposure']: { locations: [9] } },
        { ref: 'E' },
      ],
      source_fidelity: { unmapped_columns: [] },
    },
    provenance: { runs: [{ kind: 'ingest', locations: [{ ref: 'decoy' }] }] },
  }),
  // Whitespace between tokens (not canonical, still JSON).
  '{ "exposure" : { "locations" : [ {"ref":"a"} , {"ref":"b"} ,\n {"ref":"c"} ] } , "z": 1 }',
  JSON.stringify({ exposure: { locations: [] }, status: 'draft' }),
  JSON.stringify({ exposure: { values: {} }, status: 'draft' }),
  JSON.stringify({ locations: [{ ref: 'top level is not exposure' }] }),
];

function scan(bytes: Buffer, start: number, limit: number, chunk: number, from?: LocationMark) {
  const scanner = new LocationScanner(start, limit, from);
  for (let at = from?.offset ?? 0; at < bytes.length; at += chunk) {
    if (scanner.feed(bytes.subarray(at, Math.min(at + chunk, bytes.length)))) break;
  }
  const page = scanner.page();
  return { items: page.items.map((b) => JSON.parse(b.toString('utf8'))), next: page.next };
}

test('every page of every document equals JSON.parse, whatever the chunk size', () => {
  for (const text of DOCUMENTS) {
    const bytes = Buffer.from(text, 'utf8');
    const expected: unknown[] = JSON.parse(text).exposure?.locations ?? [];
    for (const chunk of [1, 2, 3, 7, 64, bytes.length]) {
      for (const limit of [1, 2, 3, 10]) {
        for (let start = 0; start <= expected.length + 1; start += 1) {
          const page = scan(bytes, start, limit, chunk);
          assert.deepEqual(page.items, expected.slice(start, start + limit), `${text.slice(0, 30)} chunk ${chunk} start ${start} limit ${limit}`);
          assert.equal(page.next !== undefined, start + limit < expected.length, 'next only when more follow');
          if (page.next) {
            assert.equal(page.next.index, start + limit);
            // Resuming at the mark gives the same page as counting from the start.
            const resumed = scan(bytes, page.next.index, limit, chunk, page.next);
            assert.deepEqual(resumed.items, expected.slice(start + limit, start + 2 * limit));
          }
        }
      }
    }
  }
});
