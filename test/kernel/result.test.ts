// Result and the refusal carrier: a refusal keeps its status, code, message, details and headers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ok, refused, unwrap } from '../../src/kernel/result.js';
import { ApiError, refusal, refusals } from '../../src/kernel/refusal.js';
import { envelope } from '../../src/http/errors.js';

test('unwrap gives the value, or throws the refusal as the one carrier', () => {
  assert.equal(unwrap(ok(3)), 3);
  const r = refusal(422, 'invalid_request', 'The PATCH is not acceptable: 1 fault.', ['body must be an object']);
  assert.throws(() => unwrap(refused(r)), (e: unknown) => e instanceof ApiError
    && e.status === 422 && e.code === 'invalid_request' && e.message === r.message && e.details?.[0] === 'body must be an object');
  const withHeaders = { status: 401, code: 'unauthenticated', message: 'm', headers: { 'www-authenticate': 'Bearer' } };
  assert.deepEqual(ApiError.of(withHeaders).headers, { 'www-authenticate': 'Bearer' });
});

test('a plain refusal and the carrier write the same envelope', () => {
  assert.deepEqual(refusal(404, 'not_found', 'gone', []), { status: 404, code: 'not_found', message: 'gone' });
  const carried = ApiError.of(refusal(422, 'unpriceable_object', 'no', ['a', 'b']));
  assert.deepEqual(envelope(carried), { schema_version: '0.1.0', error: { status: 422, code: 'unpriceable_object', message: 'no', details: ['a', 'b'] } });
  const thrown = ApiError.of(refusal(500, 'internal_error', 'x'));
  assert.equal(ApiError.of(thrown), thrown);
});

test('a refusal is data: refusal() and the named constructors make plain objects, the carrier is made of one', () => {
  const unauthenticated = refusals.unauthenticated('No key.');
  assert.equal(unauthenticated instanceof Error, false);
  assert.deepEqual(unauthenticated, { status: 401, code: 'unauthenticated', message: 'No key.', headers: { 'www-authenticate': 'Bearer' } });
  assert.deepEqual(refusals.notFound(), { status: 404, code: 'not_found', message: 'No such route' });
  assert.deepEqual(refusals.invalidRequest(400, 'Bad.', []), { status: 400, code: 'invalid_request', message: 'Bad.' });
  assert.deepEqual(refusals.invalidRequest(422, 'Bad.', ['a']), { status: 422, code: 'invalid_request', message: 'Bad.', details: ['a'] });
  assert.deepEqual(refusals.databaseUnavailable().headers, { 'retry-after': '2' });
  assert.deepEqual([refusals.shuttingDown().status, refusals.accountCancelled().code], [503, 'account_cancelled']);
  assert.deepEqual(refusal(409, 'idempotency_key_in_use', 'Busy.', undefined, { 'retry-after': '1' }),
    { status: 409, code: 'idempotency_key_in_use', message: 'Busy.', headers: { 'retry-after': '1' } });
  // The carrier keeps every part, and writes an empty detail and an empty message as the envelope always has.
  const carried = ApiError.of(refusal(405, 'method_not_allowed', 'No.', ['', 'a'], { allow: 'GET, HEAD' }));
  assert.deepEqual([carried.status, carried.code, carried.message, carried.headers], [405, 'method_not_allowed', 'No.', { allow: 'GET, HEAD' }]);
  assert.deepEqual(carried.toBody(), { status: 405, code: 'method_not_allowed', message: 'No.', details: ['(no detail)', 'a'] });
  assert.equal(ApiError.of(refusal(404, 'not_found', '')).toBody().message, 'not_found');
  assert.throws(() => ApiError.of(refusal(200, 'ok', 'Not a refusal.')), /bad error status 200/);
  assert.throws(() => ApiError.of(refusal(400, 'Bad Code', 'No.')), /bad error code Bad Code/);
});
