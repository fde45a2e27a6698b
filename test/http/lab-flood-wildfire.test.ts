// The flood and wildfire lanes over real HTTP: GET /models lists the maps each lane reads (the coastal
// lane's list empty), runs go through the job and come back with their maps named, a bad sector is
// refused on the request.
import assert from 'node:assert/strict';
import { call, eachDialect, sharedService, signup, finishedRun, type TestService } from '../support/service.js';
import { manifestOf } from '../support/feeds.js';
import { snapshotDigest } from '../../src/feeds/store.js';

eachDialect('GET /models lists the maps each flood lane reads and the wildfire lane\'s fire lists', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const models = await call(svc.urls.lab, 'GET', '/models', { key });
  assert.equal(models.status, 200);
  const by = (id: string) => models.body.models.find((m: any) => m.id === id);
  const river = by('river-flood');
  assert.equal(river.lane, 'river-flood');
  assert.deepEqual(river.pinned_inputs.maps.map((m: any) => m.feed_id).sort(), ['climada-flood-san-salvador', 'wri-aqueduct-inunriver-djibouti']);
  const dj = river.pinned_inputs.maps.find((m: any) => m.feed_id === 'wri-aqueduct-inunriver-djibouti');
  assert.equal(dj.version, manifestOf('wri-aqueduct-inunriver-djibouti').version);
  assert.deepEqual(dj.return_periods, [2, 5, 10, 25, 50, 100, 250, 500, 1000]);
  assert.equal(river.pinned_inputs.depth_damage.feed_id, 'jrc-depth-damage');
  assert.deepEqual(by('coastal-flood').pinned_inputs.maps, []);
  assert.equal(by('wildfire').pinned_inputs.maps.length, 5);
  assert.ok(by('wildfire').pinned_inputs.maps.every((m: any) => m.feed_id.startsWith('usgs-mtbs-')));
});

eachDialect('river-flood, coastal-flood and wildfire runs through the job; a bad sector refused on the request', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  // Points written for the test: one in the San Salvador focus area, one in a wet cell of the Djibouti
  // 100-year map (0.268 m, found by reading the GeoTIFF), one in the Pacific.
  const points = [{ lat: 13.6905, lon: -89.1995, value: 50_000 }, { lat: 11.957, lon: 42.2912, value: 80_000 }, { lat: 0, lon: -150, value: 1 }];
  const river = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: 'river-flood', sector: 'commercial', exposure: { points } } });
  assert.ok([200, 202].includes(river.status), river.text);
  const done = await finishedRun(svc, key, `/runs/${river.body.id}`);
  assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
  assert.equal(done.result.sector, 'commercial');
  assert.equal(done.result.unmodeled.count, 1);
  assert.deepEqual(done.result.unmodeled.places, [{ index: 2, reason: 'outside_maps' }]);
  for (const m of done.result.maps_read) {
    assert.equal(m.sha256, snapshotDigest(manifestOf(m.feed_id).files));
    assert.equal(m.version, manifestOf(m.feed_id).version);
    assert.equal(m.defended, false);
  }
  assert.ok(done.result.places.every((p: any) => p.curve.sector === 'commercial'));
  const dj = done.result.places.find((p: any) => p.index === 1);
  assert.equal(dj.map, 'wri-aqueduct-inunriver-djibouti');
  assert.ok(Math.abs(dj.depths[0].depths_m.find((d: any) => d.return_period === 100).depth_m - 0.26841169595718384) < 1e-9);
  assert.ok(dj.aal > 0);
  // No exceedance curves: no chart linked, and the chart and ORD tables refused saying why.
  assert.equal(done.links.chart, undefined);
  const chart = await call(svc.urls.lab, 'GET', `/runs/${river.body.id}/chart.svg`, { key });
  assert.deepEqual([chart.status, chart.body.error.code], [422, 'invalid_request']);
  assert.match(chart.body.error.message, /no exceedance curves/);

  const coastal = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: 'coastal-flood', exposure: { points } } });
  const coastalDone = await finishedRun(svc, key, `/runs/${coastal.body.id}`);
  assert.equal(coastalDone.status, 'succeeded');
  assert.equal(coastalDone.result.unmodeled.count, 3);
  assert.equal(coastalDone.result.aal, null);

  const fire = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: 'wildfire', exposure: { points: [{ lat: 40.6, lon: -105.9, value: 1_000_000 }] } } });
  const fireDone = await finishedRun(svc, key, `/runs/${fire.body.id}`);
  assert.equal(fireDone.status, 'succeeded', JSON.stringify(fireDone.error));
  assert.equal(fireDone.result.aal, null);
  assert.ok(fireDone.result.loss_ceiling > 0);

  const bad = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: 'river-flood', sector: 'agricultural', exposure: { points } } });
  assert.equal(bad.status, 422);
  assert.equal(bad.body.error.code, 'invalid_request');
  assert.ok(bad.body.error.details.some((d: string) => /sector must be one of residential, commercial, industrial/.test(d)));
});
