// GET /hazard over the real pinned snapshots: covering snapshots named, one count recounted
// independently, every refusal.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { call, expectRefusals, signup, startService, type TestService } from '../support/service.js';
import { manifestOf, rawFile } from '../support/feeds.js';
import { backtest, GREENVILLE_GUST } from '../domain/backtest/support.js';

let svc: TestService;
let key: string;
before(async () => {
  svc = await startService('sqlite');
  key = (await signup(svc.api)).key;
});
after(() => svc.close());
const get = (path: string) => call(svc.api, 'GET', path, { key });

// Written here, apart from the service's geometry: mean Earth radius 6371.0088 km.
function haversine(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = (d: number) => (d * Math.PI) / 180;
  const a = Math.sin(r(lat2 - lat1) / 2) ** 2 + Math.cos(r(lat1)) * Math.cos(r(lat2)) * Math.sin(r(lon2 - lon1) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(a));
}

test('every hazard peril answers at a covered point, naming the snapshot it read', async () => {
  const points: Array<[string, number, number, string]> = [
    ['earthquake', 34.05, -118.25, 'usgs-comcat-m6-california'],
    ['tropical_cyclone', 25.76, -80.19, 'noaa-nhc-hurdat2-atlantic'],
    ['flood', 42.96, -85.67, 'usgs-nwis-04119000-discharge'],
    ['weather_station', 29.69, -82.28, 'ghcnd-usw00012816-prcp'],
    ['severe_convective_storm', 39.74, -104.99, 'noaa-spc-hail-denver'],
    ['wildfire', 39.76, -121.62, 'usgs-mtbs-northern-california'],
    ['grid_outage', 33.79, -84.47, 'gema-county-outages-13121'],
  ];
  for (const [peril, lat, lon, feed] of points) {
    const answer = await get(`/hazard?peril=${peril}&lat=${lat}&lon=${lon}`);
    assert.equal(answer.status, 200, `${peril}: ${answer.text.slice(0, 300)}`);
    const summary = answer.body.summaries.find((s: any) => s.feed.feed_id === feed);
    assert.ok(summary, `${peril} reads ${feed}`);
    assert.equal(summary.feed.version, manifestOf(feed).version);
    assert.match(summary.feed.sha256, /^[0-9a-f]{64}$/);
    assert.ok(summary.summary.method || summary.summary.fit || summary.summary.record, `${peril} summary states its method`);
    assert.equal(answer.body.statement, 'History from the pinned record, not a forecast.');
  }
  assert.equal((await get('/usage')).body.units.total, 0, 'hazard lookups are not metered');
});

test('earthquake counts within the stated radius match a recount of the raw catalog', async () => {
  const answer = await get('/hazard?peril=earthquake&lat=34.05&lon=-118.25');
  const s = answer.body.summaries[0].summary;
  const radius = s.radius_km;
  const rows = parse(rawFile('usgs-comcat-m6-california'), { columns: true }) as Array<Record<string, string>>;
  const near = rows.filter((r) => r.type === 'earthquake' && r.mag !== '' && haversine(34.05, -118.25, +r.latitude!, +r.longitude!) <= radius);
  const total = s.bands.reduce((n: number, b: any) => n + b.count, 0) + (s.below_lowest_band?.count ?? 0);
  assert.equal(total, near.length);
  const strongest = near.sort((a, b) => +b.mag! - +a.mag!)[0]!;
  assert.equal(s.largest[0].event_id, strongest.id);
});

test('a point a station does not reach is outside coverage; a point feed answers within its stated radius', async () => {
  const far = await get('/hazard?peril=flood&lat=0&lon=0');
  assert.equal(far.status, 422);
  assert.equal(far.body.error.code, 'outside_feed_coverage');
  assert.ok(far.body.error.details.some((d: string) => d.startsWith('usgs-nwis-04119000-discharge')));
  // 40 km from the Grand Rapids gauge: beyond the 25 km radius published in GET /feeds.
  const feeds = await get('/feeds');
  const gauge = feeds.body.feeds.find((f: any) => f.feed_id === 'usgs-nwis-04119000-discharge');
  assert.equal(gauge.coverage_radius_km, 25);
  const beyond = await get('/hazard?peril=flood&lat=43.32&lon=-85.67');
  assert.equal(beyond.status, 422);
  const within = await get('/hazard?peril=flood&lat=43.10&lon=-85.67');
  assert.equal(within.status, 200);
  assert.ok(within.body.summaries[0].coverage.distance_km <= 25);
});

