// POST /ingest: every row of SPEC's ingest fault table at the exact place it is answered,
// the job lifecycle, metering and cancellation.
import assert from 'node:assert/strict';
import { call, eachDialect, envelopeFaults, sharedService, signup, USER_AGENT, waitForJob } from '../support/service.js';
import { form, smallSchedule } from '../support/schedules.js';
import { head, rawRequest } from '../support/raw-http.js';

const USER_AGENT_LINE = `User-Agent: ${USER_AGENT}`;
import { riskObjectViolations } from '../../src/schemas.js';

eachDialect('ingest refusals answered on the request', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key, accountId } = await signup(svc.api);
  const csv = smallSchedule();

  const noKey = await call(svc.api, 'POST', '/ingest', { raw: form(csv, { type: 'text/csv' }) });
  assert.equal(noKey.status, 401);
  assert.equal(noKey.body.error.code, 'unauthenticated');

  const wholeBody = await call(svc.api, 'POST', '/ingest', { key, raw: csv, headers: { 'content-type': 'text/csv' } });
  assert.equal(wholeBody.status, 415);
  assert.equal(wholeBody.body.error.code, 'unsupported_media_type');
  const json = await call(svc.api, 'POST', '/ingest', { key, body: { file: csv } });
  assert.equal(json.status, 415);

  const noFilePart = await call(svc.api, 'POST', '/ingest', { key, raw: form(csv, { name: 'schedule', type: 'text/csv' }) });
  assert.equal(noFilePart.status, 422);
  assert.equal(noFilePart.body.error.code, 'invalid_request');

  for (const type of ['image/png', 'application/pdf', 'application/zip', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']) {
    const refused = await call(svc.api, 'POST', '/ingest', { key, raw: form(csv, { type }) });
    assert.equal(refused.status, 415, type);
    assert.equal(refused.body.error.code, 'unsupported_media_type');
  }

  for (const currency of ['US', 'USDX', '12$', 'us d']) {
    const refused = await call(svc.api, 'POST', '/ingest', { key, raw: form(csv, { type: 'text/csv', currency }) });
    assert.equal(refused.status, 422, currency);
    assert.equal(refused.body.error.code, 'invalid_request');
  }

  const big = new Uint8Array(32 * 1024 * 1024 + 1).fill(0x41);
  const tooLarge = await call(svc.api, 'POST', '/ingest', { key, raw: form(big, { type: 'text/csv' }) });
  assert.equal(tooLarge.status, 413);
  assert.equal(tooLarge.body.error.code, 'payload_too_large');

  for (const a of [noKey, wholeBody, json, noFilePart, tooLarge]) assert.deepEqual(envelopeFaults(a), []);
  // None of these created a job or an object.
  const jobs = await svc.services.database.db.selectFrom('jobs').select('id').where('account_id', '=', accountId).execute();
  assert.equal(jobs.length, 0);
});

eachDialect('ingest lifecycle: 202 with Location, then a succeeded job with its objects', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const accepted = await call(svc.api, 'POST', '/ingest', { key, raw: form(smallSchedule(3), { type: 'text/csv; charset=utf-8', currency: 'usd', filename: 'book.csv' }) });
  assert.equal(accepted.status, 202, accepted.text);
  const location = accepted.headers.get('location')!;
  assert.match(location, /^\/jobs\/[0-9a-f-]{36}$/);
  assert.equal(accepted.body.links.self, location);
  assert.equal(accepted.body.verb, 'ingest');
  assert.ok(['queued', 'running', 'succeeded'].includes(accepted.body.status));
  assert.deepEqual(accepted.body.subject, { source: 'book.csv', declared_currency: 'usd', media_type: 'text/csv' });

  const job = await waitForJob(svc.api, key, location);
  assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
  assert.equal(job.result.objects.length, 1);
  const object = await call(svc.api, 'GET', job.result.objects[0].links.self, { key });
  assert.equal(object.status, 200);
  assert.equal(object.body.status, 'draft');
  assert.equal(object.body.exposure.currency, 'USD');
  assert.equal(object.body.exposure.locations.length, 3);
  assert.equal(object.body.provenance.source_files[0].name, 'book.csv');
  assert.equal(object.body.provenance.source_files[0].media_type, 'text/csv');

  const usage = await call(svc.api, 'GET', '/usage', { key });
  assert.equal(usage.body.units.objects, 1);
});

