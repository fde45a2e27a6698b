// A schedule at the ingest size limit: 32 MB, 200,000 rows. Checks the reader finishes (a
// quadratic step would not) with every value exact; the time is printed, not asserted (see
// DESIGN.md: benchmarks are not timed tests).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatUnits } from '../../../src/domain/exposure/minor-units.js';

const formatCents = (cents: bigint) => formatUnits(cents * 100n, 2);
import { readSchedule } from '../../../src/domain/exposure/read-schedule.js';
import { oedReference } from './support.js';

const ROWS = 200_000;
const occupancies = ['Office', 'Retail', 'Residential', 'Warehouse', 'Hotel'];
const constructions = ['Wood frame', 'Masonry', 'Reinforced concrete', 'Steel'];

test(`a 32 MB schedule of ${ROWS} rows reads whole and exact`, () => {
  const header = 'Location ID,Street Address,City,State,Zip,Country,Latitude,Longitude,Occupancy,Construction,Year Built,Stories,Building Value,Contents Value,BI,Currency,Peril,Broker Notes,Inspection Date,Sprinklered,Flood Zone';
  const parts: string[] = ['Property schedule - windstorm renewal\r\n\r\n', header, '\r\n'];
  let buildings = 0n;
  let contents = 0n;
  let bi = 0n;
  for (let i = 0; i < ROWS; i++) {
    const b = 1_000_000_00n + BigInt(i) * 101n; // cents
    const c = BigInt(250_000 + (i % 1000)) * 100n;
    const x = BigInt(1 + (i % 10)) * 100_000_00n; // 0.1m steps
    buildings += b;
    contents += c;
    bi += x;
    const dollars = formatCents(b).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    parts.push(
      `LOC-${String(i).padStart(6, '0')},"${i % 9000} Main St, Ste ${i % 70}",Peoria,IL,${60000 + (i % 999)},US,` +
        `${(30 + (i % 1000) / 100).toFixed(4)},${(-90 - (i % 997) / 100).toFixed(4)},${occupancies[i % 5]},${constructions[i % 4]},` +
        `${1950 + (i % 70)},${1 + (i % 20)},"$${dollars}",${250_000 + (i % 1000)},${(1 + (i % 10)) / 10}m,USD,Hurricane,` +
        `note ${i % 13},2025-0${1 + (i % 9)}-1${i % 9},${i % 2 ? 'Y' : 'N'},AE\r\n`,
    );
  }
  const bytes = new TextEncoder().encode(parts.join(''));
  assert.ok(bytes.length > 30_000_000 && bytes.length <= 32 * 1024 * 1024, `${bytes.length} bytes`);

  const started = performance.now();
  const result = readSchedule(bytes, { fileName: 'big.csv', oed: oedReference() });
  const ms = performance.now() - started;
  console.log(`# read ${(bytes.length / 1e6).toFixed(1)} MB, ${ROWS} rows in ${Math.round(ms)} ms`);

  assert.equal(result.ok, true);
  if (!result.ok) return;
  const { exposure } = result.value;
  assert.equal(exposure.locations.length, ROWS);
  assert.deepEqual(exposure.values, {
    buildings: formatCents(buildings),
    contents: formatCents(contents),
    business_interruption: formatCents(bi),
    total: formatCents(buildings + contents + bi),
  });
  assert.equal(exposure.currency, 'USD');
  assert.deepEqual(result.value.peril, { code: 'tropical_cyclone' });
  // Hotel has no unambiguous code: one note a fifth of the rows, nothing else.
  assert.equal(exposure.source_fidelity.ambiguous_rows.length, ROWS / 5);
  assert.deepEqual(exposure.source_fidelity.unmapped_columns.map((c) => c.column), ['Broker Notes', 'Inspection Date', 'Sprinklered', 'Flood Zone']);
  assert.deepEqual(exposure.locations[ROWS - 1], {
    ref: 'LOC-199999',
    address: { street: '1999 Main St, Ste 9', city: 'Peoria', area: 'IL', postcode: String(60000 + (199_999 % 999)), country: 'US' },
    latitude: 39.99,
    longitude: -90 - (199_999 % 997) / 100,
    occupancy: { code: null, text: 'Hotel' }, // 199999 % 5 = 4
    construction: { code: 5200, text: 'Steel' },
    year_built: 1950 + (199_999 % 70),
    storeys: 20,
    // 100,000,000 + 199,999 × 101 cents; 250,999; 1.0m
    values: { buildings: '1201998.99', contents: '250999.00', business_interruption: '1000000.00', total: '2452997.99' },
    currency: 'USD',
  });
});
