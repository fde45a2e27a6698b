// POST /ingest with an OED set: the location file with its account, ri_info and ri_scope parts. The
// set is test/fixtures/oed/reinsurance1 (rows of oasislmf's published validation case, see its
// README); the one column "BrokerNote" is added here by hand to check that a column that is no OED
// field is still disclosed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { call, eachDialect, sharedService, signup, waitForJob } from '../support/service.js';
import { smallSchedule } from '../support/schedules.js';
import { riskObjectViolations } from '../../src/schemas.js';

const FIXTURE = new URL('../fixtures/oed/reinsurance1/', import.meta.url);
const file = (name: string) => readFileSync(new URL(name, FIXTURE), 'utf8');

function oedForm(parts: Record<string, string>, types: Record<string, string> = {}): FormData {
  const data = new FormData();
  for (const [name, text] of Object.entries(parts)) data.append(name, new Blob([text], { type: types[name] ?? 'text/csv' }), `${name}.csv`);
  return data;
}

/** The fixture's fields OED types as text (varchar, nvarchar, char in OEDInputFields.csv); the others are numbers. */
const TEXT_FIELDS = new Set(['PortNumber', 'AccNumber', 'LocNumber', 'LocPerilsCovered', 'CondTag', 'LocGroup']);

function withBrokerNote(csv: string): string {
  const [head, ...rows] = csv.trimEnd().split('\n');
  return [`${head},BrokerNote`, ...rows.map((r, i) => `${r},note ${i + 1}`)].join('\n') + '\n';
}

eachDialect('ingest of an OED set: refusals on the request', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const loc = file('location.csv');
  const lone = await call(svc.api, 'POST', '/ingest', { key, raw: oedForm({ file: loc, ri_info: file('ri_info.csv') }) });
  assert.equal(lone.status, 422);
  assert.equal(lone.body.error.code, 'invalid_request');
  assert.match(lone.body.error.message, /ri_info and ri_scope are sent together/);
  const twice = new FormData();
  twice.append('file', new Blob([loc], { type: 'text/csv' }), 'loc.csv');
  twice.append('account', new Blob([file('account.csv')], { type: 'text/csv' }), 'a.csv');
  twice.append('account', new Blob([file('account.csv')], { type: 'text/csv' }), 'b.csv');
  const dup = await call(svc.api, 'POST', '/ingest', { key, raw: twice });
  assert.equal(dup.status, 422);
  assert.equal(dup.body.error.code, 'invalid_request');
  const png = await call(svc.api, 'POST', '/ingest', { key, raw: oedForm({ file: loc, account: file('account.csv') }, { account: 'image/png' }) });
  assert.equal(png.status, 415);
  assert.equal(png.body.error.code, 'unsupported_media_type');
});

eachDialect('ingest of an OED set keeps every field of every file, verbatim', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const accepted = await call(svc.api, 'POST', '/ingest', {
    key,
    raw: oedForm({ file: withBrokerNote(file('location.csv')), account: file('account.csv'), ri_info: file('ri_info.csv'), ri_scope: file('ri_scope.csv') }),
  });
  assert.equal(accepted.status, 202, accepted.text);
  assert.deepEqual(accepted.body.subject.oed_parts, { account: 'account.csv', ri_info: 'ri_info.csv', ri_scope: 'ri_scope.csv' });
  const job = await waitForJob(svc.api, key, accepted.headers.get('location')!);
  assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
  const object = (await call(svc.api, 'GET', job.result.objects[0].links.self, { key })).body;
  assert.deepEqual(riskObjectViolations(object), []);

  const locRows = file('location.csv').trimEnd().split('\n');
  const header = locRows[0]!.split(',');
  assert.equal(object.exposure.locations.length, locRows.length - 1);
  // Every cell with a value, under its OED name, numbers as numbers.
  object.exposure.locations.forEach((l: { oed: Record<string, unknown> }, i: number) => {
    const cells = locRows[i + 1]!.split(',');
    const expected = Object.fromEntries(header.map((h, j) => [h, cells[j]!]).filter(([, v]) => v !== '').map(([h, v]) => [h, TEXT_FIELDS.has(h!) ? v : Number(v)]));
    assert.deepEqual(l.oed, expected);
  });
  assert.equal(object.oed.version, null);
  assert.equal(object.oed.accounts.length, file('account.csv').trimEnd().split('\n').length - 1);
  assert.equal(object.oed.ri_info.length, 4);
  assert.equal(object.oed.ri_scope.length, 9);
  assert.deepEqual(object.oed.ri_info.find((r: Record<string, unknown>) => r.ReinsNumber === 107), {
    ReinsNumber: 107, CededPercent: 0.2, RiskLimit: 0, RiskAttachment: 0, OccLimit: 1500000, OccAttachment: 1000000,
    PlacedPercent: 1, InuringPriority: 1, ReinsType: 'CXL', RiskLevel: 'ACC',
  });
  assert.deepEqual(object.oed.ri_scope.filter((r: Record<string, unknown>) => r.ReinsNumber === 2).map((r: Record<string, unknown>) => r.CededPercent), [0.1, 0.2]);
  // Fidelity: the OED fields are kept, so only the hand-added column is unmapped.
  assert.deepEqual(object.exposure.source_fidelity.unmapped_columns.map((c: { column: string }) => c.column), ['BrokerNote']);
  assert.deepEqual(object.provenance.source_files.map((f: { name: string }) => f.name), ['file.csv', 'account.csv', 'ri_info.csv', 'ri_scope.csv']);
});

eachDialect('a broker schedule that is not OED has no oed member', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const accepted = await call(svc.api, 'POST', '/ingest', { key, raw: oedForm({ file: smallSchedule(2) }) });
  const job = await waitForJob(svc.api, key, accepted.headers.get('location')!);
  const object = (await call(svc.api, 'GET', job.result.objects[0].links.self, { key })).body;
  assert.equal('oed' in object, false);
});
