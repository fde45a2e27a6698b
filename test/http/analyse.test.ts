// POST /objects/{id}/analyse over the real pinned snapshots: the four analyses, their figures
// against GET /hazard and a recount of the raw catalog, every refusal at its place (request or
// job), the 25-location limit at 25 and 26, provenance, tenancy and a byte-identical re-run.
// Schedules here are hand-made for the tests (not real exposure).
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { call, eachDialect, envelopeFaults, sharedService, signup, waitForJob, type TestService } from '../support/service.js';
import { manifestOf, rawFile } from '../support/feeds.js';

// Written here, apart from the service's geometry: mean Earth radius 6371.0088 km.
function haversine(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = (d: number) => (d * Math.PI) / 180;
  const a = Math.sin(r(lat2 - lat1) / 2) ** 2 + Math.cos(r(lat1)) * Math.cos(r(lat2)) * Math.sin(r(lon2 - lon1) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(a));
}

interface Row { ref: string; lat: number | null; lon: number | null; value: string | null; street?: string; occupancy?: number | null; construction?: number | null; year?: number | null }

function location(r: Row) {
  return {
    ref: r.ref, address: { street: r.street ?? `${r.ref} Main St`, city: 'Los Angeles' }, latitude: r.lat, longitude: r.lon,
    occupancy: { code: r.occupancy === undefined ? 1050 : r.occupancy, text: 'Residential' }, construction: { code: r.construction === undefined ? 5000 : r.construction, text: 'Frame' },
    year_built: r.year === undefined ? 1990 : r.year, values: r.value === null ? { total: null } : { buildings: r.value, total: r.value },
  };
}

function object(rows: Row[], peril: string | null) {
  return {
    ...(peril ? { peril: { code: peril } } : {}),
    exposure: {
      locations: rows.map(location),
      values: { total: null }, currency: 'USD',
      source_fidelity: { unmapped_columns: [{ column: 'Notes', sample: ['x'] }], guessed_units: [], ambiguous_rows: [{ row: 3, reason: 'several buildings' }] },
    },
  };
}

async function create(svc: TestService, key: string, body: unknown): Promise<string> {
  const made = await call(svc.api, 'POST', '/objects', { key, body });
  assert.equal(made.status, 201, made.text);
  return made.body.id;
}

async function analyse(svc: TestService, key: string, id: string, body: unknown) {
  const accepted = await call(svc.api, 'POST', `/objects/${id}/analyse`, { key, body });
  assert.equal(accepted.status, 202, accepted.text);
  return waitForJob(svc.api, key, accepted.headers.get('location')!, 60_000);
}

/** Located rows around Los Angeles, one unlocated, one duplicate of the first. */
const LA_ROWS: Row[] = [
  { ref: 'A', lat: 34.05, lon: -118.25, value: '1000000.00' },
  { ref: 'B', lat: 34.1, lon: -118.3, value: '2500000.50', occupancy: null, year: null },
  { ref: 'C', lat: 33.95, lon: -118.4, value: '500000.00', construction: null },
  { ref: 'D', lat: null, lon: null, value: '750000.00' },
  { ref: 'A2', lat: 34.05, lon: -118.25, value: '100.00', street: 'A Main St' },
  { ref: 'E', lat: 34.2, lon: -118.5, value: null },
];