// A hand-made CEDE-style schedule in yen: the stored object (written as text off-thread) keeps whole
// yen, the time-element value as business interruption, the OED identifiers, and leaves its totals
// rows (labelled in the city column, and unlabelled) out of the locations.
eachDialect('a CEDE schedule in JPY with totals rows: whole yen, BI mapped, identifiers kept, totals disclosed', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const csv = [
    'ContractID,LocationID,LocationName,City,BuildingValue,ContentsValue,TimeElementValue',
    'K1,L1,本社,Tokyo,"1,000,000",200000.4,300000',
    'K1,L2,Depot,Osaka,500000,100000,0',
    ',,,Total,1500000,300000.4,300000',
    ',,,,1500000,300000.4,300000',
  ].join('\n');
  const accepted = await call(svc.api, 'POST', '/ingest', { key, raw: form(csv, { type: 'text/csv', currency: 'JPY' }) });
  assert.equal(accepted.status, 202, accepted.text);
  const job = await waitForJob(svc.api, key, accepted.headers.get('location')!);
  assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
  const object = await call(svc.api, 'GET', job.result.objects[0].links.self, { key });
  const exposure = object.body.exposure;
  assert.deepEqual(exposure.locations.map((l: { ref: string; values: unknown; oed: unknown }) => [l.ref, l.values, l.oed]), [
    ['L1', { buildings: '1000000', contents: '200000', business_interruption: '300000', total: '1500000' }, { AccNumber: 'K1', LocName: '本社' }],
    ['L2', { buildings: '500000', contents: '100000', business_interruption: '0', total: '600000' }, { AccNumber: 'K1', LocName: 'Depot' }],
  ]);
  assert.deepEqual(exposure.values, { buildings: '1500000', contents: '300000', business_interruption: '300000', total: '2100000' });
  assert.deepEqual(exposure.source_fidelity.totals_rows.map((t: { row: number; label: string | null; matched: boolean }) => [t.row, t.label, t.matched]), [[4, 'Total', true], [5, null, true]]);
  assert.deepEqual(riskObjectViolations(object.body), []);
});

eachDialect('octet-stream or no part type is read and nothing is recorded', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  for (const type of ['application/octet-stream', undefined]) {
    const accepted = await call(svc.api, 'POST', '/ingest', { key, raw: form(smallSchedule(1), { type }) });
    assert.equal(accepted.status, 202, accepted.text);
    assert.equal(accepted.body.subject.media_type, undefined);
    const job = await waitForJob(svc.api, key, accepted.headers.get('location')!);
    assert.equal(job.status, 'succeeded');
  }
});

eachDialect('faults found by reading fail the job; GET on a failed job answers 200', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key, accountId } = await signup(svc.api);
  const binary = new Uint8Array(4096).map((_, i) => (i * 131 + 7) % 256);
  const unreadable = await call(svc.api, 'POST', '/ingest', { key, raw: form(binary, { type: 'application/octet-stream' }) });
  assert.equal(unreadable.status, 202);
  const failed = await waitForJob(svc.api, key, unreadable.headers.get('location')!);
  assert.equal(failed.status, 'failed');
  assert.equal(failed.error.status, 415);
  assert.equal(failed.error.code, 'unsupported_source');
  assert.equal(failed.result, undefined);

  const conflict = await call(svc.api, 'POST', '/ingest', {
    key, raw: form('Ref,Lat,Long,TIV\nA,1,2,EUR 1000000\n', { type: 'text/csv', currency: 'USD' }),
  });
  const conflicted = await waitForJob(svc.api, key, conflict.headers.get('location')!);
  assert.equal(conflicted.status, 'failed');
  assert.equal(conflicted.error.status, 422);
  assert.equal(conflicted.error.code, 'currency_conflict');
  assert.match(conflicted.error.message, /EUR/);
  assert.match(conflicted.error.message, /USD/);

  const objects = await svc.services.database.db.selectFrom('objects').select('id').where('account_id', '=', accountId).execute();
  assert.equal(objects.length, 0, 'no object stored for a failed ingest');
  const usage = await call(svc.api, 'GET', '/usage', { key });
  assert.equal(usage.body.units.total, 0);
});

eachDialect('cancellation: metered verbs answer 402, usage stays readable with a final invoice', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const first = await call(svc.api, 'POST', '/ingest', { key, raw: form(smallSchedule(1), { type: 'text/csv' }) });
  await waitForJob(svc.api, key, first.headers.get('location')!);

  const cancelled = await call(svc.api, 'DELETE', '/subscription', { key });
  assert.equal(cancelled.status, 200);
  assert.equal(cancelled.body.status, 'cancelled');
  assert.equal(cancelled.body.final_invoice.units.objects, 1);

  const refused = await call(svc.api, 'POST', '/ingest', { key, raw: form(smallSchedule(1), { type: 'text/csv' }) });
  assert.equal(refused.status, 402);
  assert.equal(refused.body.error.code, 'account_cancelled');
  assert.deepEqual(envelopeFaults(refused), []);

  const usage = await call(svc.api, 'GET', '/usage', { key });
  assert.equal(usage.status, 200);
  assert.equal(usage.body.metering, 'stopped');
  assert.equal(usage.body.units.objects, 1);
  assert.equal(usage.body.final_invoice.units.total, 1);
  // Reads still work; the account says it is cancelled.
  assert.equal((await call(svc.api, 'GET', '/account', { key })).body.status, 'cancelled');
  // Cancelling again is not an error and changes nothing.
  assert.equal((await call(svc.api, 'DELETE', '/subscription', { key })).body.final_invoice.issued_at, cancelled.body.final_invoice.issued_at);
});

