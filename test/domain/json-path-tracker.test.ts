// The one tracker of where a byte stands in a JSON document (json-bytes.ts): the member path
// exposure.locations is found at exactly its opening '[' and nowhere else, whatever the other
// values hold (random JSON from fast-check, and hand-made decoys of the same names in strings,
// deeper levels and escaped names), and every object and array it opens it closes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { JsonPathTracker, OPEN_ARRAY } from '../../src/domain/risk-object/json-bytes.js';

const LOCATIONS = ['exposure', 'locations'];
const DECOYS: unknown[] = [
  { exposure: { locations: [1] } },
  '"exposure":{"locations":[',
  { 'exposure': [{ locations: [] }], 'locations': [] },
  { 'exp\u006fsure': 1, 'a\\"b': [[], {}] },
];

/** The offsets of each '[' at which the tracker stands at exposure.locations, and the depth at the end. */
function scan(bytes: Buffer): { found: number[]; depth: number } {
  const path = new JsonPathTracker(LOCATIONS.length);
  const found: number[] = [];
  for (let i = 0; i < bytes.length; i += 1) {
    const b = bytes[i]!;
    if (path.step(b) >= 0 && b === OPEN_ARRAY && path.at(LOCATIONS)) found.push(i);
  }
  return { found, depth: path.stack.length };
}

test('exposure.locations is found once, at its own opening bracket, past any other values', () => {
  const value = fc.oneof(fc.jsonValue(), fc.constantFrom(...DECOYS));
  fc.assert(fc.property(value, value, value, fc.constantFrom(0, 2), (a, b, c, indent) => {
    const text = (v: unknown) => JSON.stringify(v, null, indent);
    // Built in parts so the bracket's offset is known independently of the tracker.
    const head = `{"a":${text(a)},"\\u0065xposure":${text(b)},"exposure":{"x":${text(b)},"locations":`;
    const document = `${head}[${text(c)},${text(a)}],"y":${text(c)}},"z":${text(a)}}`;
    JSON.parse(document);
    const { found, depth } = scan(Buffer.from(document));
    assert.deepEqual(found, [Buffer.byteLength(head)]);
    assert.equal(depth, 0);
  }), { numRuns: 300 });
});

test('a document without exposure.locations is never found to have it', () => {
  fc.assert(fc.property(fc.oneof(fc.jsonValue(), fc.constantFrom(...DECOYS)), (v) => {
    const { found, depth } = scan(Buffer.from(JSON.stringify({ exposure: { values: v }, v, locations: [v] })));
    assert.deepEqual(found, []);
    assert.equal(depth, 0);
  }), { numRuns: 300 });
});
