// The canonical serializer against an independent reference (the canonicalize package, RFC 8785)
// on random JSON values.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import canonicalize from 'canonicalize';
import { canonicalJson } from '../../src/kernel/canonical-json.js';

test('canonicalJson equals the RFC 8785 reference on random JSON', () => {
  fc.assert(fc.property(fc.jsonValue(), (value) => {
    assert.equal(canonicalJson(value), canonicalize(value));
  }), { numRuns: 2000, seed: 8785 });
});

test('RFC 8785 number forms and member order by UTF-16 code units', () => {
  assert.equal(canonicalJson({ b: 1e21, a: 1e-7, c: -0, '\u20ac': 1, '\ud83d\ude00': 2, é: 3 }), '{"a":1e-7,"b":1e+21,"c":0,"é":3,"€":1,"😀":2}');
  assert.throws(() => canonicalJson({ x: Number.NaN }));
});

test('small documents and large ones (over the hand-written budget) give the same bytes as the reference', () => {
  // Hand-made values: arrays and objects of every size around the 2,048-value budget.
  for (const n of [0, 1, 2046, 2047, 2048, 2049, 5000]) {
    const array = Array.from({ length: n }, (_, i) => ({ z: i, a: `s${i}`, m: [i % 3 === 0, null, i / 7] }));
    assert.equal(canonicalJson(array), canonicalize(array));
    const object = Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${n - i}`, i]));
    assert.equal(canonicalJson(object), canonicalize(object));
  }
  fc.assert(fc.property(fc.array(fc.jsonValue(), { minLength: 300, maxLength: 900 }), (value) => {
    assert.equal(canonicalJson(value), canonicalize(value));
  }), { numRuns: 40, seed: 2048 });
});

test('members that JSON leaves out, toJSON, integer-like keys and refusals read as JSON.stringify reads them', () => {
  const at = new Date(Date.UTC(2026, 0, 2));
  assert.equal(canonicalJson({ b: undefined, f: () => 1, a: [undefined, () => 1, 1], d: at }), '{"a":[null,null,1],"d":"2026-01-02T00:00:00.000Z"}');
  assert.equal(canonicalJson({ 10: 'x', 9: 'y', a: { 2: 1, 10: 2 } }), '{"10":"x","9":"y","a":{"10":2,"2":1}}');
  assert.equal(canonicalJson(Object.assign(Object.create(null), { b: 1, a: 2 })), '{"a":2,"b":1}');
  assert.throws(() => canonicalJson({ x: [Number.POSITIVE_INFINITY] }), /NaN and Infinity/);
  assert.throws(() => canonicalJson({ x: 1n }), TypeError);
});