eachDialect('tenancy: another account\'s job, object and usage answer 404 or show nothing', async (dialect) => {
  const svc = await sharedService(dialect);
  const a = await signup(svc.api);
  const b = await signup(svc.api);
  const accepted = await call(svc.api, 'POST', '/ingest', { key: a.key, raw: form(smallSchedule(1), { type: 'text/csv' }) });
  const job = await waitForJob(svc.api, a.key, accepted.headers.get('location')!);
  const objectPath = job.result.objects[0].links.self;
  for (const path of [accepted.headers.get('location')!, objectPath]) {
    const other = await call(svc.api, 'GET', path, { key: b.key });
    assert.equal(other.status, 404, path);
    assert.equal(other.body.error.code, 'not_found');
  }
  assert.equal((await call(svc.api, 'GET', '/usage', { key: b.key })).body.units.total, 0);
  assert.equal((await call(svc.api, 'GET', '/account', { key: b.key })).body.id, b.accountId);
});

eachDialect('the ingest limit is 32 MB in decimal bytes: 32,000,000 is read, 32,000,001 is 413', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  // Hand-made bytes: a header line, then filler to the exact size.
  const file = (size: number) => {
    const bytes = new Uint8Array(size).fill(0x41);
    bytes.set(new TextEncoder().encode('Location ID,Latitude,Longitude,Building Value\n'));
    return bytes;
  };
  const atLimit = await call(svc.api, 'POST', '/ingest', { key, raw: form(file(32_000_000), { type: 'text/csv' }) });
  assert.equal(atLimit.status, 202, atLimit.text);
  const over = await call(svc.api, 'POST', '/ingest', { key, raw: form(file(32_000_001), { type: 'text/csv' }) });
  assert.equal(over.status, 413, over.text);
  assert.equal(over.body.error.code, 'payload_too_large');
  assert.match(over.body.error.message, /32,000,000 bytes/);
  assert.deepEqual(envelopeFaults(over), []);
});

eachDialect('a body that is not multipart is told to send multipart/form-data with a file part', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  for (const type of ['text/csv', 'application/octet-stream', 'application/x-ndjson', 'application/json', 'text/plain']) {
    const raw = type === 'application/json' ? '{"file":"x"}' : smallSchedule();
    const refused = await call(svc.api, 'POST', '/ingest', { key, raw, headers: { 'content-type': type } });
    assert.equal(refused.status, 415, `${type}: ${refused.text}`);
    assert.equal(refused.body.error.code, 'unsupported_media_type');
    assert.match(refused.body.error.message, /multipart\/form-data/, type);
    assert.match(refused.body.error.message, /part named file/, type);
    assert.doesNotMatch(refused.body.error.message, /application\/json/, type);
    assert.deepEqual(envelopeFaults(refused), []);
  }
});

eachDialect('a form that cannot be read is refused 400 on the request, naming what is wrong with it', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const type = 'multipart/form-data; boundary=XyZ';
  const file = 'Content-Disposition: form-data; name="file"; filename="s.csv"\r\nContent-Type: text/csv\r\n\r\nref\r\n';
  const cases: ReadonlyArray<readonly [string, string]> = [
    ['no boundary here', 'no boundary line'],
    ['--XyZ junk', 'a boundary line is not followed by a line break'],
    ['--XyZ\r\nContent-Disposition: form-data; name="file"', 'a part has no end to its headers'],
    [`--XyZ\r\n${file}`, 'the closing boundary is missing'],
    ['--XyZ\r\nContent-Disposition: form-data\r\n\r\nx\r\n--XyZ--\r\n', 'a part has no name in its Content-Disposition'],
  ];
  for (const [raw, why] of cases) {
    // With an Idempotency-Key too: the form's fingerprint falls back to its bytes.
    for (const headers of [{ 'content-type': type }, { 'content-type': type, 'idempotency-key': `malformed-${why.length}-${dialect}` }] as Array<Record<string, string>>) {
      const refused = await call(svc.api, 'POST', '/ingest', { key, raw, headers });
      assert.equal(refused.status, 400, `${why}: ${refused.text}`);
      assert.deepEqual(refused.body.error, { status: 400, code: 'invalid_request', message: `The multipart body could not be read: ${why}.` });
      assert.deepEqual(envelopeFaults(refused), []);
    }
  }
  // The same framing, closed, is read.
  const read = await call(svc.api, 'POST', '/ingest', { key, raw: `--XyZ\r\n${file}--XyZ--\r\n`, headers: { 'content-type': type } });
  assert.equal(read.status, 202, read.text);
});

