// The OED location file of an object ingested from OED, written back: a round trip of a published
// OED example, columns in the pinned spec's order (feeds/oed-spec OEDInputFields.csv).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { FEEDS_DIR } from '../support/feeds.js';
import { parseOedFieldOrder } from '../../src/domain/exposure/oed-fields.js';
import { OedColumnPlan } from '../../src/domain/exports/oed-location.js';
import type { ScheduleLocation } from '../../src/domain/exposure/types.js';

const ORDER = parseOedFieldOrder(readFileSync(path.join(FEEDS_DIR, 'oed-spec', '2026-07-08', 'OEDInputFields.csv'), 'utf8'));

// OasisLMF/ODS_OpenExposureData Examples/property_location.csv (commit 6660469), its first three
// rows with the columns they fill (every other column of the example is empty in them), and a
// deductible and limit on the third row added here to carry financial fields through.
const EXAMPLE = `PortNumber,AccNumber,LocNumber,IsTenant,BuildingID,CountryCode,Latitude,Longitude,StreetAddress,PostalCode,OccupancyCode,ConstructionCode,LocPerilsCovered,LocCurrency,LocDedType1Building,LocDed1Building,LocLimit1Building,OEDVersion
1,A11111,1,1,1,GB,52.7774602,-0.9000228,1 ABINGDON ROAD,LE13 0SA,1050,5000,WW1,GBP,,,,4.0.0
1,A11111,2,1,1,GB,52.7780023,-0.9003204,2 ABINGDON ROAD,LE13 0SB,1050,5000,WW1,GBP,,,,4.0.0
1,A11111,3,1,1,GB,52.7772173,-0.900014,3 ABINGDON ROAD,LE13 0SA,1050,5000,WW1,GBP,2,0.05,250000,4.0.0
`;
const rows = parse(EXAMPLE, { columns: true }) as Record<string, string>[];
const NUMERIC = new Set(['PortNumber', 'IsTenant', 'BuildingID', 'Latitude', 'Longitude', 'OccupancyCode', 'ConstructionCode', 'LocDedType1Building', 'LocDed1Building', 'LocLimit1Building']);

/** The locations as ingest keeps an OED file's rows (schemas/risk-object.v0.json: location.oed, every field with a value, numbers as numbers). */
const locations: ScheduleLocation[] = rows.map((r) => ({
  ref: r.LocNumber!, address: { street: r.StreetAddress!, postcode: r.PostalCode!, country: r.CountryCode! },
  latitude: Number(r.Latitude), longitude: Number(r.Longitude),
  occupancy: { code: 1050, text: '1050' }, construction: { code: 5000, text: '5000' }, year_built: null,
  values: { total: null }, currency: 'GBP', perils_covered: 'WW1',
  oed: Object.fromEntries(Object.entries(r).filter(([, v]) => v !== '').map(([k, v]) => [k, NUMERIC.has(k) ? Number(v) : v])) as ScheduleLocation['oed'],
}));

test('an OED example file comes back field for field, in the spec\'s order, nothing filled', () => {
  const plan = new OedColumnPlan({ objectId: 'obj', peril: 'tropical_cyclone', currency: 'GBP' });
  plan.add(locations.slice(0, 2));
  plan.add(locations.slice(2)); // the financial fields only the last row holds are planned too
  const w = plan.writer(ORDER.location);
  const text = w.header() + locations.map((l) => w.record(l)).join('');
  assert.deepEqual(w.filled, []);
  const back = parse(text, { columns: true }) as Record<string, string>[];
  assert.deepEqual(back, rows);
  // The spec's order: each column after the one before it in OEDInputFields.csv's location fields.
  const at = w.columns.map((c) => ORDER.location.indexOf(c));
  assert.ok(at.every((i) => i >= 0), 'every example column is an OED location field');
  assert.deepEqual(at, [...at].sort((a, b) => a - b));
  assert.ok(ORDER.account.includes('PolNumber') && ORDER.ri_info.includes('ReinsNumber') && ORDER.ri_scope.includes('ReinsNumber'));
});
