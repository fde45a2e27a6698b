// The words of the one fault formatter, over the route schemas as the hosts compile them: query
// values are text (never coerced), each fault names where it is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import type { FastifySchemaValidationError } from 'fastify';
import { schemaRefusal, textFormats } from '../../src/http/schemas/faults.js';
import { eventCatalogue } from '../../src/http/schemas/events.js';
import { backtestStructure, cutStructure } from '../../src/http/schemas/structures.js';
import { signup } from '../../src/http/schemas/accounts.js';

// As host.ts configures Fastify's Ajv.
const ajv = textFormats(new Ajv({ allErrors: true, coerceTypes: false, removeAdditional: false, useDefaults: false, verbose: true }));

function refusal(options: { schema?: unknown }, part: 'querystring' | 'body', value: unknown, how = {}) {
  const validate = ajv.compile((options.schema as Record<string, object>)[part]!);
  if (validate(value)) return undefined;
  return schemaRefusal(validate.errors as FastifySchemaValidationError[], part, how);
}

test('query faults read as the readers worded them', () => {
  const query = (q: Record<string, unknown>) => refusal(eventCatalogue, 'querystring', q)?.details ?? [];
  assert.deepEqual(query({ colour: 'red' }), ['unknown parameter colour (read: feed, version, min_magnitude, max_depth_km, min_value, from, to, min_lat, max_lat, min_lon, max_lon, limit, offset, format)']);
  assert.deepEqual(query({ limit: ['5', '6'] }), ['parameter limit is given more than once']);
  assert.deepEqual(query({ format: 'xlsx' }), ['format must be one of json, csv, geojson, got "xlsx"']);
  for (const limit of ['0', '1001', '', '10abc', '1e2', '-1']) assert.deepEqual(query({ limit }), [`limit must be an integer from 1 to 1000, got "${limit}"`], limit);
  for (const value of ['', ' ', '10abc', 'Infinity', 'NaN']) assert.deepEqual(query({ min_magnitude: value }), [`min_magnitude must be a number, got "${value}"`], value);
  // Number() reads these, as the hand-written reader did.
  for (const value of ['1e3', ' 5 ', '-0.5', '0x10', '.5']) assert.deepEqual(query({ min_magnitude: value }), [], value);
  assert.deepEqual(query({ limit: '1000', offset: '0', from: '2020-01-01', to: '2020-01-02T00:00:00+01:00' }), []);
  assert.deepEqual(query({ from: '2020-02-30' }), ['from must be a date (YYYY-MM-DD) or a date-time with its offset']);
  const several = refusal(eventCatalogue, 'querystring', { colour: 'red', limit: '0' })!;
  assert.equal(several.status, 422);
  assert.equal(several.code, 'invalid_request');
  assert.equal(several.message, `The query is not acceptable: ${several.details!.join('; ')}.`);
});

test('body faults name where they sit; a route may name its own code', () => {
  const backtest = (b: unknown) => refusal(backtestStructure, 'body', b, { body: 'backtest request' });
  assert.equal(backtest(null), undefined, 'no body is the whole record');
  assert.deepEqual([...backtest({ window: { from_year: '1990', until: 1 } })!.details!].sort(),
    ['body.window has an unknown member "until" (read: from_year, to_year)', 'body.window.from_year must be an integer']);
  assert.match(backtest({ range: 1 })!.message, /^The backtest request is not acceptable: body has an unknown member "range"/);
  const cut = refusal(cutStructure, 'body', { exposure: {} }, { code: 'invalid_structure' })!;
  assert.equal(cut.code, 'invalid_structure');
  assert.deepEqual(cut.details, ['body has an unknown member "exposure" (read: trigger, financial_structure, period)']);
  assert.deepEqual(refusal(signup, 'body', { email: 'not an address' })!.details, ['body.email must be an email address (name@domain.tld)']);
  assert.deepEqual(refusal(signup, 'body', [1])!.details, ['body must be an object or null']);
});
