// The model lab host over real HTTP: models, content-addressed runs, the windstorm lane over the
// pinned PiWind data by points and by a stored OED schedule, refusals, metering and tenancy.
import assert from 'node:assert/strict';
import { call, eachDialect, envelopeFaults, sharedService, signup, startService, waitForJob, finishedRun, type TestService } from '../support/service.js';
import { form } from '../support/schedules.js';
import { manifestOf, rawFile } from '../support/feeds.js';

const MODEL = 'oasislmf-windstorm';
// Points written for the test inside the demonstration footprint (lat 52.734-52.795, lon -0.918 to -0.857).
const INSIDE = [
  { lat: 52.74, lon: -0.91, value: 1_000_000 },
  { lat: 52.76, lon: -0.89, value: 250_000 },
  { lat: 52.79, lon: -0.86, value: 500_000 },
];

// The model's grid as the pinned areaperil_dict gives it: the extent of every cell's corners.
const GRID = (() => {
  const lines = rawFile('oasis-piwind', 'areaperil_dict.csv').toString('utf8').trim().split(/\r?\n/);
  const head = lines[0]!.split(',').map((h) => h.trim().toUpperCase());
  const lats: number[] = [];
  const lons: number[] = [];
  for (const line of lines.slice(1)) {
    const cols = line.split(',');
    for (let k = 1; k <= 4; k++) {
      lats.push(Number(cols[head.indexOf(`LAT${k}`)]));
      lons.push(Number(cols[head.indexOf(`LON${k}`)]));
    }
  }
  return { min_lat: Math.min(...lats), max_lat: Math.max(...lats), min_lon: Math.min(...lons), max_lon: Math.max(...lons) };
})();

eachDialect('GET /models lists the windstorm lane with its revision, pinned inputs and caps', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const models = await call(svc.urls.lab, 'GET', '/models', { key });
  assert.equal(models.status, 200);
  const model = models.body.models.find((m: any) => m.id === MODEL);
  assert.match(model.version, /-r3$/);
  const manifest = manifestOf('oasis-piwind');
  assert.equal(model.pinned_inputs.files.length, manifest.files.length);
  for (const f of manifest.files) assert.equal(model.pinned_inputs.files.find((x: any) => x.name === f.name).sha256, f.sha256);
  assert.deepEqual(model.caps.footprint, GRID);
  assert.equal((await call(svc.urls.lab, 'GET', '/models')).status, 401);
});

eachDialect('equivalent specs share one content-addressed run; a resubmission reads the stored result', async (dialect) => {
  const svc = await startService(dialect);
  try {
    const { key } = await signup(svc.api);
    const first = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, samples: 0, exposure: { points: INSIDE } } });
    assert.equal(first.status, 202, first.text);
    assert.match(first.body.id, /^run_[0-9a-f]{32}$/);
    assert.equal(first.headers.get('location'), `/runs/${first.body.id}`);
    // The job lives on the API host, so its link is absolute and answers there.
    assert.match(first.body.links.job, /^http:\/\/[^/]+\/jobs\/[0-9a-f-]{36}$/);
    assert.ok(first.body.links.job.startsWith(svc.api), `${first.body.links.job} is not on ${svc.api}`);
    const job = await fetch(first.body.links.job, { headers: { 'user-agent': 'catrisk-tests/1.0', authorization: `Bearer ${key}` } });
    assert.equal(job.status, 200);
    await job.arrayBuffer();
    const done = await finishedRun(svc, key, `/runs/${first.body.id}`);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
    const metrics = done.result.metrics;
    assert.equal(metrics.schema, 'lab-metrics/1');
    assert.ok(metrics.average_annual_loss.mean > 0);
    assert.match(done.label, /[Ee]xternally built/);
    assert.equal(done.result.model_data.feed_id, 'oasis-piwind');

    // Member order and spelled-out defaults do not make a new run.
    const same = await call(svc.urls.lab, 'POST', '/runs', { key, body: { exposure: { points: INSIDE.map((p) => ({ value: p.value, lon: p.lon, lat: p.lat })) }, model: MODEL, terms: null } });
    assert.equal(same.status, 200, same.text);
    assert.equal(same.body.id, first.body.id);
    const replay = await call(svc.urls.lab, 'GET', `/runs/${first.body.id}`, { key });
    assert.equal(replay.text, (await call(svc.urls.lab, 'GET', `/runs/${first.body.id}`, { key })).text);
    const jobs = await svc.services.database.db.selectFrom('jobs').select('id').where('verb', '=', 'lab_run').execute();
    assert.equal(jobs.length, 1, 'the resubmission did not run again');
    assert.equal((await call(svc.api, 'GET', '/usage', { key })).body.units.model_runs, 1);

    // Another spec is another run.
    const sampled = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, samples: 10, exposure: { points: INSIDE } } });
    assert.notEqual(sampled.body.id, first.body.id);
  } finally {
    await svc.close();
  }
});

