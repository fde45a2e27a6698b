// Objects made and priced over HTTP, as the HTTP tests need them.
import assert from 'node:assert/strict';
import { call, waitForJob, type TestService } from './service.js';
import { form, smallSchedule } from './schedules.js';

/** A one-location exposure block (hand-made for tests): the smallest complete risk object's exposure. */
export const EXPOSURE = {
  locations: [{
    ref: 'A1', address: { street: '1 Main St', city: 'Los Angeles' }, latitude: 34.05, longitude: -118.25,
    occupancy: { code: 1104, text: 'Office' }, construction: { code: 5150, text: 'Reinforced concrete' },
    year_built: 1990, values: { buildings: '1000000.00', total: '1000000.00' },
  }],
  values: { buildings: '1000000.00', total: '1000000.00' },
  currency: 'USD',
  source_fidelity: { unmapped_columns: [], guessed_units: [], ambiguous_rows: [] },
};

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
