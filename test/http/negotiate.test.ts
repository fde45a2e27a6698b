// Content negotiation as the exports read it: format= wins, Accept's q-values and specificity,
// JSON when nothing is said, 406 when nothing served is admitted.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../src/kernel/refusal.js';
import { CSV_OFFER, GEOJSON_OFFER, JSON_OFFER, negotiate } from '../../src/http/negotiate.js';

const OFFERS = [JSON_OFFER, CSV_OFFER, GEOJSON_OFFER];
const request = (accept: string | undefined, format?: string) =>
  ({ headers: accept === undefined ? {} : { accept }, query: format === undefined ? {} : { format } }) as unknown as FastifyRequest;
const chosen = (accept: string | undefined, format?: string) => negotiate(request(accept, format), OFFERS).format;

test('no Accept, an empty one, */* and application/json answer JSON', () => {
  for (const accept of [undefined, '', '*/*', 'application/json', 'application/*', 'text/html, */*;q=0.1', 'application/json, text/csv']) {
    assert.equal(chosen(accept), 'json', String(accept));
  }
});

test('Accept chooses by q, then by the more specific range, then by its own order', () => {
  assert.equal(chosen('text/csv'), 'csv');
  assert.equal(chosen('TEXT/CSV; charset=utf-8'), 'csv');
  assert.equal(chosen('text/*'), 'csv');
  assert.equal(chosen('application/geo+json'), 'geojson');
  assert.equal(chosen('application/json;q=0.5, text/csv'), 'csv');
  assert.equal(chosen('text/csv, */*'), 'csv');
  assert.equal(chosen('text/csv, application/json'), 'csv');
  assert.equal(chosen('*/*;q=0.9, application/json;q=0'), 'csv');
});

test('format= wins over Accept', () => {
  assert.equal(chosen('text/csv', 'json'), 'json');
  assert.equal(chosen('image/png', 'geojson'), 'geojson');
});

test('an Accept admitting nothing served is 406 not_acceptable naming the types', () => {
  for (const accept of ['image/png', 'text/html, application/xml;q=0.9', 'application/json;q=0, text/csv;q=0, application/geo+json;q=0', 'nonsense']) {
    assert.throws(() => chosen(accept), (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.equal(e.status, 406);
      assert.equal(e.code, 'not_acceptable');
      assert.match(e.message, /application\/json, text\/csv, application\/geo\+json/);
      return true;
    }, accept);
  }
});