eachDialect('a stored OED schedule runs by object_id: ground-up AAL in the schedule\'s currency', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const oed = ['LocNumber,Latitude,Longitude,LocPerilsCovered,OccupancyCode,ConstructionCode,BuildingTIV,ContentsTIV,LocCurrency',
    'L1,52.74,-0.91,WW1,1050,5000,1000000,200000,GBP',
    'L2,52.76,-0.89,WTC,1100,5000,400000,100000,GBP',
    'L3,51.50,-0.12,WW1,1050,5000,900000,0,GBP'].join('\n');
  const accepted = await call(svc.api, 'POST', '/ingest', { key, raw: form(oed, { type: 'text/csv', filename: 'oed.csv' }) });
  const job = await waitForJob(svc.api, key, accepted.headers.get('location')!);
  const objectId = job.result.objects[0].id;
  const run = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, samples: 0, exposure: { object_id: objectId } } });
  assert.equal(run.status, 202, run.text);
  const done = await finishedRun(svc, key, `/runs/${run.body.id}`);
  assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
  assert.ok(done.result.metrics.average_annual_loss.mean > 0);
  assert.equal(done.result.unmodeled.count, 1, 'London is outside the footprint');
  assert.equal(done.result.exposure.places, 3);
  // The losses are named in the object's currency and published in whole pence.
  assert.equal(done.result.currency, 'GBP');
  for (const e of done.result.metrics.elt) assert.equal(e.loss, Math.round(e.loss * 100) / 100);
  const chart = await call(svc.urls.lab, 'GET', `/runs/${run.body.id}/chart.svg`, { key });
  assert.match(chart.text, />loss \(GBP\)</);
  const ept = await call(svc.urls.lab, 'GET', `/runs/${run.body.id}?format=csv&table=ept`, { key });
  assert.equal(ept.headers.get('catrisk-currency'), 'GBP');

  // Points may name their currency: whole yen; none named is null (the values' own unit).
  const yen = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, samples: 0, exposure: { points: INSIDE, currency: 'JPY' } } });
  assert.equal(yen.body.spec.exposure.currency, 'JPY');
  const yenRun = await finishedRun(svc, key, `/runs/${yen.body.id}`);
  assert.equal(yenRun.result.currency, 'JPY');
  assert.ok(yenRun.result.metrics.elt.length > 0);
  for (const e of yenRun.result.metrics.elt) assert.ok(Number.isInteger(e.loss), `${e.loss} yen`);
  const plain = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, samples: 0, exposure: { points: INSIDE } } });
  assert.notEqual(plain.body.id, yen.body.id);
  assert.equal('currency' in plain.body.spec.exposure, false, 'a spec naming no currency keeps the id it had');
  assert.equal((await finishedRun(svc, key, `/runs/${plain.body.id}`)).result.currency, null);

  // No place inside: succeeds, every place unmodeled, no loss figure.
  const outside = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, samples: 0, exposure: { points: [{ lat: 51.5, lon: -0.12, value: 1 }] } } });
  const none = await finishedRun(svc, key, `/runs/${outside.body.id}`);
  assert.equal(none.status, 'succeeded');
  assert.equal(none.result.unmodeled.count, 1);
  assert.equal(none.result.metrics, null);
});