eachDialect('analyse: the four analyses, each figure checked, recorded on provenance, replayed byte for byte', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const id = await create(svc, key, object(LA_ROWS, 'earthquake'));
  const job = await analyse(svc, key, id, { analyses: ['exposure_quality', 'hazard_profile', 'nearby_history', 'feed_reach'] });
  assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
  assert.equal(job.verb, 'analyse');
  const doc = job.result;
  assert.match(doc.id, /^an_[0-9a-f]{32}$/);
  assert.deepEqual(doc.analyses, ['hazard_profile', 'nearby_history', 'feed_reach', 'exposure_quality']);
  assert.deepEqual(doc.locations, { count: 6, located: 5, limit: 25 });
  const located = LA_ROWS.map((r, index) => ({ ...r, index })).filter((r) => r.lat !== null);

  // hazard_profile: the same summaries GET /hazard gives at each point.
  assert.equal(doc.results.hazard_profile.locations.length, located.length);
  for (const [i, r] of located.entries()) {
    const at = doc.results.hazard_profile.locations[i];
    assert.equal(at.index, r.index);
    assert.equal(at.ref, r.ref);
    const hazard = await call(svc.api, 'GET', `/hazard?peril=earthquake&lat=${r.lat}&lon=${r.lon}`, { key });
    assert.equal(hazard.status, 200);
    assert.equal(at.covered, true);
    assert.deepEqual(at.summaries, hazard.body.summaries, `hazard at ${r.ref}`);
  }
  const comcat = 'usgs-comcat-m6-california';
  assert.ok(doc.feeds.some((f: any) => f.feed_id === comcat && f.version === manifestOf(comcat).version && /^[0-9a-f]{64}$/.test(f.sha256)));

  // nearby_history: recounted from the raw catalog rows, within the default 100 km.
  assert.equal(doc.radius_km, 100);
  const rows = parse(rawFile(comcat), { columns: true }) as Array<Record<string, string>>;
  for (const [i, r] of located.entries()) {
    const at = doc.results.nearby_history.locations[i];
    const quakes = at.events.find((e: any) => e.feed.feed_id === comcat);
    assert.ok(quakes, `the California catalog reaches ${r.ref}`);
    const near = rows.filter((q) => q.mag !== '' && q.latitude !== '' && haversine(r.lat!, r.lon!, +q.latitude!, +q.longitude!) <= 100)
      .sort((a, b) => +b.mag! - +a.mag! || (a.time! < b.time! ? -1 : 1));
    assert.equal(quakes.events_within, near.length, `events within 100 km of ${r.ref}`);
    assert.deepEqual(quakes.largest.map((e: any) => e.event_id), near.slice(0, 10).map((q) => q.id));
    assert.deepEqual(quakes.largest.map((e: any) => e.magnitude), near.slice(0, 10).map((q) => +q.mag!));
    for (const e of quakes.largest) assert.ok(Math.abs(e.distance_km - haversine(r.lat!, r.lon!, e.latitude, e.longitude)) < 1e-9);
  }

  // feed_reach: the California catalog carries a cat-in-a-box on magnitude; all seven priced perils listed.
  const reach = doc.results.feed_reach.locations[0];
  assert.deepEqual(reach.perils.map((p: any) => p.peril), ['earthquake', 'weather_station', 'tropical_cyclone', 'flood', 'wildfire', 'severe_convective_storm', 'grid_outage']);
  const quake = reach.perils[0];
  assert.equal(quake.reached, true);
  const onComcat = quake.feeds.find((f: any) => f.feed_id === comcat);
  assert.deepEqual(onComcat.designs.map((d: any) => [d.design, d.trigger_type, d.variables]), [['cat_in_a_box', 'parametric_cat_in_a_box', ['magnitude']]]);
  const fire = reach.perils.find((p: any) => p.peril === 'wildfire');
  assert.ok(fire.feeds.some((f: any) => f.feed_id === 'usgs-mtbs-southern-california'), 'Los Angeles lies in the southern California fire extract');
  // No Georgia county reaches Los Angeles; the state-level OE-417 record covers the United States.
  const grid = reach.perils.find((p: any) => p.peril === 'grid_outage');
  assert.deepEqual(grid.feeds.map((f: any) => [f.feed_id, f.designs.map((d: any) => [d.design, d.trigger_type, d.variables])]),
    [['doe-oe417-disturbance-events', [['state_event', 'parametric_index', ['customers_affected']]]]]);

  // exposure_quality, recomputed from the rows above (values in cents).
  const q = doc.results.exposure_quality;
  assert.equal(q.locations, 6);
  assert.equal(q.unvalued_locations, 1);
  const cents = (v: string | null) => (v === null ? 0 : Math.round(Number(v) * 100));
  const total = LA_ROWS.reduce((n, r) => n + cents(r.value), 0);
  const usd = q.by_currency.find((c: any) => c.currency === 'USD');
  assert.equal(usd.total, (total / 100).toFixed(2));
  const share = (keep: (r: Row) => boolean) => LA_ROWS.filter(keep).reduce((n, r) => n + cents(r.value), 0) / total;
  assert.ok(Math.abs(usd.share_of_value.coordinates.share - share((r) => r.lat !== null)) < 1e-12);
  assert.ok(Math.abs(usd.share_of_value.occupancy_code.share - share((r) => r.occupancy !== null)) < 1e-12);
  assert.ok(Math.abs(usd.share_of_value.construction_code.share - share((r) => r.construction !== null)) < 1e-12);
  assert.ok(Math.abs(usd.share_of_value.year_built.share - share((r) => r.year !== null)) < 1e-12);
  assert.equal(q.counts.coordinates.locations, 5);
  assert.equal(q.source_fidelity.ambiguous_rows, 1);
  assert.deepEqual(q.source_fidelity.unmapped_columns, ['Notes']);
  // A2 has A's coordinates and address (street written the same): one duplicate group.
  assert.deepEqual(q.duplicates, [{ locations: [{ index: 0, ref: 'A' }, { index: 4, ref: 'A2' }] }]);

  // Recorded on the object's provenance, which only grows; not metered as a unit.
  const stored = (await call(svc.api, 'GET', `/objects/${id}`, { key })).body;
  const runs = stored.provenance.runs.filter((r: any) => r.kind === 'analyse');
  assert.equal(runs.length, 1);
  assert.equal(runs[0].run_id, doc.id);
  assert.equal(runs[0].job_id, job.id);
  assert.deepEqual(runs[0].feeds, doc.feeds);

  // The same object and analyses over the same snapshots: the same bytes (provenance grew meanwhile).
  const again = await analyse(svc, key, id, { analyses: ['feed_reach', 'hazard_profile', 'exposure_quality', 'nearby_history'] });
  assert.equal(JSON.stringify(again.result), JSON.stringify(doc));
  const grown = (await call(svc.api, 'GET', `/objects/${id}`, { key })).body.provenance.runs;
  assert.equal(grown.filter((r: any) => r.kind === 'analyse').length, 2);
  assert.deepEqual(grown.slice(0, stored.provenance.runs.length), stored.provenance.runs, 'provenance only grows');

  // radius_km is the caller's: a smaller radius holds no more events.
  const tight = await analyse(svc, key, id, { analyses: ['nearby_history'], radius_km: 20 });
  assert.equal(tight.result.radius_km, 20);
  const r0 = located[0]!;
  const within20 = rows.filter((x) => x.mag !== '' && haversine(r0.lat!, r0.lon!, +x.latitude!, +x.longitude!) <= 20).length;
  const tightQuakes = tight.result.results.nearby_history.locations[0].events.find((e: any) => e.feed.feed_id === comcat);
  assert.equal(tightQuakes?.events_within ?? 0, within20);
});

