// The providers that call outside services, against local servers speaking each service's
// documented wire format: Nominatim's /search?format=jsonv2, Photon's /api GeoJSON, and an
// OpenAI-compatible /chat/completions with a json_schema response_format. Answers, timeouts, 5xx,
// malformed answers, oversized answers, pacing and the headers sent.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { OutboundClient, OutboundError } from '../../src/providers/http-client.js';
import { nominatimGeocoder, photonGeocoder, OSM_ATTRIBUTION } from '../../src/providers/geocoders.js';
import { chatCompletionsCoder } from '../../src/providers/chat-completions.js';
import { oedReference } from '../domain/exposure/support.js';
import { chatAnswer, fakeUpstream, json, silent, type FakeUpstream } from '../support/fake-upstream.js';

let upstream: FakeUpstream;
before(async () => { upstream = await fakeUpstream(); });
after(async () => { await upstream.close(); });

const UA = 'catrisk-tests/1.0 (ops@example.test)';
const geocoderSettings = (timeoutMs = 5_000, minIntervalMs = 0) => ({ baseUrl: upstream.url, timeoutMs, userAgent: UA, minIntervalMs });

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof OutboundError, String(error));
    return error;
  }
  assert.fail('expected an OutboundError');
}

test('the outbound client sends its User-Agent, gives up on a silent server, reads no more than its cap', async () => {
  upstream.behave(json(200, { ok: true }));
  // Generous timeouts where an answer is expected (the machine may be busy); a short one for silence.
  const client = new OutboundClient({ name: 'test', userAgent: UA, timeoutMs: 5_000, maxBytes: 64, minIntervalMs: 0 });
  assert.deepEqual(await client.json(`${upstream.url}/x`), { ok: true });
  assert.equal(upstream.received.at(-1)!.headers['user-agent'], UA);
  upstream.behave(silent);
  const started = Date.now();
  const impatient = new OutboundClient({ ...client.options, timeoutMs: 300 });
  assert.equal((await failure(impatient.json(`${upstream.url}/slow`))).failure, 'timeout');
  assert.ok(Date.now() - started < 2_000);
  upstream.behave(json(200, 'x'.repeat(1000)));
  assert.equal((await failure(client.json(`${upstream.url}/big`))).failure, 'too_large');
  // Streamed with no length declared, the cap still holds.
  upstream.behave((_q, r) => { r.writeHead(200, { 'content-type': 'application/json' }); r.write('"' + 'y'.repeat(50)); r.end('y'.repeat(50) + '"'); });
  assert.equal((await failure(client.json(`${upstream.url}/stream`))).failure, 'too_large');
  // A port nothing listens on.
  const closed = await fakeUpstream();
  const url = closed.url;
  await closed.close();
  assert.equal((await failure(client.json(`${url}/gone`))).failure, 'unreachable');
});

test('a dispatcher decides at connect time (the hook later address checks use)', async () => {
  const { Agent } = await import('undici');
  upstream.behave(json(200, { ok: true }));
  const refusing = new Agent({ connect: (_options, callback) => callback(new Error('address not allowed'), null) });
  const client = new OutboundClient({ name: 'checked', userAgent: UA, timeoutMs: 5_000, maxBytes: 1024, minIntervalMs: 0, dispatcher: refusing });
  const before = upstream.received.length;
  assert.equal((await failure(client.json(`${upstream.url}/x`))).failure, 'unreachable');
  assert.equal(upstream.received.length, before, 'nothing reached the server');
  await refusing.close();
});

test('requests to one provider arrive one at a time, at least the interval apart, in order', async () => {
  upstream.behave(json(200, []));
  const geocoder = nominatimGeocoder(geocoderSettings(2_000, 300));
  const before = upstream.received.length;
  await Promise.all([geocoder.search('Lyon', 1), geocoder.search('Paris', 1), geocoder.search('Nice', 1)]);
  const arrivals = upstream.received.slice(before);
  assert.deepEqual(arrivals.map((r) => new URL(r.url, 'http://x').searchParams.get('q')), ['Lyon', 'Paris', 'Nice']);
  for (let i = 1; i < arrivals.length; i++) assert.ok(arrivals[i]!.at - arrivals[i - 1]!.at >= 290, `gap ${arrivals[i]!.at - arrivals[i - 1]!.at} ms`);
});

