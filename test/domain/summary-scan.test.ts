// An object's list summary read from its bytes, chunk by chunk, is the summary of the parsed
// document, however the bytes are split and whatever the strings hold.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ObjectSummaryScanner } from '../../src/domain/risk-object/summary-scan.js';
import { objectSummary } from '../../src/domain/list-summaries.js';
import { canonicalJson } from '../../src/kernel/canonical-json.js';

const TRICKY = 'a "quoted" [bracket], {brace}: \\ back\\slash, 東京';

const DOCUMENTS: Array<Record<string, unknown>> = [
  {
    id: 'obj_1', status: 'draft', peril: { code: 'flood' },
    exposure: { currency: 'USD', locations: [{ ref: TRICKY, locations: [1, 2], nested: { locations: [] } }, { ref: 'B' }, 'odd', 3, null, []] },
    provenance: { source_files: [{ name: TRICKY, sha256: 'ab' }], runs: [{ kind: 'create', note: '"locations":[1,2]' }] },
    trigger: { locations: [1, 2, 3], peril: { code: 'wildfire' } },
  },
  { id: 'obj_2', status: 'priced', exposure: { locations: [] } },
  { id: 'obj_3', status: 'draft', exposure: { values: {} }, provenance: { source_files: [], runs: [] } },
  { id: 'obj_4', status: 'draft', exposure: { locations: Array.from({ length: 2000 }, (_, i) => ({ ref: `L${i}`, v: [i, { w: i }] })) }, peril: { code: 'earthquake' } },
];

function scan(bytes: Buffer, size: number) {
  const scanner = new ObjectSummaryScanner();
  for (let at = 0; at < bytes.length; at += size) scanner.feed(bytes.subarray(at, at + size));
  return scanner.summary();
}

test('the scanned summary is the parsed document\'s, in chunks of any size', () => {
  for (const document of DOCUMENTS) {
    const expected = objectSummary(document);
    const canonical = Buffer.from(canonicalJson(document), 'utf8');
    // Canonical bytes, and the same document written with its members in another order and spaced out.
    const reordered = Buffer.from(JSON.stringify(Object.fromEntries(Object.entries(document).reverse()), null, 2), 'utf8');
    for (const bytes of [canonical, reordered]) {
      for (const size of [1, 2, 7, 64, 4096, bytes.length]) assert.deepEqual(scan(bytes, size), expected, `${document.id as string} in chunks of ${size}`);
    }
  }
  assert.deepEqual(objectSummary(DOCUMENTS[0]!), { peril: 'flood', locations: 6, source: TRICKY });
  assert.deepEqual(objectSummary(DOCUMENTS[2]!), { peril: null, locations: null, source: null });
  assert.equal(objectSummary(DOCUMENTS[3]!).locations, 2000);
});
