// Exports over real HTTP: each CSV, ORD table and GeoJSON parsed back and compared with the JSON
// answer of the same resource; the OED round trip of a real OED file; format= against Accept; 406.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { call, eachDialect, envelopeFaults, sharedService, signup, waitForJob, type TestService } from '../support/service.js';
import { ACCEPTANCE_BODIES } from '../support/acceptance.js';
import { ingestedObject } from '../support/objects.js';
import { form, largeSchedule } from '../support/schedules.js';
import { CHUNK_BYTES } from '../../src/store/object-chunks.js';

const OED_FILE = readFileSync(new URL('../fixtures/schedules/05-oed-location.csv', import.meta.url));
const MODEL = 'oasislmf-windstorm';
const INSIDE = [
  { lat: 52.74, lon: -0.91, value: 1_000_000 },
  { lat: 52.76, lon: -0.89, value: 250_000 },
  { lat: 52.79, lon: -0.86, value: 500_000 },
];
const TERMS = {
  policy: { place_deductible: 10_000, place_limit: 600_000, account_deductible: 25_000, account_limit: 1_200_000 },
  reinsurance: { quota_share: { ceded_share: 0.2 }, layers: [{ attachment: 50_000, limit: 100_000 }] },
};

/** A CSV answer parsed back: its records as objects keyed by the header (RFC 4180, CRLF). */
function records(text: string): Array<Record<string, string>> {
  assert.ok(text.endsWith('\r\n'), 'records end with CRLF');
  return parse(text, { columns: true, bom: false }) as Array<Record<string, string>>;
}

/** A CSV field as the JSON value it was written from: empty is null, else the number or text. */
const num = (field: string | undefined) => (field === undefined || field === '' ? null : Number(field));

function assertCsv(answer: { status: number; headers: Headers; text: string }, filename: RegExp) {
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.headers.get('content-type'), 'text/csv; charset=utf-8; header=present');
  assert.match(answer.headers.get('content-disposition')!, filename);
  assert.equal(answer.headers.get('vary'), 'Accept');
}

async function ingest(svc: TestService, key: string, file: string | Uint8Array, options: { currency?: string; filename?: string } = {}) {
  const accepted = await call(svc.api, 'POST', '/ingest', { key, raw: form(file, { type: 'text/csv', ...options }) });
  assert.equal(accepted.status, 202, accepted.text);
  const job = await waitForJob(svc.api, key, accepted.headers.get('location')!, 60_000);
  assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
  return job.result.objects[0].links.self as string;
}

async function backtest(svc: TestService, key: string, objectPath: string, body: unknown) {
  assert.equal((await call(svc.api, 'PATCH', objectPath, { key, body })).status, 200);
  const cut = await call(svc.api, 'POST', `${objectPath}/structures`, { key });
  const accepted = await call(svc.api, 'POST', `${cut.body.links.self}/backtest`, { key });
  const job = await waitForJob(svc.api, key, accepted.headers.get('location')!, 60_000);
  assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
  return job.result;
}

