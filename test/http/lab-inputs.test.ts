// POST/GET {lab_url}/inputs: CLIMADA's own demo files (the pinned climada-demo-tc) stored and
// summarised, content-addressed, owned per account, listed; every refusal with its status and code.
import assert from 'node:assert/strict';
import { call, eachDialect, envelopeFaults, sharedService, signup } from '../support/service.js';
import { rawFile } from '../support/feeds.js';
import { inputForm } from '../support/lab-inputs.js';

const DEMO = 'climada-demo-tc';


eachDialect('the demo files stored as inputs: 201 with their summaries, 200 again, readable and listed by their owner only', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const other = await signup(svc.api);
  const lab = svc.urls.lab;

  const hazard = await call(lab, 'POST', '/inputs', { key, raw: inputForm('climada-hazard', rawFile(DEMO, 'atl_prob_no_name.mat'), 'atl_prob_no_name.mat') });
  assert.equal(hazard.status, 201, hazard.text);
  assert.match(hazard.body.id, /^inp_[0-9a-f]{32}$/);
  assert.equal(hazard.headers.get('location'), `/inputs/${hazard.body.id}`);
  assert.equal(hazard.body.kind, 'climada-hazard');
  assert.equal(hazard.body.bytes, rawFile(DEMO, 'atl_prob_no_name.mat').byteLength);
  assert.match(hazard.body.sha256, /^[0-9a-f]{64}$/);
  assert.equal(hazard.body.summary.events, 14450);
  assert.equal(hazard.body.summary.centroids, 100);
  assert.equal(hazard.body.summary.haz_type, 'TC');
  assert.equal(hazard.body.summary.units, 'm/s');

  const h5 = await call(lab, 'POST', '/inputs', { key, raw: inputForm('climada-hazard', rawFile(DEMO, 'tc_fl_1990_2004.h5')) });
  assert.equal(h5.status, 201, h5.text);
  assert.equal(h5.body.summary.events, 216);
  assert.equal(h5.body.summary.centroids, 2500);
  assert.equal(h5.body.summary.fraction, 'stored');
  assert.equal(h5.body.summary.dates.first, '1990-07-22');

  const workbook = rawFile(DEMO, 'demo_today.xlsx');
  const exposures = await call(lab, 'POST', '/inputs', { key, raw: inputForm('climada-exposures', workbook) });
  assert.equal(exposures.status, 201, exposures.text);
  assert.equal(exposures.body.summary.points, 50);
  const h5Exposures = await call(lab, 'POST', '/inputs', { key, raw: inputForm('climada-exposures', rawFile(DEMO, 'exp_demo_today.h5')) });
  assert.equal(h5Exposures.status, 201, h5Exposures.text);
  assert.equal(h5Exposures.body.summary.points, 50);
  assert.equal(h5Exposures.body.summary.value_unit, 'USD');
  // CLIMADA's test_calc_impact_TC_pass: tot_value 6.570532945599105e11 over the 50 demo exposures.
  assert.ok(Math.abs(h5Exposures.body.summary.total_value - 6.570532945599105e11) / 6.570532945599105e11 < 1e-12);
  const functions = await call(lab, 'POST', '/inputs', { key, raw: inputForm('climada-impact-functions', workbook) });
  assert.equal(functions.status, 201, functions.text);
  assert.ok(functions.body.summary.functions.some((f: { haz_type: string; id: number }) => f.haz_type === 'TC' && f.id === 1));

  // The same kind and bytes: the same input, 200; from another account, the same id, 201 for it.
  const again = await call(lab, 'POST', '/inputs', { key, raw: inputForm('climada-hazard', rawFile(DEMO, 'atl_prob_no_name.mat')) });
  assert.equal(again.status, 200);
  assert.deepEqual(again.body, hazard.body);

  const read = await call(lab, 'GET', `/inputs/${hazard.body.id}`, { key });
  assert.equal(read.status, 200);
  assert.deepEqual(read.body, hazard.body);
  const notTheirs = await call(lab, 'GET', `/inputs/${hazard.body.id}`, { key: other.key });
  assert.equal(notTheirs.status, 404);
  assert.equal(notTheirs.body.error.code, 'not_found');
  assert.deepEqual(envelopeFaults(notTheirs), []);

  // Newest first by when the key brought each (uploads in one millisecond fall back on the id): every input once over the pages.
  const ids: string[] = [];
  let page = '/inputs?limit=2';
  for (;;) {
    const list = await call(lab, 'GET', page, { key });
    assert.equal(list.status, 200);
    assert.ok(list.body.inputs.length <= 2);
    ids.push(...list.body.inputs.map((i: { id: string }) => i.id));
    if (list.body.page.next === null) break;
    page = list.body.page.next;
  }
  assert.deepEqual(ids.sort(), [hazard, h5, exposures, h5Exposures, functions].map((a) => a.body.id as string).sort());
  const hazards = await call(lab, 'GET', '/inputs?kind=climada-hazard', { key });
  assert.deepEqual(hazards.body.inputs.map((i: { id: string }) => i.id).sort(), [h5.body.id, hazard.body.id].sort());
  const none = await call(lab, 'GET', '/inputs', { key: other.key });
  assert.deepEqual(none.body.inputs, []);

  const theirs = await call(lab, 'POST', '/inputs', { key: other.key, raw: inputForm('climada-hazard', rawFile(DEMO, 'atl_prob_no_name.mat')) });
  assert.equal(theirs.status, 201);
  assert.equal(theirs.body.id, hazard.body.id);
});