eachDialect('lab refusals, metering after cancellation, tenancy', async (dialect) => {
  const svc = await sharedService(dialect);
  const a = await signup(svc.api);
  const b = await signup(svc.api);
  const cases: Array<[unknown, number, string]> = [
    [{ model: 'nope', samples: 0, exposure: { points: INSIDE } }, 422, 'invalid_request'],
    [{ model: MODEL, samples: -1, exposure: { points: INSIDE } }, 422, 'invalid_request'],
    [{ model: MODEL, samples: 0, exposure: { points: INSIDE }, colour: 'red' }, 422, 'invalid_request'],
    [{ model: MODEL, samples: 0, exposure: { points: INSIDE }, terms: { reinsurance: { layers: [{ attachment: 0, limit: 1 }, { attachment: 1, limit: 1 }, { attachment: 2, limit: 1 }, { attachment: 3, limit: 1 }] } } }, 422, 'invalid_request'],
    [{ model: MODEL, samples: 10, exposure: { points: INSIDE }, correlation: { damage_group: 'portfolio' } }, 422, 'invalid_request'],
    [{ model: MODEL, samples: 10, exposure: { points: INSIDE }, correlation: 'location' }, 422, 'invalid_request'],
    [{ model: MODEL, samples: 0, exposure: { object_id: 'obj_000000000000000000000000' } }, 404, 'not_found'],
    // A currency not in ISO 4217's shape.
    ...['usd', 'US', 12].map((currency): [unknown, number, string] => [{ model: MODEL, samples: 0, exposure: { points: INSIDE, currency } }, 422, 'invalid_request']),
  ];
  for (const [body, status, code] of cases) {
    const answer = await call(svc.urls.lab, 'POST', '/runs', { key: a.key, body });
    assert.equal(answer.status, status, `${JSON.stringify(body)}: ${answer.text}`);
    assert.equal(answer.body.error.code, code);
    assert.deepEqual(envelopeFaults(answer), []);
  }
  const run = await call(svc.urls.lab, 'POST', '/runs', { key: a.key, body: { model: MODEL, samples: 0, exposure: { points: INSIDE } } });
  assert.equal((await call(svc.urls.lab, 'GET', `/runs/${run.body.id}`, { key: b.key })).status, 404);
  await call(svc.api, 'DELETE', '/subscription', { key: a.key });
  const refused = await call(svc.urls.lab, 'POST', '/runs', { key: a.key, body: { model: MODEL, samples: 0, exposure: { points: INSIDE } } });
  assert.equal(refused.status, 402);
  assert.equal(refused.body.error.code, 'account_cancelled');
});

// r3 terms written for this test: every piece binds on some event of the three INSIDE points
// (place losses reach 950,000; the account sum reaches 1,700,000).
const TERMS = {
  policy: { place_deductible: 10_000, place_limit: 600_000, account_deductible: 25_000, account_limit: 1_200_000 },
  reinsurance: {
    quota_share: { ceded_share: 0.2 },
    layers: [{ attachment: 50_000, limit: 100_000 }, { attachment: 200_000, limit: 300_000 }, { attachment: 600_000, limit: 200_000 }],
  },
};

/** The same terms worked by hand on one event's place losses (no helper of the service). */
function byHand(places: number[]) {
  const p = TERMS.policy;
  let placeDed = 0;
  let placeAbove = 0;
  let sum = 0;
  for (const g of places) {
    const d = Math.min(g, p.place_deductible);
    const i = Math.min(g - d, p.place_limit);
    placeDed += d;
    placeAbove += g - d - i;
    sum += i;
  }
  const accDed = Math.min(sum, p.account_deductible);
  const insured = Math.min(sum - accDed, p.account_limit);
  const qs = TERMS.reinsurance.quota_share.ceded_share * insured;
  const retained = insured - qs;
  const layers = TERMS.reinsurance.layers.map((l) => Math.min(l.limit, Math.max(0, retained - l.attachment)));
  const net = retained - layers.reduce((s, x) => s + x, 0);
  return { ground_up: places.reduce((s, x) => s + x, 0), placeDed, placeAbove, accDed, accAbove: sum - accDed - insured, insured, qs, layers, net };
}

