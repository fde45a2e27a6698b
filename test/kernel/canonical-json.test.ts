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