eachDialect('analyse: storm tracks near Miami with their strongest wind there', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const id = await create(svc, key, object([{ ref: 'M', lat: 25.76, lon: -80.19, value: '1000.00' }], 'tropical_cyclone'));
  const job = await analyse(svc, key, id, { analyses: ['nearby_history', 'hazard_profile'] });
  assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
  const tracks = job.result.results.nearby_history.locations[0].tracks.find((t: any) => t.feed.feed_id === 'noaa-nhc-hurdat2-atlantic');
  assert.ok(tracks.storms_within > 0);
  assert.ok(tracks.strongest.length > 0 && tracks.strongest.length <= 10);
  // The same passes as GET /hazard's track summary at a 100 km radius lists.
  const hazard = await call(svc.api, 'GET', '/hazard?peril=tropical_cyclone&lat=25.76&lon=-80.19', { key });
  const summary = hazard.body.summaries.find((s: any) => s.feed.feed_id === 'noaa-nhc-hurdat2-atlantic').summary;
  assert.equal(summary.radius_km, 100);
  assert.equal(tracks.storms_within, summary.storms_within_radius);
  assert.deepEqual(tracks.strongest.map((p: any) => [p.storm_id, p.wind_kt]), summary.strongest.map((p: any) => [p.storm_id, p.wind_kt]));
  for (let i = 1; i < tracks.strongest.length; i += 1) assert.ok(tracks.strongest[i - 1].wind_kt >= tracks.strongest[i].wind_kt);
});