eachDialect('r3 terms run over HTTP: perspectives and terms_summary match the terms worked by hand on each place\'s event losses', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const submit = async (body: unknown) => {
    const answer = await call(svc.urls.lab, 'POST', '/runs', { key, body });
    assert.ok(answer.status === 200 || answer.status === 202, answer.text);
    const done = await finishedRun(svc, key, `/runs/${answer.body.id}`);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
    return done;
  };
  const run = await submit({ model: MODEL, samples: 0, exposure: { points: INSIDE }, terms: TERMS });
  const result = run.result;
  const periods: number = result.model_data.periods;
  // Each place's ground-up event losses, from a run of that point alone (no terms).
  const alone = await Promise.all(INSIDE.map((p) => submit({ model: MODEL, samples: 0, exposure: { points: [p] } })));
  const placeLoss = alone.map((r) => new Map<number, number>(r.result.metrics.elt.map((e: any) => [e.event_id, e.loss])));
  const occurrences = new Map<number, number>();
  for (const r of alone) for (const e of r.result.metrics.elt) occurrences.set(e.event_id, e.occurrences);
  const total = { ground_up: 0, placeDed: 0, placeAbove: 0, accDed: 0, accAbove: 0, insured: 0, qs: 0, layers: [0, 0, 0], net: 0 };
  const insuredByEvent = new Map<number, number>();
  const netByEvent = new Map<number, number>();
  for (const [eventId, occ] of occurrences) {
    const h = byHand(placeLoss.map((m) => m.get(eventId) ?? 0));
    insuredByEvent.set(eventId, h.insured);
    netByEvent.set(eventId, h.net);
    for (const k of ['ground_up', 'placeDed', 'placeAbove', 'accDed', 'accAbove', 'insured', 'qs', 'net'] as const) total[k] += (occ * h[k]) / periods;
    h.layers.forEach((x, k) => { total.layers[k]! += (occ * x) / periods; });
  }
  // Published losses are rounded to cents (domain/lab/engine/publication.ts) and the hand-worked
  // figures start from the places' rounded event losses: each differs from the exact by at most half
  // a cent, and deductibles and limits never widen a difference, so an event's figure is within
  // (places + 1) half-cents and an annual one within places half-cents per event a year, plus two.
  const halfCent = 0.005;
  const eventsPerPeriod = [...occurrences.values()].reduce((a, b) => a + b, 0) / periods;
  const perEvent = (INSIDE.length + 1) * halfCent;
  const perYear = INSIDE.length * halfCent * eventsPerPeriod + 2 * halfCent;
  const close = (a: number, b: number, what: string, tolerance = perYear) => assert.ok(Math.abs(a - b) <= tolerance + 1e-9 * Math.abs(b), `${what}: ${a} vs ${b}`);
  assert.ok(total.layers.every((x) => x > 0) && total.placeAbove > 0 && total.accAbove > 0, 'every piece of the terms binds somewhere');
  const s = result.terms_summary;
  close(s.ground_up, total.ground_up, 'ground-up');
  close(s.ground_up, result.metrics.average_annual_loss.mean, 'ground-up against metrics');
  close(s.retained_by_deductibles.place, total.placeDed, 'place deductibles');
  close(s.retained_by_deductibles.account, total.accDed, 'account deductible');
  close(s.above_limits.place, total.placeAbove, 'above place limits');
  close(s.above_limits.account, total.accAbove, 'above the account limit');
  close(s.insured, total.insured, 'insured');
  close(s.ceded.quota_share, total.qs, 'quota share');
  s.ceded.layers.forEach((l: any, k: number) => {
    assert.deepEqual([l.attachment, l.limit], [TERMS.reinsurance.layers[k]!.attachment, TERMS.reinsurance.layers[k]!.limit]);
    close(l.aal, total.layers[k]!, `layer ${k + 1}`);
  });
  close(s.net, total.net, 'net');
  // Conservation: ground-up = retained + ceded pieces + net.
  close(s.retained_by_deductibles.total + s.above_limits.total + s.ceded.total + s.net, s.ground_up, 'conservation');
  // The insured and net views are full lab-metrics/1 blocks over the same event losses.
  const { il, ri } = result.perspectives;
  assert.equal(il.schema, 'lab-metrics/1');
  assert.equal(ri.schema, 'lab-metrics/1');
  close(il.average_annual_loss.mean, total.insured, 'insured view AAL');
  close(ri.average_annual_loss.mean, total.net, 'net view AAL');
  for (const e of il.elt) close(e.loss, insuredByEvent.get(e.event_id)!, `insured event ${e.event_id}`, perEvent);
  for (const e of ri.elt) close(e.loss, netByEvent.get(e.event_id)!, `net event ${e.event_id}`, perEvent);
  assert.equal(il.elt.length, [...insuredByEvent.values()].filter((x) => x > 0).length);
  assert.deepEqual(result.terms.policy, TERMS.policy);

  // Equivalent terms (members reordered, defaults spelled out) are the same run.
  const again = await call(svc.urls.lab, 'POST', '/runs', { key, body: {
    terms: { reinsurance: { layers: TERMS.reinsurance.layers, quota_share: { ceded_share: 0.2 } }, policy: { ...TERMS.policy } },
    exposure: { points: INSIDE }, samples: 0, model: MODEL,
  } });
  assert.equal(again.status, 200, again.text);
  assert.equal(again.body.id, run.id);

  // Sampled: terms act sample by sample; the ground-up view is the run without terms.
  const sampled = await submit({ model: MODEL, samples: 10, exposure: { points: INSIDE }, terms: TERMS });
  const plain = await submit({ model: MODEL, samples: 10, exposure: { points: INSIDE } });
  close(sampled.result.metrics.average_annual_loss.mean, plain.result.metrics.average_annual_loss.mean, 'sampled ground-up with and without terms');
  const t = sampled.result.terms_summary;
  close(t.retained_by_deductibles.total + t.above_limits.total + t.ceded.total + t.net, t.ground_up, 'sampled conservation');
  assert.ok(t.conservation.checks > 0 && t.conservation.max_relative_gap <= 1e-9);
  close(sampled.result.perspectives.il.average_annual_loss.mean, t.insured, 'sampled insured view');
});