eachDialect('a backtest\'s year table and burning cost as CSV hold what its JSON artifact holds', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const objectPath = await ingestedObject(svc, key);
  for (const peril of ['earthquake', 'flood']) {
    const artifact = await backtest(svc, key, objectPath, ACCEPTANCE_BODIES[peril]);
    const path = artifact.links.self as string;
    const json = await call(svc.api, 'GET', path, { key });
    assert.equal(json.headers.get('vary'), 'Accept');
    assert.deepEqual(json.body, (await call(svc.api, 'GET', path, { key, headers: { accept: '*/*' } })).body);

    const years = await call(svc.api, 'GET', `${path}?format=csv`, { key });
    assertCsv(years, /-years\.csv"$/);
    assert.equal(years.text.split('\r\n')[0], 'year,term_from,term_to,record,occurrences,paying_occurrences,index_value,index_unit,gross_payout,payout,rate_on_line,payout_on_partial_record,currency');
    const rows = records(years.text);
    assert.equal(rows.length, json.body.years.length, peril);
    rows.forEach((row, i) => {
      const y = json.body.years[i];
      assert.equal(num(row.year), y.year);
      assert.equal(row.term_from, y.term.from);
      assert.equal(row.term_to, y.term.to);
      assert.equal(row.record, y.record);
      assert.equal(num(row.occurrences), y.occurrences.length);
      assert.equal(num(row.paying_occurrences), y.occurrences.filter((o: any) => o.payout > 0).length);
      const index = peril === 'flood' ? y.term_maximum?.value ?? null : y.occurrences.length ? Math.max(...y.occurrences.map((o: any) => o.value)) : null;
      assert.equal(num(row.index_value), index, `${peril} ${y.year}`);
      assert.equal(num(row.gross_payout), y.gross_payout);
      assert.equal(num(row.payout), y.payout);
      assert.equal(num(row.rate_on_line), y.rate_on_line);
      assert.equal(num(row.payout_on_partial_record), y.payout_on_partial_record ?? null);
      assert.equal(row.currency, json.body.currency);
    });
    // Accept chooses CSV as well as format= does; table= names the burning-cost view.
    const accepted = await call(svc.api, 'GET', `${path}?table=burning_cost`, { key, headers: { accept: 'text/csv' } });
    assertCsv(accepted, /-burning_cost\.csv"$/);
    const cost = records(accepted.text);
    assert.deepEqual(cost.map((r) => [num(r.year), num(r.payout), num(r.rate_on_line), r.currency]),
      json.body.burning_cost.by_year.map((b: any) => [b.year, b.payout, b.rate_on_line, json.body.currency]));
  }

  // format= wins over Accept; an Accept naming nothing served is 406 in the envelope.
  const artifact = await backtest(svc, key, objectPath, ACCEPTANCE_BODIES.earthquake);
  const path = artifact.links.self as string;
  const formatWins = await call(svc.api, 'GET', `${path}?format=json`, { key, headers: { accept: 'text/csv' } });
  assert.equal(formatWins.status, 200);
  assert.match(formatWins.headers.get('content-type')!, /^application\/json/);
  assert.equal(formatWins.body.kind, 'backtest');
  const csvPreferred = await call(svc.api, 'GET', path, { key, headers: { accept: 'application/json;q=0.5, text/csv' } });
  assertCsv(csvPreferred, /-years\.csv"$/);
  for (const accept of ['image/png', 'application/xml, text/html;q=0.9', 'application/json;q=0, text/csv;q=0']) {
    const refused = await call(svc.api, 'GET', path, { key, headers: { accept } });
    assert.equal(refused.status, 406, accept);
    assert.equal(refused.body.error.code, 'not_acceptable');
    assert.deepEqual(envelopeFaults(refused), []);
    assert.match(refused.body.error.message, /application\/json, text\/csv/);
  }
  const bad = await call(svc.api, 'GET', `${path}?format=xlsx`, { key });
  assert.equal(bad.status, 422);
  assert.equal(bad.body.error.code, 'invalid_request');
  // Tenancy: another account's backtest is not found, in any format.
  const other = await signup(svc.api);
  assert.equal((await call(svc.api, 'GET', `${path}?format=csv`, { key: other.key })).status, 404);
});

eachDialect('an event catalog page as CSV and as GeoJSON holds the JSON page\'s events, and pages on', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const query = '/events/earthquake?feed=usgs-comcat-m6-california&limit=40&offset=10';
  const json = await call(svc.api, 'GET', query, { key });
  assert.equal(json.status, 200);
  assert.equal(json.body.events.length, 40);

  const csv = await call(svc.api, 'GET', `${query}&format=csv`, { key });
  assertCsv(csv, /earthquake_events_10\.csv"$/);
  const rows = records(csv.text);
  assert.deepEqual(Object.keys(rows[0]!), ['event_id', 'time', 'latitude', 'longitude', 'magnitude', 'magnitude_type', 'depth_km', 'type', 'place', 'footprint']);
  assert.deepEqual(rows.map((r) => ({
    event_id: r.event_id, time: r.time, latitude: num(r.latitude), longitude: num(r.longitude), magnitude: num(r.magnitude),
    magnitude_type: r.magnitude_type, depth_km: num(r.depth_km), type: r.type, place: r.place === '' ? null : r.place, footprint: r.footprint,
  })), json.body.events);
  // The next page, in the same format, is the Link header: it is the JSON's page.next.
  const link = /^<([^>]+)>; rel="next"$/.exec(csv.headers.get('link')!)![1]!;
  assert.equal(link, `${json.body.page.next}&format=csv`);
  const next = await call(svc.api, 'GET', link, { key });
  assertCsv(next, /earthquake_events_50\.csv"$/);
  const nextJson = await call(svc.api, 'GET', json.body.page.next, { key });
  assert.deepEqual(records(next.text).map((r) => r.event_id), nextJson.body.events.map((e: any) => e.event_id));

  const geo = await call(svc.api, 'GET', query, { key, headers: { accept: 'application/geo+json' } });
  assert.equal(geo.status, 200);
  assert.equal(geo.headers.get('content-type'), 'application/geo+json; charset=utf-8');
  assert.equal(geo.body.type, 'FeatureCollection');
  assert.equal(geo.body.features.length, json.body.events.length);
  geo.body.features.forEach((f: any, i: number) => {
    const e = json.body.events[i];
    assert.equal(f.type, 'Feature');
    assert.equal(f.id, e.event_id);
    // RFC 7946: a Point's position is [longitude, latitude].
    assert.deepEqual(f.geometry, { type: 'Point', coordinates: [e.longitude, e.latitude] });
    assert.ok(f.geometry.coordinates[0] >= -180 && f.geometry.coordinates[0] <= 180 && f.geometry.coordinates[1] >= -90 && f.geometry.coordinates[1] <= 90);
    assert.deepEqual(f.properties, e);
  });
  assert.deepEqual(geo.body.counts, json.body.counts);
  assert.deepEqual(geo.body.page, json.body.page);
  assert.equal((await call(svc.api, 'GET', `${query}&format=geojson`, { key })).text, geo.text);

  // A report extract has its own columns.
  const hailQuery = '/events/severe_convective_storm?feed=noaa-spc-hail-denver&limit=20';
  const hail = await call(svc.api, 'GET', `${hailQuery}&format=csv`, { key });
  assertCsv(hail, /severe_convective_storm_events_0\.csv"$/);
  assert.equal(hail.text.split('\r\n')[0], 'event_id,time,date,latitude,longitude,value,unit,report_kind');
  const hailJson = await call(svc.api, 'GET', hailQuery, { key });
  assert.ok(hailJson.body.events.length > 0);
  assert.deepEqual(records(hail.text).map((r) => ({
    event_id: r.event_id, time: r.time, date: r.date, latitude: num(r.latitude), longitude: num(r.longitude), value: num(r.value), unit: r.unit, report_kind: r.report_kind,
  })), hailJson.body.events);

  const refused = await call(svc.api, 'GET', query, { key, headers: { accept: 'text/html' } });
  assert.equal(refused.status, 406);
  assert.equal(refused.body.error.code, 'not_acceptable');
  assert.deepEqual(envelopeFaults(refused), []);
});

/** The locations as compared across a round trip: everything the file said about each. */
eachDialect('OED round trip: a real OED file ingested, exported as location.csv and ingested again gives the same locations', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const path = await ingest(svc, key, OED_FILE, { filename: 'location.csv' });
  const original = await call(svc.api, 'GET', path, { key });
  const exported = await call(svc.api, 'GET', `${path}/locations?format=oed`, { key });
  assertCsv(exported, /-location\.csv"$/);
  const rows = records(exported.text);
  assert.equal(rows.length, original.body.exposure.locations.length);
  // PortNumber, AccNumber, LocNumber and LocName as the source file gave them.
  const source = parse(OED_FILE, { columns: true, bom: true }) as Array<Record<string, string>>;
  assert.deepEqual(rows.map((r) => [r.PortNumber, r.AccNumber, r.LocNumber, r.LocName]), source.map((r) => [r.PortNumber, r.AccNumber, r.LocNumber, r.LocName]));
  assert.deepEqual(rows.map((r) => [r.OccupancyCode, r.ConstructionCode, r.LocPerilsCovered, r.LocCurrency]), source.map((r) => [r.OccupancyCode, r.ConstructionCode, r.LocPerilsCovered, r.LocCurrency]));

  const again = await ingest(svc, key, exported.text, { filename: 'location.csv' });
  const reread = await call(svc.api, 'GET', again, { key });
  // The OED fields kept verbatim on each location (BuildingTIV 120000000.555 as written) come back
  // as this export writes them (the value rounded to whole yen); the rest of each location is the same.
  const withoutOed = (ls: Array<Record<string, unknown>>) => ls.map(({ oed: _oed, ...rest }) => rest);
  assert.deepEqual(withoutOed(reread.body.exposure.locations), withoutOed(original.body.exposure.locations));
  assert.deepEqual(reread.body.exposure.locations.map((l: { oed: Record<string, unknown> }) => [l.oed.PortNumber, l.oed.AccNumber, l.oed.LocNumber, l.oed.LocName]),
    original.body.exposure.locations.map((l: { oed: Record<string, unknown> }) => [l.oed.PortNumber, l.oed.AccNumber, l.oed.LocNumber, l.oed.LocName]));
  assert.deepEqual(reread.body.exposure.values, original.body.exposure.values);
  assert.equal(reread.body.exposure.currency, original.body.exposure.currency);
  // Accept: text/csv asks for the same file.
  assert.equal((await call(svc.api, 'GET', `${path}/locations`, { key, headers: { accept: 'text/csv' } })).text, exported.text);
  // Tenancy and absence.
  const other = await signup(svc.api);
  assert.equal((await call(svc.api, 'GET', `${path}/locations?format=oed`, { key: other.key })).status, 404);
  const missing = await call(svc.api, 'GET', '/objects/obj_000000000000000000000000/locations?format=oed', { key });
  assert.equal(missing.status, 404);
  assert.deepEqual(envelopeFaults(missing), []);
  const refused = await call(svc.api, 'GET', `${path}/locations`, { key, headers: { accept: 'application/xml' } });
  assert.equal(refused.status, 406);
  assert.equal(refused.body.error.code, 'not_acceptable');
});

eachDialect('an object spanning several stored chunks is exported whole, every location once, in order', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const ROWS = 6_000;
  const path = await ingest(svc, key, largeSchedule(ROWS), { currency: 'USD' });
  const whole = await call(svc.api, 'GET', path, { key });
  assert.ok(Buffer.byteLength(whole.text) > 2 * CHUNK_BYTES, 'the object spans several chunks');
  const locations: any[] = whole.body.exposure.locations;
  const exported = await call(svc.api, 'GET', `${path}/locations?format=oed`, { key });
  assertCsv(exported, /-location\.csv"$/);
  const rows = records(exported.text);
  assert.equal(rows.length, ROWS);
  rows.forEach((r, i) => {
    const l = locations[i];
    assert.deepEqual([r.LocNumber, r.StreetAddress, r.City, r.PostalCode, num(r.Latitude), num(r.Longitude)],
      [l.ref, l.address.street, l.address.city, l.address.postcode, l.latitude, l.longitude]);
    assert.deepEqual([r.BuildingTIV, r.ContentsTIV, r.BITIV, r.LocCurrency, num(r.YearBuilt), num(r.OccupancyCode), num(r.ConstructionCode)],
      [l.values.buildings ?? '', l.values.contents ?? '', l.values.business_interruption ?? '', l.currency, l.year_built, l.occupancy.code, l.construction.code]);
  });
  // A broker schedule is not OED: the required identifiers are filled and the export says so.
  assert.ok(rows.every((r) => r.PortNumber === whole.body.id && r.AccNumber === whole.body.id));
  assert.match(exported.headers.get('catrisk-oed-filled') ?? '', /PortNumber; from="object id", AccNumber; from="object id"/);
  // It has no account or reinsurance file: 404.
  for (const table of ['account', 'ri_info', 'ri_scope']) {
    const none = await call(svc.api, 'GET', `${path}/locations?format=oed&table=${table}`, { key });
    assert.equal(none.status, 404, table);
    assert.equal(none.body.error.code, 'not_found');
  }
  const bad = await call(svc.api, 'GET', `${path}/locations?format=oed&table=policy`, { key });
  assert.equal(bad.status, 422);
  assert.equal(bad.body.error.code, 'invalid_request');
});

eachDialect('a lab run\'s ORD tables (EPT, ELT, PLT, ALT) hold its lab-metrics/1', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const submitted = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, samples: 0, exposure: { points: INSIDE } } });
  assert.ok([200, 202].includes(submitted.status), submitted.text);
  const path = `/runs/${submitted.body.id as string}`;
  let run: any;
  for (const until = Date.now() + 120_000; ; await new Promise((r) => setTimeout(r, 50))) {
    run = (await call(svc.urls.lab, 'GET', path, { key })).body;
    if (run.status === 'succeeded' || run.status === 'failed') break;
    // Until it has succeeded the run has no tables: 406, JSON only.
    const early = await call(svc.urls.lab, 'GET', `${path}?format=csv`, { key });
    if (early.status !== 200) {
      assert.equal(early.status, 406, early.text);
      assert.equal(early.body.error.code, 'not_acceptable');
    }
    assert.ok(Date.now() < until, 'run did not finish');
  }
  assert.equal(run.status, 'succeeded', JSON.stringify(run.error));
  const m = run.result.metrics;

  const ept = await call(svc.urls.lab, 'GET', `${path}?format=csv`, { key });
  assertCsv(ept, /-gul-ept\.csv"$/);
  const eptRows = records(ept.text);
  assert.deepEqual(Object.keys(eptRows[0]!), ['SummaryId', 'EPCalc', 'EPType', 'ReturnPeriod', 'Loss']);
  const expected = [
    ...m.exceedance.oep.map((p: any) => [1, 1, 1, p.return_period, p.loss]), ...m.exceedance.oep.map((p: any) => [1, 1, 2, p.return_period, p.tvar]),
    ...m.exceedance.aep.map((p: any) => [1, 1, 3, p.return_period, p.loss]), ...m.exceedance.aep.map((p: any) => [1, 1, 4, p.return_period, p.tvar]),
  ];
  assert.ok(expected.length > 0);
  assert.deepEqual(eptRows.map((r) => [num(r.SummaryId), num(r.EPCalc), num(r.EPType), num(r.ReturnPeriod), num(r.Loss)]), expected);

  const melt = records((await call(svc.urls.lab, 'GET', `${path}?format=csv&table=melt`, { key })).text);
  assert.deepEqual(melt.map((r) => [num(r.EventId), num(r.SummaryId), num(r.SampleType), num(r.EventRate), num(r.MeanLoss)]),
    m.elt.map((e: any) => [e.event_id, 1, 1, e.occurrences / m.periods, e.loss]));
  const mplt = records((await call(svc.urls.lab, 'GET', `${path}?table=mplt`, { key, headers: { accept: 'text/csv' } })).text);
  assert.deepEqual(mplt.map((r) => [num(r.Period), num(r.PeriodWeight), num(r.EventId), num(r.Year), num(r.SummaryId)]),
    m.occurrences.map((o: any) => [o.period, 1 / m.periods, o.event_id, o.date?.year ?? o.period, 1]));
  const ylt = records((await call(svc.urls.lab, 'GET', `${path}?format=csv&table=ylt`, { key })).text);
  assert.deepEqual(ylt.map((r) => [num(r.period), num(r.period_weight), num(r.loss), num(r.max_event_loss), num(r.events)]),
    m.ylt.map((y: any) => [y.period, 1 / m.periods, y.loss, y.max_event_loss, y.events]));
  // The old names are gone: the per-period table was never ORD's PLT.
  const plt = await call(svc.urls.lab, 'GET', `${path}?format=csv&table=plt`, { key });
  assert.equal(plt.status, 422);
  assert.equal(plt.body.error.code, 'invalid_request');
  const alt = records((await call(svc.urls.lab, 'GET', `${path}?format=csv&table=alt`, { key })).text);
  assert.deepEqual(alt.map((r) => [num(r.SummaryId), num(r.SampleType), num(r.MeanLoss), num(r.SDLoss)]),
    [[1, 1, m.average_annual_loss.mean, m.average_annual_loss.standard_deviation]]);

  // With terms, il and ri are the insured and net perspectives' metrics; sampled runs say so in EPCalc.
  const termed = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, samples: 10, exposure: { points: INSIDE }, terms: TERMS } });
  const termedPath = `/runs/${termed.body.id as string}`;
  for (const until = Date.now() + 120_000; ; await new Promise((r) => setTimeout(r, 50))) {
    run = (await call(svc.urls.lab, 'GET', termedPath, { key })).body;
    if (run.status === 'succeeded' || run.status === 'failed') break;
    assert.ok(Date.now() < until, 'run did not finish');
  }
  assert.equal(run.status, 'succeeded', JSON.stringify(run.error));
  for (const [perspective, metrics] of [['gul', run.result.metrics], ['il', run.result.perspectives.il], ['ri', run.result.perspectives.ri]] as const) {
    const answer = await call(svc.urls.lab, 'GET', `${termedPath}?format=csv&perspective=${perspective}`, { key });
    assertCsv(answer, new RegExp(`-${perspective}-ept\\.csv"$`));
    const aep = records(answer.text).filter((r) => r.EPType === '3');
    assert.ok(aep.length > 0 && records(answer.text).every((r) => r.EPCalc === '4'), perspective);
    assert.deepEqual(aep.map((r) => [num(r.ReturnPeriod), num(r.Loss)]), metrics.exceedance.aep.map((p: any) => [p.return_period, p.loss]), perspective);
    const alt = records((await call(svc.urls.lab, 'GET', `${termedPath}?format=csv&table=alt&perspective=${perspective}`, { key })).text);
    assert.deepEqual(alt.map((r) => [num(r.SampleType), num(r.MeanLoss)]), [[2, metrics.average_annual_loss.mean]], perspective);
  }

  // No terms: no insured or net perspective.
  const il = await call(svc.urls.lab, 'GET', `${path}?format=csv&perspective=il`, { key });
  assert.equal(il.status, 422);
  assert.equal(il.body.error.code, 'invalid_request');
  assert.deepEqual(envelopeFaults(il), []);
  const refused = await call(svc.urls.lab, 'GET', path, { key, headers: { accept: 'application/pdf' } });
  assert.equal(refused.status, 406);
  assert.equal(refused.body.error.code, 'not_acceptable');
  const other = await signup(svc.api);
  assert.equal((await call(svc.urls.lab, 'GET', `${path}?format=csv`, { key: other.key })).status, 404);
});
