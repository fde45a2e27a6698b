// The coding and geocoding settings read from the environment: off by default, the geocoder list
// in order with its timeouts, and the refusals of a setting that cannot work.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../src/config.js';

test('exposure coding and geocoding are off by default, with the embedded coder and the offline gazetteer', () => {
  const config = loadConfig({});
  assert.equal(config.exposureCoding.enabled, false);
  assert.equal(config.exposureCoding.provider, 'embedded');
  assert.deepEqual([config.exposureCoding.dailyRows, config.exposureCoding.gate, config.exposureCoding.multiBuildingGate], [2000, 0.7, 0.7]);
  assert.equal(config.geocoding.enabled, false);
  assert.deepEqual(config.geocoding.geocoders, [{ kind: 'gazetteer', baseUrl: undefined, timeoutMs: 5000 }]);
  assert.equal(config.geocoding.minIntervalMs, 1000);
});

test('CATRISK_GEOCODERS: kinds in order, each with its URL and timeout', () => {
  const config = loadConfig({
    CATRISK_GEOCODING: 'on',
    CATRISK_GEOCODERS: 'nominatim https://nominatim.example.org 4000, photon https://photon.example.org , gazetteer',
    CATRISK_GEOCODER_TIMEOUT_MS: '2500',
  });
  assert.deepEqual(config.geocoding.geocoders, [
    { kind: 'nominatim', baseUrl: 'https://nominatim.example.org', timeoutMs: 4000 },
    { kind: 'photon', baseUrl: 'https://photon.example.org', timeoutMs: 2500 },
    { kind: 'gazetteer', baseUrl: undefined, timeoutMs: 2500 },
  ]);
  assert.throws(() => loadConfig({ CATRISK_GEOCODERS: 'google https://maps.example' }), /not nominatim, photon or gazetteer/);
  assert.throws(() => loadConfig({ CATRISK_GEOCODERS: 'nominatim' }), /needs its base URL/);
  assert.throws(() => loadConfig({ CATRISK_GEOCODERS: 'gazetteer https://x.example' }), /takes no URL/);
  assert.throws(() => loadConfig({ CATRISK_GEOCODERS: 'photon ftp://x.example' }), /not an http\(s\) URL/);
  assert.throws(() => loadConfig({ CATRISK_GEOCODERS: 'photon https://x.example 10' }), /at least 100 ms/);
});

test('the chat-completions provider needs its base URL and model; gates are shares', () => {
  assert.throws(() => loadConfig({ CATRISK_EXPOSURE_CODING: 'true', CATRISK_CODING_PROVIDER: 'chat-completions' }), /needs CATRISK_CODING_BASE_URL and CATRISK_CODING_MODEL/);
  const chat = loadConfig({ CATRISK_EXPOSURE_CODING: 'true', CATRISK_CODING_PROVIDER: 'chat-completions', CATRISK_CODING_BASE_URL: 'https://api.example/v1', CATRISK_CODING_MODEL: 'm', CATRISK_CODING_API_KEY: 'k' });
  assert.deepEqual(chat.exposureCoding.chat, { baseUrl: 'https://api.example/v1', model: 'm', apiKey: 'k', timeoutMs: 30000 });
  assert.throws(() => loadConfig({ CATRISK_CODING_PROVIDER: 'magic' }), /embedded or chat-completions/);
  assert.throws(() => loadConfig({ CATRISK_CODING_GATE: '1.5' }), /from 0 to 1/);
  assert.throws(() => loadConfig({ CATRISK_MULTI_BUILDING_GATE: '0.4' }), /at least 0.5/);
  assert.throws(() => loadConfig({ CATRISK_EXPOSURE_CODING: 'maybe' }), /true or false/);
});