eachDialect('points exactly on the edges of the published footprint are modeled; only points the lookup cannot place are unmodeled', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const footprint = (await call(svc.urls.lab, 'GET', '/models', { key })).body.models.find((m: any) => m.id === MODEL).caps.footprint;
  assert.deepEqual(footprint, GRID);
  const midLat = (GRID.min_lat + GRID.max_lat) / 2;
  const midLon = (GRID.min_lon + GRID.max_lon) / 2;
  const edges = [
    { lat: footprint.min_lat, lon: midLon, value: 1_000_000 }, { lat: footprint.max_lat, lon: midLon, value: 1_000_000 },
    { lat: midLat, lon: footprint.min_lon, value: 1_000_000 }, { lat: midLat, lon: footprint.max_lon, value: 1_000_000 },
  ];
  const answer = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, samples: 0, exposure: { points: [...edges, { lat: footprint.min_lat - 1e-6, lon: midLon, value: 1 }] } } });
  const done = await finishedRun(svc, key, `/runs/${answer.body.id}`);
  assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
  assert.deepEqual(done.result.unmodeled.places, [{ index: 4, reason: 'outside_demonstration_footprint' }]);
  assert.equal(done.result.exposure.modeled, 4);
  assert.deepEqual(done.result.model_data.footprint, GRID);
  // The southern edge alone carries its own loss.
  const south = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, samples: 0, exposure: { points: [edges[0]] } } });
  const southDone = await finishedRun(svc, key, `/runs/${south.body.id}`);
  assert.equal(southDone.result.unmodeled.count, 0);
  assert.ok(southDone.result.metrics.average_annual_loss.mean > 0);
});

eachDialect('the damage correlation rule is part of the spec: stated, content-addressed, the framework\'s by default', async (dialect) => {
  const svc = await startService(dialect);
  try {
    const { key } = await signup(svc.api);
    const post = (body: unknown) => call(svc.urls.lab, 'POST', '/runs', { key, body });
    const first = await post({ model: MODEL, samples: 10, exposure: { points: INSIDE } });
    assert.equal(first.status, 202, first.text);
    assert.deepEqual(first.body.spec.correlation, { damage_group: 'location_peril_group' });
    // The default spelled out is the same run; another rule is another run.
    const spelled = await post({ model: MODEL, samples: 10, exposure: { points: INSIDE }, correlation: { damage_group: 'location_peril_group' } });
    assert.equal(spelled.body.id, first.body.id);
    const shared = await post({ model: MODEL, samples: 10, exposure: { points: INSIDE }, correlation: { damage_group: 'location' } });
    assert.notEqual(shared.body.id, first.body.id);
    const a = await finishedRun(svc, key, `/runs/${first.body.id}`);
    const b = await finishedRun(svc, key, `/runs/${shared.body.id}`);
    assert.equal(a.status, 'succeeded', JSON.stringify(a.error));
    assert.equal(b.status, 'succeeded', JSON.stringify(b.error));
    assert.deepEqual(a.result.run.correlation, { damage_group: 'location_peril_group' });
    assert.deepEqual(b.result.run.correlation, { damage_group: 'location' });
    assert.ok(a.result.assumptions.some((x: string) => /location_peril_group/.test(x)));
    // Points cover wind and storm surge (WW1): sampling them together or apart gives other figures;
    // the analytical mean is the same.
    assert.notEqual(a.result.metrics.average_annual_loss.mean, b.result.metrics.average_annual_loss.mean);
    assert.equal(a.result.mean_damage.aal, b.result.mean_damage.aal);
    const docs = (await call(svc.urls.lab, 'GET', '/models', { key })).body.models.find((m: any) => m.id === MODEL);
    assert.match(docs.spec.correlation, /location_peril_group/);
  } finally {
    await svc.close();
  }
});