eachDialect('analyse refusals on the request: unknown or no analysis, a malformed body, tenancy', async (dialect) => {
  const svc = await sharedService(dialect);
  const a = await signup(svc.api);
  const b = await signup(svc.api);
  const id = await create(svc, a.key, object(LA_ROWS, 'earthquake'));
  const cases: Array<[unknown, number, string]> = [
    [{ analyses: ['hazard_profile', 'loss_forecast'] }, 422, 'unknown_analysis'],
    [{ analyses: [] }, 422, 'unknown_analysis'],
    [{}, 422, 'unknown_analysis'],
    [{ analyses: 'hazard_profile' }, 422, 'invalid_request'],
    [{ analyses: ['feed_reach'], radius_km: 0 }, 422, 'invalid_request'],
    [{ analyses: ['feed_reach'], colour: 'red' }, 422, 'invalid_request'],
  ];
  for (const [body, status, code] of cases) {
    const answer = await call(svc.api, 'POST', `/objects/${id}/analyse`, { key: a.key, body });
    assert.equal(answer.status, status, `${JSON.stringify(body)}: ${answer.text}`);
    assert.equal(answer.body.error.code, code, JSON.stringify(body));
    assert.deepEqual(envelopeFaults(answer), []);
    if (code === 'unknown_analysis') {
      for (const name of ['hazard_profile', 'nearby_history', 'feed_reach', 'exposure_quality']) assert.match(answer.body.error.message, new RegExp(name));
    }
  }
  const noBody = await call(svc.api, 'POST', `/objects/${id}/analyse`, { key: a.key });
  assert.equal(noBody.status, 422);
  assert.equal(noBody.body.error.code, 'unknown_analysis');
  // Another account's object, and no object at all: 404, before the analyses are read.
  for (const [key, target] of [[b.key, id], [a.key, 'obj_000000000000000000000000']] as const) {
    const answer = await call(svc.api, 'POST', `/objects/${target}/analyse`, { key, body: { analyses: ['feed_reach'] } });
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error.code, 'not_found');
  }
  const jobs = await call(svc.api, 'GET', '/jobs', { key: a.key });
  assert.equal(jobs.body.jobs.length, 0, 'no job exists for a refused request');
  // Sent again with its Idempotency-Key, the request queues no second job.
  const headers = { 'idempotency-key': 'analyse-once' };
  const first = await call(svc.api, 'POST', `/objects/${id}/analyse`, { key: a.key, body: { analyses: ['feed_reach'] }, headers });
  const repeat = await call(svc.api, 'POST', `/objects/${id}/analyse`, { key: a.key, body: { analyses: ['feed_reach'] }, headers });
  assert.equal(first.status, 202);
  assert.equal(repeat.headers.get('location'), first.headers.get('location'));
  assert.equal(repeat.headers.get('idempotent-replayed'), 'true');
  assert.equal((await call(svc.api, 'GET', '/jobs?verb=analyse', { key: a.key })).body.jobs.length, 1);
});

eachDialect('analyse refusals on the job, and the 25-location limit at 25 and 26', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const grid = (n: number): Row[] => Array.from({ length: n }, (_, i) => ({ ref: `G${i}`, lat: 34 + i * 0.01, lon: -118.2 - i * 0.01, value: '1000.00' }));

  const failed = async (body: unknown, analyses: string[], pattern: RegExp) => {
    const job = await analyse(svc, key, await create(svc, key, body), { analyses });
    assert.equal(job.status, 'failed', JSON.stringify(job.result ?? {}).slice(0, 200));
    assert.deepEqual([job.error.status, job.error.code], [422, 'unanalysable_object']);
    assert.match(job.error.message, pattern);
    return job;
  };
  await failed(object(grid(2), null), ['hazard_profile'], /no peril\.code/);
  await failed(object([], 'earthquake'), ['feed_reach'], /no locations/);
  await failed(object([{ ref: 'X', lat: null, lon: null, value: '1.00' }], 'earthquake'), ['exposure_quality'], /has coordinates/);
  // On the equator in central Africa: no quake catalog, and no storm basin within 10 km.
  const remote = object([{ ref: 'O', lat: 0, lon: 20, value: '1.00' }], 'earthquake');
  await failed(remote, ['hazard_profile'], /No pinned earthquake snapshot covers/);
  const nowhere = await analyse(svc, key, await create(svc, key, remote), { analyses: ['nearby_history'], radius_km: 10 });
  assert.deepEqual([nowhere.status, nowhere.error?.code], ['failed', 'unanalysable_object']);
  assert.match(nowhere.error.message, /No pinned event catalog or storm-track archive reaches within 10 km/);
  await failed(object(grid(1), 'cloud_outage'), ['hazard_profile'], /No pinned snapshot answers hazard for cloud_outage/);
  const over = await failed(object(grid(26), 'earthquake'), ['feed_reach'], /26 located locations.*at most 25/);
  assert.deepEqual(over.error.details, ['located locations: 26, limit 25']);
  // Unlocated rows do not count against the limit.
  const at = await analyse(svc, key, await create(svc, key, object([...grid(25), { ref: 'U', lat: null, lon: null, value: '5.00' }], 'earthquake')), { analyses: ['feed_reach', 'exposure_quality'] });
  assert.equal(at.status, 'succeeded', JSON.stringify(at.error));
  assert.equal(at.result.results.feed_reach.locations.length, 25);
  assert.deepEqual(at.result.locations, { count: 26, located: 25, limit: 25 });
  // peril.code is read only where an analysis needs it.
  const bare = await analyse(svc, key, await create(svc, key, object(grid(2), null)), { analyses: ['feed_reach'] });
  assert.equal(bare.status, 'succeeded', JSON.stringify(bare.error));
});
