// The credential before the request (SPEC Authentication 5, 6 and 8): every route of every host that
// takes a credential refuses a request without a good one before its path parameters, query or body
// are read. Each route the running hosts registered is sent deliberately invalid parameters, query
// and body with no credential and with each kind of wrong one; the answer is 401 unauthenticated
// (403 internal_only for a wrong credential on the internal route), never the 400, 404, 415 or 422
// the request would earn once the credential is good.
import assert from 'node:assert/strict';
import type { RouteInfo } from '../../src/http/host.js';
import { call, eachDialect, envelopeFaults, signup, startService, type Answer } from '../support/service.js';

const INTERNAL_TOKEN = 'internal-credential-first-test';

/** The route's path with every parameter given a value no parameter schema admits. */
function invalidPath(route: RouteInfo): string {
  return route.path
    .replace(/:[A-Za-z_]+/g, 'not~a!valid(id)')
    .replace(/\*$/, 'not~a!valid/(path)')
    // A query no route accepts: an unknown member, a limit that is no number, an account id that is no id.
    + '?limit=not-a-number&account_id=nobody&unknown_member=1';
}

/** A body for every method that takes one: members no schema admits, or bytes that are not JSON. */
const BODIES = [
  { raw: JSON.stringify({ unknown_member: [1, 2, 3], rows: 'not-a-list' }), type: 'application/json' },
  { raw: '{"not json', type: 'application/json' },
  { raw: 'file=nothing', type: 'multipart/form-data; boundary=missing' },
] as const;

/** The wrong credentials SPEC names: none, another scheme, the scheme with an empty key, a key not held. */
const WRONG = [
  { name: 'no Authorization header', headers: {} },
  { name: 'another scheme', headers: { authorization: 'Basic Y2F0cmlzazpub3BlCg==' } },
  { name: 'Bearer with an empty key', headers: { authorization: 'Bearer ' } },
  { name: 'a key this environment does not hold', headers: { authorization: 'Bearer crk_not_held_by_this_environment' } },
] as const;

function refusedWith(answer: Answer, status: number, code: string, where: string) {
  assert.equal(answer.status, status, `${where}: ${answer.text}`);
  assert.equal(answer.body?.error?.code, code, where);
  assert.deepEqual(envelopeFaults(answer), [], where);
  if (status === 401) assert.equal(answer.headers.get('www-authenticate'), 'Bearer', where);
}

eachDialect('every route that takes a credential answers a request without a good one 401 before reading its parameters, query or body', async (dialect) => {
  // Wrong keys are counted per address; this test sends hundreds on purpose.
  const svc = await startService(dialect, { CATRISK_INVALID_KEY_LIMIT: '1000000', CATRISK_INTERNAL_TOKEN: INTERNAL_TOKEN });
  try {
    const guarded = svc.hosts.flatMap((host) => host.routes.filter((r) => r.auth !== 'none').map((route) => ({ host, route })));
    const byMode = (mode: RouteInfo['auth']) => guarded.filter((g) => g.route.auth === mode).length;
    // The walk covers what SPEC's route table names: the key routes of the API, data room and lab
    // hosts, the two exchange reads that check a key when one is sent, and the internal route.
    assert.ok(byMode('key') >= 50, `${byMode('key')} key routes`);
    assert.equal(byMode('optional'), 2);
    assert.deepEqual(guarded.filter((g) => g.route.auth === 'internal').map((g) => `${g.host.name} ${g.route.method} ${g.route.path}`),
      ['api GET /internal/exchange/models/:id/connector']);
    for (const name of ['api', 'data', 'lab'] as const) assert.ok(guarded.some((g) => g.host.name === name && g.route.auth === 'key'), name);
    // No route checks a credential of its own behind a keyless edge: on the API, data room and lab
    // hosts only SPEC's keyless routes (and each host's index) answer without one. The docs host and
    // the tool server take none at the edge (a tool reads its key as an argument).
    const keyless = svc.hosts.filter((h) => ['api', 'data', 'lab'].includes(h.name))
      .flatMap((h) => h.routes.filter((r) => r.auth === 'none').map((r) => `${h.name} ${r.method} ${r.path}`));
    assert.deepEqual(keyless.sort(), ['api GET /', 'api GET /health', 'api GET /ready', 'api POST /signup', 'data GET /', 'lab GET /', 'lab GET /health']);

    for (const { host, route } of guarded) {
      const path = invalidPath(route);
      const bodies = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method) ? BODIES : [undefined];
      for (const wrong of WRONG) {
        // A route that reads a key only when one is sent answers a request without one: only a wrong key is refused.
        if (route.auth === 'optional' && wrong.name === 'no Authorization header') continue;
        for (const body of bodies) {
          const where = `${host.name} ${route.method} ${path} (${wrong.name}${body ? `, ${body.type} body` : ''})`;
          const answer = await call(host.url, route.method, path, {
            headers: { ...wrong.headers, ...(body ? { 'content-type': body.type } : {}) },
            ...(body ? { raw: body.raw } : {}),
          });
          // The internal route: no internal credential carried is 401; one carried that is not the environment's is 403.
          if (route.auth === 'internal' && wrong.name === 'a key this environment does not hold') refusedWith(answer, 403, 'internal_only', where);
          else refusedWith(answer, 401, 'unauthenticated', where);
        }
      }
    }

    // The same requests with a good credential reach the checks the credential came before.
    const { key } = await signup(svc.api);
    for (const { host, route } of guarded.filter((g) => g.route.method === 'GET' && g.route.auth !== 'internal')) {
      const answer = await call(host.url, 'GET', invalidPath(route), { key });
      assert.ok(answer.status !== 401, `${host.name} GET ${route.path} with a good key: ${answer.text}`);
    }
    const internal = guarded.find((g) => g.route.auth === 'internal')!;
    const checked = await call(internal.host.url, 'GET', invalidPath(internal.route), { headers: { authorization: `Bearer ${INTERNAL_TOKEN}` } });
    refusedWith(checked, 422, 'invalid_request', 'the internal route with its credential checks its query');
  } finally {
    await svc.close();
  }
});
