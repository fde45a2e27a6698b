// POST /objects/{id}/price reads no body: the route's schema takes only none, null or {}, and
// refuses anything else before the use case runs (so before the object is looked up).
import assert from 'node:assert/strict';
import { call, eachDialect, envelopeFaults, sharedService, signup } from '../support/service.js';
import { ingestedObject } from '../support/objects.js';

eachDialect('a price request with a body other than none, null or {} is refused by the route\'s schema', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const objectPath = await ingestedObject(svc, key);
  const member = await call(svc.api, 'POST', `${objectPath}/price`, { key, body: { discount: 0.1 } });
  assert.equal(member.status, 422);
  assert.deepEqual(member.body.error, {
    status: 422, code: 'invalid_request',
    message: 'The price request is not acceptable: body has an unknown member "discount" (it takes no members).',
    details: ['body has an unknown member "discount" (it takes no members)'],
  });
  for (const body of [[], ['x'], 'terms', 3, true]) {
    const refused = await call(svc.api, 'POST', `${objectPath}/price`, { key, body });
    assert.equal(refused.status, 422, JSON.stringify(body));
    assert.deepEqual(refused.body.error.details, ['body must be an object or null'], JSON.stringify(body));
    assert.deepEqual(envelopeFaults(refused), []);
  }
  // The schema answers first: an object that is not the caller's is not even looked up.
  const elsewhere = await call(svc.api, 'POST', '/objects/obj_000000000000000000000000/price', { key, body: { discount: 0.1 } });
  assert.equal(elsewhere.status, 422);
  assert.equal((await call(svc.api, 'POST', '/objects/obj_000000000000000000000000/price', { key, body: {} })).status, 404);
  // None, null and {} are the object's own terms priced.
  assert.equal((await call(svc.api, 'POST', `${objectPath}/price`, { key })).status, 202);
  assert.equal((await call(svc.api, 'POST', `${objectPath}/price`, { key, raw: 'null', headers: { 'content-type': 'application/json' } })).status, 202);
  assert.equal((await call(svc.api, 'POST', `${objectPath}/price`, { key, body: {} })).status, 202);
});