test('Nominatim: jsonv2 places become candidates with their precision; 5xx, a non-list and a silent server are failures', async () => {
  // Hand-made answer in Nominatim's jsonv2 format (lat and lon are strings; place_rank per its ranking).
  upstream.behave(json(200, [
    { place_id: 1, lat: '51.5033635', lon: '-0.1276248', display_name: '10, Downing Street, London, SW1A 2AA, United Kingdom', place_rank: 30, category: 'building', type: 'house', addresstype: 'building' },
    { place_id: 2, lat: '51.50', lon: '-0.12', display_name: 'Downing Street, London', place_rank: 26, category: 'highway', type: 'residential', addresstype: 'road' },
    { place_id: 3, lat: '51.5', lon: '-0.1', display_name: 'SW1A 2AA', place_rank: 25, category: 'place', type: 'postcode', addresstype: 'postcode' },
    { place_id: 4, lat: '51.50', lon: '-0.12', display_name: 'London', place_rank: 16, category: 'place', type: 'city', addresstype: 'city' },
    { place_id: 5, lat: '52.5', lon: '-1.5', display_name: 'England', place_rank: 8, category: 'boundary', type: 'administrative', addresstype: 'state' },
    { place_id: 6, lat: '54', lon: '-2', display_name: 'United Kingdom', place_rank: 4, category: 'boundary', type: 'administrative', addresstype: 'country' },
  ]));
  const geocoder = nominatimGeocoder(geocoderSettings());
  const found = await geocoder.search('10 Downing Street, London', 6);
  assert.deepEqual(found.map((c) => c.precision), ['rooftop', 'street', 'postcode', 'locality', 'region', 'country']);
  assert.deepEqual(found[0], { latitude: 51.5033635, longitude: -0.1276248, precision: 'rooftop', label: '10, Downing Street, London, SW1A 2AA, United Kingdom', geocoder: 'nominatim' });
  const sent = new URL(upstream.received.at(-1)!.url, 'http://x');
  assert.equal(sent.pathname, '/search');
  assert.equal(sent.searchParams.get('format'), 'jsonv2');
  assert.equal(sent.searchParams.get('q'), '10 Downing Street, London');
  assert.equal(sent.searchParams.get('limit'), '6');
  assert.deepEqual(geocoder.attribution, [OSM_ATTRIBUTION]);
  upstream.behave(json(200, []));
  assert.deepEqual(await geocoder.search('Nowhere at all', 5), []);
  upstream.behave(json(503, { error: 'busy' }));
  const busy = await failure(geocoder.search('Lyon', 5));
  assert.equal(busy.failure, 'status');
  assert.equal(busy.status, 503);
  upstream.behave(json(200, { error: 'not a list' }));
  assert.equal((await failure(geocoder.search('Lyon', 5))).failure, 'malformed');
  upstream.behave(json(200, [{ lat: 'north', lon: 'west', display_name: 'x' }]));
  assert.equal((await failure(geocoder.search('Lyon', 5))).failure, 'malformed');
  upstream.behave((_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('[{"lat":'));
  assert.equal((await failure(geocoder.search('Lyon', 5))).failure, 'malformed');
  upstream.behave(silent);
  assert.equal((await failure(nominatimGeocoder(geocoderSettings(200)).search('Lyon', 5))).failure, 'timeout');
});

test('Photon: GeoJSON features become candidates ([lon, lat] order, type to precision); malformed and 5xx are failures', async () => {
  upstream.behave(json(200, {
    type: 'FeatureCollection',
    features: [
      { type: 'Feature', geometry: { type: 'Point', coordinates: [4.8357, 45.764] }, properties: { osm_key: 'place', osm_value: 'city', type: 'city', name: 'Lyon', state: 'Auvergne-Rhône-Alpes', country: 'France' } },
      { type: 'Feature', geometry: { type: 'Point', coordinates: [4.83, 45.76] }, properties: { osm_key: 'building', type: 'house', housenumber: '3', street: 'Quai Saint-Antoine', city: 'Lyon', country: 'France' } },
      { type: 'Feature', geometry: { type: 'Point', coordinates: [4.8, 45.7] }, properties: { osm_key: 'place', osm_value: 'postcode', type: 'other', postcode: '69002', name: '69002' } },
    ],
  }));
  const geocoder = photonGeocoder(geocoderSettings());
  const found = await geocoder.search('Lyon', 3);
  assert.deepEqual(found.map((c) => [c.latitude, c.longitude, c.precision]), [[45.764, 4.8357, 'locality'], [45.76, 4.83, 'rooftop'], [45.7, 4.8, 'postcode']]);
  assert.equal(found[0]!.label, 'Lyon, Auvergne-Rhône-Alpes, France');
  assert.equal(found[1]!.label, '3 Quai Saint-Antoine, Lyon, France');
  const sent = new URL(upstream.received.at(-1)!.url, 'http://x');
  assert.equal(sent.pathname, '/api');
  assert.equal(sent.searchParams.get('limit'), '3');
  upstream.behave(json(200, { type: 'FeatureCollection' }));
  assert.equal((await failure(geocoder.search('Lyon', 3))).failure, 'malformed');
  upstream.behave(json(502, 'bad gateway'));
  assert.equal((await failure(geocoder.search('Lyon', 3))).failure, 'status');
});

test('chat completions: a strict json_schema request with the key; rows answered by index, bad rows unanswered, bad answers refused', async () => {
  const coder = chatCompletionsCoder({ baseUrl: `${upstream.url}/v1/`, model: 'test-model', apiKey: 'sk-test-secret', timeoutMs: 1_500, userAgent: UA }, async () => oedReference());
  upstream.behave(json(200, chatAnswer(JSON.stringify({ rows: [
    { index: 1, occupancy_code: 1122, occupancy_confidence: 0.9, construction_code: 5155, construction_confidence: 0.8 },
    { index: 0, occupancy_code: 1104, occupancy_confidence: 0.95, construction_code: 5150, construction_confidence: 0.6 },
    { index: 2, occupancy_code: 1104, occupancy_confidence: 1.5, construction_code: 5150, construction_confidence: 0.6 },
    { index: 9, occupancy_code: 1104, occupancy_confidence: 0.5, construction_code: 5150, construction_confidence: 0.6 },
  ] }))));
  const rows = ['RC office', 'Tilt-up warehouse', 'Strip mall', 'Cold store'];
  const answers = await coder.codeRows(rows);
  assert.deepEqual(answers, [
    { occupancy: { code: 1104, confidence: 0.95 }, construction: { code: 5150, confidence: 0.6 } },
    { occupancy: { code: 1122, confidence: 0.9 }, construction: { code: 5155, confidence: 0.8 } },
    null, // a confidence over 1
    null, // not answered (index 9 is no row)
  ]);
  const sent = upstream.received.at(-1)!;
  assert.equal(sent.method, 'POST');
  assert.equal(sent.url, '/v1/chat/completions');
  assert.equal(sent.headers.authorization, 'Bearer sk-test-secret');
  assert.equal(sent.headers['user-agent'], UA);
  const body = JSON.parse(sent.body);
  assert.equal(body.model, 'test-model');
  assert.equal(body.response_format.type, 'json_schema');
  assert.equal(body.response_format.json_schema.strict, true);
  assert.deepEqual(body.response_format.json_schema.schema.properties.rows.items.required, ['index', 'occupancy_code', 'occupancy_confidence', 'construction_code', 'construction_confidence']);
  assert.deepEqual(JSON.parse(body.messages[1].content), { rows: rows.map((text, index) => ({ index, text })) });
  assert.match(body.messages[0].content, /5155 Concrete, Tilt-up/);

  // A row answered twice is not trusted.
  upstream.behave(json(200, chatAnswer(JSON.stringify({ rows: [{ index: 0, probability: 0.9 }, { index: 0, probability: 0.1 }, { index: 1, probability: 0.2 }] }))));
  assert.deepEqual(await coder.flagRows(['Campus', 'Office']), [null, { probability: 0.2 }]);

  for (const [what, behaviour, kind] of [
    ['content that is not JSON', json(200, chatAnswer('Sure! Here are the codes: ...')), 'malformed'],
    ['JSON without rows', json(200, chatAnswer('{"codes": []}')), 'malformed'],
    ['a refusal', json(200, chatAnswer('', { refusal: 'I cannot help with that.' })), 'malformed'],
    ['no choices', json(200, { choices: [] }), 'malformed'],
    ['a cut-off answer', (_q: unknown, r: import('node:http').ServerResponse) => { const a = chatAnswer('{"rows": [') as { choices: Array<{ finish_reason: string }> }; a.choices[0]!.finish_reason = 'length'; r.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(a)); }, 'malformed'],
    ['HTTP 500', json(500, { error: { message: 'server error' } }), 'status'],
    ['HTTP 429', json(429, { error: { message: 'rate limited' } }), 'status'],
    ['silence', silent, 'timeout'],
  ] as const) {
    upstream.behave(behaviour as never);
    const error = await failure(coder.codeRows(['RC office']));
    assert.equal(error.failure, kind, what);
    assert.ok(!error.message.includes('sk-test-secret'), 'the key never appears in a message');
  }
});
