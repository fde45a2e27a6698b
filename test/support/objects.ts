// Objects made and priced over HTTP, as the HTTP tests need them.
import assert from 'node:assert/strict';
import { call, waitForJob, type TestService } from './service.js';
import { form, smallSchedule } from './schedules.js';

/** Ingests a two-location schedule and answers the created object's path. */
export async function ingestedObject(svc: TestService, key: string): Promise<string> {
  const accepted = await call(svc.api, 'POST', '/ingest', { key, raw: form(smallSchedule(2), { type: 'text/csv', currency: 'USD' }) });
  return (await waitForJob(svc.api, key, accepted.headers.get('location')!)).result.objects[0].links.self;
}

/** POST {object}/price with an empty body; answers the finished job. */
export async function priceObject(svc: TestService, key: string, objectPath: string) {
  const accepted = await call(svc.api, 'POST', `${objectPath}/price`, { key, body: {} });
  assert.equal(accepted.status, 202, accepted.text);
  return waitForJob(svc.api, key, accepted.headers.get('location')!, 60_000);
}