test('hazard refusals', async () => {
  const cases: Array<[string, number, string]> = [
    ['/hazard?peril=cloud_outage&lat=0&lon=0', 422, 'unsupported_peril'],
    ['/hazard?peril=extratropical_cyclone&lat=50&lon=0', 422, 'unsupported_peril'],
    ['/hazard?peril=volcano&lat=0&lon=0', 422, 'unsupported_peril'],
    ['/hazard?peril=earthquake&lat=34', 422, 'invalid_request'],
    ['/hazard?peril=earthquake&lat=95&lon=0', 422, 'invalid_request'],
    ['/hazard?peril=earthquake&lat=34&lon=east', 422, 'invalid_request'],
    ['/hazard?peril=earthquake&lat=34&lon=-118&radius=5', 422, 'invalid_request'],
    ['/hazard?lat=34&lon=-118', 422, 'invalid_request'],
    ['/hazard?peril=earthquake&lat=0&lon=0', 422, 'outside_feed_coverage'],
  ];
  await expectRefusals(svc.api, key, cases);
  assert.equal((await call(svc.api, 'GET', '/hazard?peril=earthquake&lat=34&lon=-118')).status, 401);
});

test('daily series answer in SI with the publisher unit named, return levels with intervals and beyond_record, exclusions listed as the backtest lists them', async () => {
  // Rainfall: mm from GHCN tenths of mm; one year's maximum recounted from the raw CSV.
  const rain = (await get('/hazard?peril=weather_station&lat=29.69&lon=-82.28')).body.summaries
    .find((s: any) => s.feed.feed_id === 'ghcnd-usw00012816-prcp').summary;
  assert.equal(rain.unit, 'mm');
  assert.equal(rain.native_unit, 'tenths of mm');
  assert.deepEqual(rain.unit_conversion, { from: 'tenths of mm', to: 'mm', factor: 0.1 });
  const rows = parse(rawFile('ghcnd-usw00012816-prcp'), { columns: true }) as Array<Record<string, string>>;
  const max1995 = Math.max(...rows.filter((r) => r.DATE!.startsWith('1995') && r.PRCP !== '').map((r) => Number(r.PRCP)));
  assert.equal(rain.annual_values.find((a: any) => a.year === 1995).value, max1995 / 10);
  const n = rain.extreme_value.n;
  assert.ok(n >= 10);
  for (const level of rain.extreme_value.return_levels) {
    assert.equal(level.beyond_record, level.return_period_years > n, `beyond_record at T = ${level.return_period_years}, n = ${n}`);
    const ci = level.confidence_interval;
    assert.equal(ci.level, 0.9);
    assert.ok(ci.lower < level.value && level.value < ci.upper, `${ci.lower} < ${level.value} < ${ci.upper}`);
  }
  assert.ok(rain.notes.some((t: string) => /parametric bootstrap, 500 samples .*seed/.test(t)), 'the interval rule is stated');
  // The same lookup twice gives the same intervals (seeded).
  const again = (await get('/hazard?peril=weather_station&lat=29.69&lon=-82.28')).body.summaries
    .find((s: any) => s.feed.feed_id === 'ghcnd-usw00012816-prcp').summary;
  assert.deepEqual(again.extreme_value.return_levels, rain.extreme_value.return_levels);

  // Discharge: m³/s from ft³/s.
  const flow = (await get('/hazard?peril=flood&lat=42.96&lon=-85.67')).body.summaries[0].summary;
  assert.equal(flow.unit, 'm3/s');
  assert.equal(flow.native_unit, 'ft3/s');
  assert.equal(flow.unit_conversion.factor, 0.028316846592);

  // Wind: m/s from tenths; the four implausible 2010 WSF5 gusts listed exactly as a backtest lists them.
  const wind = (await get('/hazard?peril=weather_station&lat=34.885&lon=-82.224')).body.summaries
    .find((s: any) => s.feed.feed_id === 'ghcnd-usw00003870-wind').summary;
  assert.equal(wind.unit, 'm/s');
  assert.equal(wind.native_unit, 'tenths of m/s');
  const artifact = await backtest(GREENVILLE_GUST);
  const inBacktest = (artifact.data_coverage.excluded_observations as any[]).filter((o) => o.date.startsWith('2010'));
  assert.equal(inBacktest.length, 4);
  assert.deepEqual(wind.excluded_observations.filter((o: any) => o.element === 'WSF5' && o.date.startsWith('2010')), inBacktest);
  assert.ok(wind.excluded_observations.some((o: any) => o.date === '2002-05-04' && o.reason === 'publisher_quality_flag'), 'QFLAG exclusions listed too');
  assert.match(wind.quality_rule.text, /wind_speed 0 to 75 m\/s/);
});

test('the completeness magnitude states its tie-break', async () => {
  const quake = (await get('/hazard?peril=earthquake&lat=34.05&lon=-118.25')).body.summaries[0].summary;
  assert.match(quake.gutenberg_richter.fit.mc_method, /tie-break: .*highest of them.*never on the order of the catalog/);
});