eachDialect('input refusals: 401, 415, 422 for a form, kind or file that does not read (naming it), 413 past 64 MB; nothing stored', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const lab = svc.urls.lab;
  const csv = 'latitude,longitude,value\n26.9,-80.1,1000\n';

  const noKey = await call(lab, 'POST', '/inputs', { raw: inputForm('climada-exposures', csv) });
  assert.equal(noKey.status, 401);
  const json = await call(lab, 'POST', '/inputs', { key, body: { kind: 'climada-exposures' } });
  assert.equal(json.status, 415);
  assert.equal(json.body.error.code, 'unsupported_media_type');

  const cases: [string, FormData, RegExp][] = [
    ['no kind', inputForm(undefined, csv), /no part named kind/],
    ['unknown kind', inputForm('climada-vulnerability', csv), /unknown kind "climada-vulnerability"/],
    ['no file', inputForm('climada-exposures', undefined), /no part named file/],
    ['unknown part', inputForm('climada-exposures', csv, 'e.csv', { currency: 'USD' }), /unknown part "currency"/],
    // Hand-made unreadable files, built here: a CSV without a value column, a text where HDF5 is read, a non-number.
    ['no value column', inputForm('climada-exposures', 'latitude,longitude\n1,2\n'), /no column value/],
    ['not HDF5', inputForm('climada-hazard', csv), /not an HDF5 file/],
    ['not a number', inputForm('climada-exposures', 'latitude,longitude,value\n1,2,lots\n'), /row 1 value: not a number \(lots\)/],
    ['descending curve', inputForm('climada-impact-functions', 'impact_fun_id,intensity,mdd,paa,peril_id\n1,10,0,1,TC\n1,5,0.5,1,TC\n'), /intensities do not ascend/],
  ];
  for (const [what, body, words] of cases) {
    const refused = await call(lab, 'POST', '/inputs', { key, raw: body });
    assert.equal(refused.status, 422, what);
    assert.equal(refused.body.error.code, 'invalid_request', what);
    assert.match(refused.body.error.message, words, what);
    assert.deepEqual(envelopeFaults(refused), [], what);
  }

  const big = new Uint8Array(64_000_001).fill(0x41);
  const tooLarge = await call(lab, 'POST', '/inputs', { key, raw: inputForm('climada-exposures', big) });
  assert.equal(tooLarge.status, 413);
  assert.equal(tooLarge.body.error.code, 'payload_too_large');
  assert.match(tooLarge.body.error.message, /64 MB/);

  const rows = await svc.services.database.db.selectFrom('lab_inputs').select('id').execute();
  const owned = await svc.services.database.db.selectFrom('lab_input_owners').selectAll().execute();
  assert.equal(owned.filter((o) => rows.some((r) => r.id === o.input_id)).length, owned.length);
  const list = await call(lab, 'GET', '/inputs', { key });
  assert.deepEqual(list.body.inputs, []);
});