eachDialect('JSON Lines nested thousands of levels deep fail the job 415 unsupported_source', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  // Hand-made: one flat row, then a row whose value nests 50,000 levels.
  const deep = `{"Location ID":"L1","Latitude":34.1,"Longitude":-118.2,"Building Value":1000}\n{"Location ID":"L2","x":${'['.repeat(50_000)}${']'.repeat(50_000)}}\n`;
  const accepted = await call(svc.api, 'POST', '/ingest', { key, raw: form(deep, { type: 'application/x-ndjson', filename: 'deep.jsonl', currency: 'USD' }) });
  assert.equal(accepted.status, 202, accepted.text);
  const job = await waitForJob(svc.api, key, accepted.headers.get('location')!);
  assert.equal(job.status, 'failed');
  assert.equal(job.error.status, 415);
  assert.equal(job.error.code, 'unsupported_source');
  assert.match(job.error.message, /line 2/);
});

eachDialect('a body sent chunked, without Content-Length, is read the same; past the limit it is 413', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const chunked = async (data: FormData) => {
    // The form's exact bytes, then sent as a stream: fetch then frames it chunked.
    const framed = new Request('http://localhost/', { method: 'POST', body: data });
    const bytes = new Uint8Array(await framed.arrayBuffer());
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 256 * 1024) controller.enqueue(bytes.slice(at, at + 256 * 1024));
        controller.close();
      },
    });
    const response = await fetch(`${svc.api}/ingest`, {
      method: 'POST', body, duplex: 'half',
      headers: { 'user-agent': USER_AGENT, authorization: `Bearer ${key}`, 'content-type': framed.headers.get('content-type')! },
    } as RequestInit);
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
  };
  const csv = smallSchedule(5);
  const accepted = await chunked(form(csv, { type: 'text/csv', currency: 'EUR' }));
  assert.equal(accepted.status, 202, accepted.text);
  const job = await waitForJob(svc.api, key, accepted.headers.get('location')!);
  assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
  const object = await call(svc.api, 'GET', job.result.objects[0].links.self, { key });
  assert.equal(object.body.exposure.locations.length, 5);
  assert.equal(object.body.exposure.currency, 'EUR');

  const over = await chunked(form(new Uint8Array(34_000_000).fill(0x41), { type: 'text/csv' }));
  assert.equal(over.status, 413, over.text);
  assert.equal(over.body.error.code, 'payload_too_large');
  assert.deepEqual(envelopeFaults(over), []);
});

eachDialect('a body declared far past the limit is refused 413 at once, before a byte of it arrives; one a little over is read to its end first, so its sender reads the answer', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const lines = (length: number) => [USER_AGENT_LINE, `Authorization: Bearer ${key}`, 'Content-Type: multipart/form-data; boundary=x', `Content-Length: ${length}`];
  // 10 GB declared, none of it sent: answered without waiting for the body.
  const far = await rawRequest(svc.api, [head('POST /ingest HTTP/1.1', ...lines(10_000_000_000))], 5_000);
  assert.equal(far.status, 413, far.text);
  assert.equal(far.body.error.code, 'payload_too_large');
  assert.equal(far.headers.connection, 'close');
  // 40 MB declared and sent in pieces: the answer comes once the last piece is in, on an open socket.
  const piece = Buffer.alloc(4_000_000, 0x41);
  const pieces: Array<string | Buffer | { waitMs: number }> = [head('POST /ingest HTTP/1.1', ...lines(40_000_000))];
  for (let i = 0; i < 10; i += 1) pieces.push({ waitMs: 40 }, piece);
  const sending = Date.now();
  const near = await rawRequest(svc.api, pieces, 20_000);
  // Not before the last piece was sent (ten waits of 40 ms): the body was read, not cut off.
  assert.ok(Date.now() - sending >= 400, `answered after ${Date.now() - sending} ms`);
  assert.equal(near.status, 413, near.text);
  assert.equal(near.body.error.code, 'payload_too_large');
  assert.match(near.body.error.message, /40000000 bytes/);
});
