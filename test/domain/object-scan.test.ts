// An object read from its bytes, chunk by chunk: the locations handed on are the document's, in
// order, and the skeleton is the parsed document with its locations left out and counted, however
// the bytes are split and whatever the strings hold.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ObjectScanner } from '../../src/domain/risk-object/object-scan.js';
import { canonicalJson } from '../../src/kernel/canonical-json.js';

const TRICKY = 'a "quoted" [bracket], {brace}: \\ back\\slash, 東京 ]]}}';

const DOCUMENTS: Array<Record<string, unknown>> = [
  {
    id: 'obj_1', status: 'draft', peril: { code: 'flood', region: { type: 'box', min_latitude: 1 } },
    exposure: { currency: 'USD', locations: [{ ref: TRICKY, locations: [1, 2], nested: { locations: [] } }, { ref: 'B' }, 'odd', 3, null, [], TRICKY], source_fidelity: { ambiguous_rows: [{ row: 2, reason: TRICKY }] } },
    provenance: { source_files: [{ name: TRICKY, sha256: 'ab' }], runs: [{ kind: 'create', note: '"locations":[1,2]' }] },
    trigger: { locations: [1, 2, 3], peril: { code: 'wildfire' } },
  },
  { id: 'obj_2', status: 'priced', exposure: { locations: [] } },
  { id: 'obj_3', status: 'draft', exposure: { values: {} }, provenance: { source_files: [], runs: [] } },
  { id: 'obj_4', status: 'draft', exposure: { locations: Array.from({ length: 2000 }, (_, i) => ({ ref: `L${i}`, v: [i, { w: i }] })), currency: 'EUR' }, peril: { code: 'earthquake' } },
];

function scan(bytes: Buffer, size: number) {
  const handed: unknown[] = [];
  const scanner = new ObjectScanner((run) => { assert.ok(run.length > 0); handed.push(...run); });
  for (let at = 0; at < bytes.length; at += size) scanner.feed(bytes.subarray(at, at + size));
  return { ...scanner.skeleton(), handed };
}

test('the skeleton is the parsed document without its locations, in chunks of any size', () => {
  for (const document of DOCUMENTS) {
    const exposure = document.exposure as Record<string, unknown>;
    const locations = Array.isArray(exposure.locations) ? exposure.locations.length : 0;
    const expected = { ...document, exposure: { ...exposure, ...(Array.isArray(exposure.locations) ? { locations: [] } : {}) } };
    const canonical = Buffer.from(canonicalJson(document), 'utf8');
    const spaced = Buffer.from(JSON.stringify(Object.fromEntries(Object.entries(document).reverse()), null, 2), 'utf8');
    for (const bytes of [canonical, spaced]) {
      for (const size of [1, 2, 7, 64, 4096, bytes.length]) {
        const read = scan(bytes, size);
        assert.deepEqual(read.document, expected, `${document.id as string} in chunks of ${size}`);
        assert.equal(read.locations, locations, `${document.id as string} in chunks of ${size}`);
        assert.deepEqual(read.handed, Array.isArray(exposure.locations) ? exposure.locations : [], `${document.id as string}'s locations in chunks of ${size}`);
      }
    }
  }
});
