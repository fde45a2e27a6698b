// POST {lab_url}/inputs for an OpenQuake user's files: OpenQuake's scenario_risk case_1 exposure,
// vulnerability and ground-motion fields (gmf_data.csv with its sites.csv, two parts of one
// input) stored with their summaries; each unreadable file refused 422 naming what did not read.
import assert from 'node:assert/strict';
import { call, eachDialect, envelopeFaults, sharedService, signup } from '../support/service.js';
import { CASE1_EXPOSURE, CASE1_GMFS, CASE1_SITES, CASE1_VULNERABILITY } from '../support/openquake-case1.js';

/** A form of kind and one file part. */
function inputForm(kind: string, file: Uint8Array | string, filename = 'input.xml'): FormData {
  const data = new FormData();
  data.append('kind', kind);
  data.append('file', new Blob([file]), filename);
  return data;
}

function gmfForm(gmf: string | undefined, sites: string | undefined): FormData {
  const data = new FormData();
  data.append('kind', 'oq-gmfs');
  if (gmf !== undefined) data.append('file', new Blob([gmf]), 'gmf_data.csv');
  if (sites !== undefined) data.append('sites', new Blob([sites]), 'sites.csv');
  return data;
}

eachDialect('OpenQuake\'s case_1 files stored as oq-exposure, oq-vulnerability and oq-gmfs inputs, with their summaries', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const lab = svc.urls.lab;
  const exposure = await call(lab, 'POST', '/inputs', { key, raw: inputForm('oq-exposure', CASE1_EXPOSURE, 'exposure_model.xml') });
  assert.equal(exposure.status, 201, exposure.text);
  assert.equal(exposure.body.kind, 'oq-exposure');
  assert.deepEqual(
    { nrml: exposure.body.summary.nrml, assets: exposure.body.summary.assets, cost_types: exposure.body.summary.cost_types, stated_values: exposure.body.summary.stated_values, insured: exposure.body.summary.insured },
    { nrml: '0.4', assets: 1, cost_types: [{ name: 'structural', type: 'aggregated', unit: 'USD' }], stated_values: { structural: 2000 }, insured: true },
  );
  const vulnerability = await call(lab, 'POST', '/inputs', { key, raw: inputForm('oq-vulnerability', CASE1_VULNERABILITY, 'vulnerability.xml') });
  assert.equal(vulnerability.status, 201, vulnerability.text);
  assert.equal(vulnerability.body.summary.functions, 2);
  assert.deepEqual(vulnerability.body.summary.imts, ['PGA']);
  assert.equal(vulnerability.body.summary.uncertain, false);
  const gmfs = await call(lab, 'POST', '/inputs', { key, raw: gmfForm(CASE1_GMFS, CASE1_SITES) });
  assert.equal(gmfs.status, 201, gmfs.text);
  assert.deepEqual(gmfs.body.files.map((f: { part: string }) => f.part), ['file', 'sites']);
  assert.equal(gmfs.body.summary.sites, 1);
  assert.equal(gmfs.body.summary.events, 10);
  assert.deepEqual(gmfs.body.summary.ranges, { PGA: { min: 0.24184512, max: 0.60403156 } });
});

eachDialect('OpenQuake inputs that do not read: 422 naming what could not be read, a missing sites part named', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const lab = svc.urls.lab;
  const cases: [string, FormData, RegExp][] = [
    ['no sites part', gmfForm(CASE1_GMFS, undefined), /no part named sites \(a oq-gmfs input takes file, sites\)/],
    ['a site not in sites.csv', gmfForm('sid,eid,gmv_PGA\n3,0,0.1\n', CASE1_SITES), /gmf_data.csv line 2: site 3 is not in sites.csv/],
    // Hand-made unreadable documents, written here.
    ['not NRML', inputForm('oq-exposure', '<exposureModel/>'), /The oq-exposure input could not be read: not an NRML document/],
    ['a beta CoV too wide', inputForm('oq-vulnerability', CASE1_VULNERABILITY.replace('dist="LN" id="RC"', 'dist="BT" id="RC"').replace(/0\.0000E\+00 0\.0000E\+00 0\.0000E\+00 0\.0000E\+00 0\.0000E\+00/, '5 5 5 5 5')), /vulnerability function RC: the beta CoV 5 at mean 0.07 breaks/],
    ['not UTF-8', inputForm('oq-exposure', new Uint8Array([0xff, 0xfe, 0x00, 0xd8])), /the file part is not UTF-8 text/],
  ];
  for (const [what, body, words] of cases) {
    const refused = await call(lab, 'POST', '/inputs', { key, raw: body });
    assert.equal(refused.status, 422, what);
    assert.equal(refused.body.error.code, 'invalid_request', what);
    assert.match(refused.body.error.message, words, what);
    assert.deepEqual(envelopeFaults(refused), [], what);
  }
  const list = await call(lab, 'GET', '/inputs', { key });
  assert.deepEqual(list.body.inputs, []);
});
