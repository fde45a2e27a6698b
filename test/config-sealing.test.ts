// The sealing keys as the environment gives them: CATRISK_SEALING_KEY seals, the keys of
// CATRISK_SEALING_KEYS_PREVIOUS and of the older CATRISK_EXCHANGE_KEY open; CATRISK_EXCHANGE_KEY
// alone keeps its meaning (its first key seals). Faults name the setting and the key id, never a key.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig, sealingConfig } from './../src/config.js';

const key = (id: string, n: number) => `${id}:${Buffer.alloc(32, n).toString('base64')}`;
const ids = (env: Record<string, string>) => sealingConfig(env).keys.map((k) => k.id);

test('CATRISK_SEALING_KEY seals; previous keys and CATRISK_EXCHANGE_KEY open; the alias alone seals with its first key', () => {
  assert.deepEqual(ids({}), []);
  assert.deepEqual(ids({ CATRISK_SEALING_KEY: '' }), []);
  assert.deepEqual(ids({ CATRISK_SEALING_KEY: key('b', 2) }), ['b']);
  assert.deepEqual(ids({ CATRISK_SEALING_KEY: key('b', 2), CATRISK_SEALING_KEYS_PREVIOUS: `${key('a', 1)}, ${key('z', 9)}` }), ['b', 'a', 'z']);
  assert.deepEqual(ids({ CATRISK_EXCHANGE_KEY: `${key('x', 3)},${key('y', 4)}` }), ['x', 'y'], 'the alias as before');
  assert.deepEqual(ids({ CATRISK_EXCHANGE_KEY: `${key('x', 3)},${key('y', 4)}`, CATRISK_SEALING_KEYS_PREVIOUS: key('a', 1) }), ['x', 'a', 'y']);
  assert.deepEqual(ids({ CATRISK_SEALING_KEY: key('b', 2), CATRISK_EXCHANGE_KEY: `${key('x', 3)},${key('y', 4)}` }), ['b', 'x', 'y'], 'the new setting wins; the old keys still open');
  // The same key under the same id in two settings is held once.
  assert.deepEqual(ids({ CATRISK_SEALING_KEY: key('b', 2), CATRISK_EXCHANGE_KEY: key('b', 2) }), ['b']);
  assert.deepEqual(loadConfig({ CATRISK_SEALING_KEY: key('b', 2) }).sealing.keys[0]!.key, Buffer.alloc(32, 2));
});

test('a sealing setting that cannot be right stops the process, naming the setting and never a key', () => {
  const secretPart = Buffer.alloc(32, 2).toString('base64');
  const faults: Array<[Record<string, string>, RegExp]> = [
    [{ CATRISK_SEALING_KEY: `${key('b', 2)},${key('c', 3)}` }, /CATRISK_SEALING_KEY holds one key.*CATRISK_SEALING_KEYS_PREVIOUS/],
    [{ CATRISK_SEALING_KEYS_PREVIOUS: key('a', 1) }, /no key seals: set CATRISK_SEALING_KEY/],
    [{ CATRISK_SEALING_KEY: key('b', 2), CATRISK_SEALING_KEYS_PREVIOUS: key('b', 5) }, /key id b names one key in CATRISK_SEALING_KEY and another in CATRISK_SEALING_KEYS_PREVIOUS/],
    [{ CATRISK_SEALING_KEY: key('b', 2), CATRISK_EXCHANGE_KEY: key('b', 6) }, /key id b names one key in CATRISK_SEALING_KEY and another in CATRISK_EXCHANGE_KEY/],
    [{ CATRISK_SEALING_KEY: secretPart }, /CATRISK_SEALING_KEY entry 1: expected <key id>:<base64 of 32 bytes>/],
    [{ CATRISK_SEALING_KEYS_PREVIOUS: `a:${Buffer.alloc(16).toString('base64')}`, CATRISK_SEALING_KEY: key('b', 2) }, /CATRISK_SEALING_KEYS_PREVIOUS key a: must be 32 bytes in base64, got 16/],
  ];
  for (const [env, message] of faults) {
    assert.throws(() => loadConfig(env), (e: Error) => message.test(e.message) && !e.message.includes(secretPart.slice(0, 12)), JSON.stringify(Object.keys(env)));
  }
});
