// An object's two stored parts (domain/risk-object/stored-parts.ts) put back together are canonical
// JSON of the whole document, byte for byte; and a PATCH's validation needs no location: no rule of
// the published risk-object schema couples a writable block to the exposure, which is what lets a
// PATCH read and write the skeleton alone. Hand-made documents, not real exposure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalJson } from '../../src/kernel/canonical-json.js';
import { documentSize, objectParts, skeletonBytes, skeletonOf } from '../../src/domain/risk-object/stored-parts.js';
import { WRITABLE_BLOCKS } from '../../src/domain/risk-object/patch.js';
import { riskObjectSchema } from '../../src/schemas.js';

const whole = (parts: ReturnType<typeof objectParts>) => parts.skeleton.slot < 0
  ? Buffer.from(parts.skeleton.bytes)
  : Buffer.concat([parts.skeleton.bytes.subarray(0, parts.skeleton.slot), parts.locations, parts.skeleton.bytes.subarray(parts.skeleton.slot + 2)]);

test('the skeleton with its locations put in place is the canonical document', () => {
  const documents = [
    { id: 'obj_1', status: 'draft', exposure: { currency: 'USD', locations: [{ ref: 'é"\\[]', values: { total: '1.5' } }, { ref: '{"locations":[]}' }] }, peril: { code: 'flood' } },
    // A member sorting before exposure, and a string holding what the slot looks like.
    { id: 'obj_2', status: 'draft', $note: '"locations":[]', exposure: { a: { locations: [1] }, locations: [{ b: 2 }] } },
    { id: 'obj_3', status: 'draft', exposure: { locations: [] } },
    { id: 'obj_4', status: 'draft', exposure: { currency: 'EUR' } },
    { id: 'obj_5', status: 'draft' },
  ];
  for (const d of documents) {
    const parts = objectParts(d);
    const expected = Buffer.from(canonicalJson(d), 'utf8');
    assert.ok(whole(parts).equals(expected), d.id);
    assert.equal(documentSize(parts.skeleton, parts.locations.byteLength), expected.byteLength, d.id);
    assert.ok(Buffer.from(parts.skeleton.bytes).equals(Buffer.from(canonicalJson(skeletonOf(d)), 'utf8')), d.id);
  }
  assert.equal(objectParts(documents[3]!).skeleton.slot, -1);
  assert.equal(skeletonBytes(skeletonOf(documents[1]!)).slot, Buffer.from(canonicalJson(skeletonOf(documents[1]!))).lastIndexOf('[]'));
});

/** Every $ref reachable from a value of the schema, by name of $defs. */
function refsOf(value: unknown, defs: Record<string, unknown>, seen = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) refsOf(v, defs, seen);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') {
        const name = v.replace(/^.*#\/\$defs\//, '');
        if (!seen.has(name)) {
          seen.add(name);
          refsOf(defs[name], defs, seen);
        }
      } else refsOf(v, defs, seen);
    }
  }
  return seen;
}

test('no rule of the risk-object schema couples a writable block to the locations', () => {
  const defs = riskObjectSchema.$defs as Record<string, unknown>;
  for (const block of WRITABLE_BLOCKS) {
    assert.ok(defs[block], `${block} has its own schema`);
    const reached = refsOf(defs[block], defs);
    assert.ok(!reached.has('exposure') && !reached.has('location'), `${block} reaches ${[...reached].join(', ')}`);
  }
  // A rule across members would stand at the top level: there is none.
  for (const keyword of ['if', 'then', 'else', 'allOf', 'anyOf', 'oneOf', 'not', 'dependentRequired', 'dependentSchemas', 'dependencies']) {
    assert.equal(riskObjectSchema[keyword], undefined, keyword);
  }
});
