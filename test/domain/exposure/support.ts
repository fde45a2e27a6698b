// Shared by the exposure tests: the pinned OED reference tables (read-only, never copied into the
// repository) and the schedule fixtures.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FEEDS_DIR } from '../../support/feeds.js';
import { parseOedReference, type OedReference } from '../../../src/domain/exposure/oed-reference.js';

export { FEEDS_DIR };
export const OED_DIR = path.join(FEEDS_DIR, 'oed-spec', '2026-07-08');
export const FIXTURES_DIR = path.resolve(process.cwd(), 'test/fixtures/schedules');

let cached: OedReference | undefined;

export function oedReference(): OedReference {
  if (cached === undefined) {
    const read = (name: string) => readFileSync(path.join(OED_DIR, name), 'utf8');
    cached = parseOedReference({
      locFields: read('OEDInputFields_Loc.csv'),
      occupancy: read('OccupancyValues.csv'),
      construction: read('ConstructionValues.csv'),
      currency: read('CurrencyValues.csv'),
      perils: read('PerilValues.csv'),
      inputFields: read('OEDInputFields.csv'),
      perilsCovered: read('PerilsCovered.csv'),
    });
  }
  return cached;
}

export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(FIXTURES_DIR, name)));
}
