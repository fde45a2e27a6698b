// The model lab host over real HTTP: models, content-addressed runs, the windstorm lane over the
// pinned PiWind data by points and by a stored OED schedule, refusals, metering and tenancy.
import assert from 'node:assert/strict';
import { call, eachDialect, envelopeFaults, signup, startService, waitForJob, type TestService } from '../support/service.js';
import { form } from '../support/schedules.js';
import { manifestOf } from '../support/feeds.js';

const MODEL = 'oasislmf-windstorm';
// Points written for the test inside the demonstration footprint (lat 52.734-52.795, lon -0.918 to -0.857).
const INSIDE = [
  { lat: 52.74, lon: -0.91, value: 1_000_000 },
  { lat: 52.76, lon: -0.89, value: 250_000 },
  { lat: 52.79, lon: -0.86, value: 500_000 },
];

async function finished(svc: TestService, key: string, path: string): Promise<any> {
  const until = Date.now() + 120_000;
  for (;;) {
    const run = await call(svc.urls.lab, 'GET', path, { key });
    assert.equal(run.status, 200, run.text);
    if (run.body.status === 'succeeded' || run.body.status === 'failed') return run.body;
    assert.ok(Date.now() < until, 'run did not finish');
    await new Promise((r) => setTimeout(r, 50));
  }
}

eachDialect('GET /models lists the windstorm lane with its revision, pinned inputs and caps', async (dialect) => {
  const svc = await startService(dialect);
  try {
    const { key } = await signup(svc.api);
    const models = await call(svc.urls.lab, 'GET', '/models', { key });
    assert.equal(models.status, 200);
    const model = models.body.models.find((m: any) => m.id === MODEL);
    assert.match(model.version, /-r3$/);
    const manifest = manifestOf('oasis-piwind');
    assert.equal(model.pinned_inputs.files.length, manifest.files.length);
    for (const f of manifest.files) assert.equal(model.pinned_inputs.files.find((x: any) => x.name === f.name).sha256, f.sha256);
    assert.deepEqual(model.caps.footprint, { min_lat: 52.734, max_lat: 52.795, min_lon: -0.918, max_lon: -0.857 });
    assert.equal((await call(svc.urls.lab, 'GET', '/models')).status, 401);
  } finally {
    await svc.close();
  }
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
    const done = await finished(svc, key, `/runs/${first.body.id}`);
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
  const svc = await startService(dialect);
  try {
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
    const done = await finished(svc, key, `/runs/${run.body.id}`);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
    assert.ok(done.result.metrics.average_annual_loss.mean > 0);
    assert.equal(done.result.unmodeled.count, 1, 'London is outside the footprint');
    assert.equal(done.result.exposure.places, 3);

    // No place inside: succeeds, every place unmodeled, no loss figure.
    const outside = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, samples: 0, exposure: { points: [{ lat: 51.5, lon: -0.12, value: 1 }] } } });
    const none = await finished(svc, key, `/runs/${outside.body.id}`);
    assert.equal(none.status, 'succeeded');
    assert.equal(none.result.unmodeled.count, 1);
    assert.equal(none.result.metrics, null);
  } finally {
    await svc.close();
  }
});

eachDialect('lab refusals, metering after cancellation, tenancy', async (dialect) => {
  const svc = await startService(dialect);
  try {
    const a = await signup(svc.api);
    const b = await signup(svc.api);
    const cases: Array<[unknown, number, string]> = [
      [{ model: 'nope', samples: 0, exposure: { points: INSIDE } }, 422, 'invalid_request'],
      [{ model: MODEL, samples: -1, exposure: { points: INSIDE } }, 422, 'invalid_request'],
      [{ model: MODEL, samples: 0, exposure: { points: INSIDE }, colour: 'red' }, 422, 'invalid_request'],
      [{ model: MODEL, samples: 0, exposure: { points: INSIDE }, terms: { reinsurance: { layers: [{ attachment: 0, limit: 1 }, { attachment: 1, limit: 1 }, { attachment: 2, limit: 1 }, { attachment: 3, limit: 1 }] } } }, 422, 'invalid_request'],
      [{ model: MODEL, samples: 0, exposure: { object_id: 'obj_000000000000000000000000' } }, 404, 'not_found'],
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
  } finally {
    await svc.close();
  }
});
