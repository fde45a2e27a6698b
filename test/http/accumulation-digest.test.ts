// POST /accumulation over the location digests, through the service with its compute threads: an
// ingested schedule (generated here, not real exposure) gets the digest of its stored document
// from the ingest's thread (without H3 cells, which the first accumulation computes and stores), and
// the answer over it and a posted object, before and after a PATCH, is exactly the one recomputed
// from the stored JSON the way it was before digests.
import assert from 'node:assert/strict';
import { digestOfDocument, readDigest, withCells } from '../../src/domain/accumulation/digest.js';
import { canonicalJson } from '../../src/kernel/canonical-json.js';
import { accumulatedFromJson, figuresOf } from '../support/accumulation-reference.js';
import { EXPOSURE } from '../support/objects.js';
import { form, largeSchedule } from '../support/schedules.js';
import { call, eachDialect, sharedService, signup, waitForJob } from '../support/service.js';

eachDialect('accumulation over digests made by ingest, POST /objects and PATCH answers what the stored JSON gives', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key, accountId } = await signup(svc.api);
  const accepted = await call(svc.api, 'POST', '/ingest', { key, raw: form(largeSchedule(2500), { type: 'text/csv', currency: 'USD' }) });
  assert.equal(accepted.status, 202, accepted.text);
  const ingested = (await waitForJob(svc.api, key, accepted.headers.get('location')!)).result.objects[0].id as string;
  const stored = await svc.services.objects.get(ingested, accountId);
  const digests = await svc.services.objects.digests([ingested], accountId);
  assert.equal(digests.get(ingested)?.version, 1);
  assert.deepEqual(Buffer.from(digests.get(ingested)!.bytes), Buffer.from(digestOfDocument(stored!)), 'the ingest thread\'s digest is that of the stored document');
  assert.equal(readDigest(digests.get(ingested)!.bytes).cells, null, 'an ingest writes a digest without cells');

  const posted = await call(svc.api, 'POST', '/objects', { key, body: { peril: { code: 'earthquake' }, exposure: EXPOSURE } });
  assert.equal(posted.status, 201, posted.text);
  const ids = [ingested, posted.body.id as string];
  const same = async (label: string) => {
    const answer = await call(svc.api, 'POST', '/accumulation', { key, body: { objects: ids } });
    assert.equal(answer.status, 200, answer.text.slice(0, 300));
    assert.equal(canonicalJson(figuresOf(answer.body)), canonicalJson(await accumulatedFromJson(svc.services, accountId, ids)), label);
    return answer.body;
  };
  const before = await same('as written');
  assert.equal(before.totals.locations, 2501);
  const completed = (await svc.services.objects.digests([ingested], accountId)).get(ingested)!;
  assert.equal(completed.version, 1);
  assert.deepEqual(Buffer.from(completed.bytes), Buffer.from(withCells(digestOfDocument(stored!))!), 'the first accumulation stored the cells');
  await same('with the stored cells');
  const patched = await call(svc.api, 'PATCH', `/objects/${ids[1]}`, { key, body: { peril: { code: 'flood', region: { type: 'box', min_latitude: 34, max_latitude: 34.1, min_longitude: -118.3, max_longitude: -118.2 } } } });
  assert.equal(patched.status, 200, patched.text);
  const after = await same('after a PATCH');
  assert.equal(after.objects[1].peril, 'flood');
  assert.equal(after.regions.length, 1);
});
