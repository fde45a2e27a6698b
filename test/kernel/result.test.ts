// Result and the refusal carrier: a refusal keeps its status, code, message, details and headers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ok, refused, unwrap } from '../../src/kernel/result.js';
import { ApiError, refusal } from '../../src/kernel/refusal.js';
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
  const thrown = new ApiError(500, 'internal_error', 'x');
  assert.equal(ApiError.of(thrown), thrown);
});
