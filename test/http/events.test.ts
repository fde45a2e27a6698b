// GET /events/{peril} and footprints over the real pinned catalogs, with independent recounts.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { call, expectRefusals, signup, startService, type TestService } from '../support/service.js';
import { manifestOf, rawFile } from '../support/feeds.js';

let svc: TestService;
let key: string;
before(async () => {
  svc = await startService('sqlite');
  key = (await signup(svc.api)).key;
});
after(() => svc.close());

const get = (path: string) => call(svc.api, 'GET', path, { key });
const inBox = (box: any, lat: number, lon: number) =>
  lat >= box.min_latitude && lat <= box.max_latitude && lon >= box.min_longitude && lon <= box.max_longitude;

test('earthquake catalog counts match a recount of the raw ComCat file', async () => {
  const feed = 'usgs-comcat-m6-california';
  const rows = parse(rawFile(feed), { columns: true }) as Array<Record<string, string>>;
  const box = manifestOf(feed).coverage;
  const all = await get(`/events/earthquake?feed=${feed}&limit=1000`);
  assert.equal(all.status, 200);
  assert.equal(all.body.counts.events_in_snapshot, rows.length);
  assert.equal(all.body.counts.selected, rows.filter((r) => inBox(box, +r.latitude!, +r.longitude!)).length);
  assert.equal(all.body.feed.sha256, manifestOf(feed).files[0].sha256);
  assert.deepEqual(all.body.selection.defaulted, ['version', 'box', 'from', 'to', 'min_magnitude', 'offset']);
  assert.equal(all.body.selection.minimum_magnitude, 6);

  const strong = await get(`/events/earthquake?feed=${feed}&min_magnitude=7&max_depth_km=20&from=1950-01-01&to=2020-01-01`);
  const expected = rows.filter((r) => r.mag !== '' && +r.mag! >= 7 && r.depth !== '' && +r.depth! <= 20
    && Date.parse(r.time!) >= Date.parse('1950-01-01T00:00:00Z') && Date.parse(r.time!) < Date.parse('2020-01-01T00:00:00Z'));
  assert.equal(strong.body.counts.selected, expected.length);
  assert.deepEqual(strong.body.events.map((e: any) => e.event_id).sort(), expected.map((r) => r.id).sort());
  assert.ok(strong.body.events.some((e: any) => e.event_id === 'ci38457511'), 'Ridgecrest M7.1 is there');

  // A box resolves to the one extract that holds it.
  const boxed = await get('/events/earthquake?min_lat=33&max_lat=36&min_lon=-119&max_lon=-116&limit=1000');
  assert.equal(boxed.body.feed.id, feed);
  assert.equal(boxed.body.counts.selected, rows.filter((r) => +r.latitude! >= 33 && +r.latitude! <= 36 && +r.longitude! >= -119 && +r.longitude! <= -116).length);
});

test('report extract counts match a recount of the raw SPC hail file', async () => {
  const feed = 'noaa-spc-hail-denver';
  const m = manifestOf(feed);
  const lines = rawFile(feed).toString('utf8').split(/\r?\n/).filter((l) => l.trim() !== '');
  const columns = Object.keys(m.columns);
  const [magAt, latAt, lonAt] = ['mag', 'slat', 'slon'].map((c) => columns.indexOf(c)) as [number, number, number];
  const cells = lines.map((l) => l.split(','));
  const page = await get(`/events/severe_convective_storm?feed=${feed}&min_value=2&limit=1000`);
  assert.equal(page.status, 200, page.text);
  assert.equal(page.body.counts.events_in_snapshot, lines.length);
  const expected = cells.filter((c) => +c[magAt]! >= 2 && inBox(m.coverage, +c[latAt]!, +c[lonAt]!)).length;
  assert.ok(expected > 0);
  assert.equal(page.body.counts.selected, expected);
  assert.equal(page.body.selection.unit, 'in');
  assert.equal(page.body.selection.minimum_value, 2);
  assert.ok(page.body.events.every((e: any) => e.value >= 2 && e.unit === 'in'));
});

test('fire extract counts match a recount of the raw MTBS file, points decoded from Event_ID', async () => {
  const feed = 'usgs-mtbs-colorado';
  const m = manifestOf(feed);
  const rows = parse(rawFile(feed), { columns: true }) as Array<Record<string, string>>;
  const page = await get(`/events/wildfire?feed=${feed}&min_value=10000&limit=1000`);
  assert.equal(page.status, 200, page.text);
  // Event_ID: state (2), latitude (5, thousandths), longitude west (6, thousandths), date (8).
  const expected = rows.filter((r) => {
    const id = r.Event_ID!;
    const lat = Number(id.slice(2, 7)) / 1000;
    const lon = -Number(id.slice(7, 13)) / 1000;
    return +r.BurnBndAc! >= 10000 && inBox(m.coverage, lat, lon);
  });
  assert.equal(page.body.counts.selected, expected.length);
  assert.deepEqual(page.body.events.map((e: any) => e.event_id).sort(), expected.map((r) => r.Event_ID).sort());
});

test('paging walks a whole catalog and returns every event exactly once', async () => {
  const feed = 'noaa-spc-hail-dallas-fort-worth';
  let path: string | null = `/events/severe_convective_storm?feed=${feed}&limit=300`;
  const seen: string[] = [];
  let selected = -1;
  let pages = 0;
  while (path) {
    const page = await get(path);
    assert.equal(page.status, 200, page.text);
    selected = page.body.counts.selected;
    seen.push(...page.body.events.map((e: any) => e.event_id));
    assert.match(page.body.page.next ?? 'version=', /version=/, 'next pins the version');
    path = page.body.page.next;
    pages += 1;
  }
  assert.ok(pages > 2);
  assert.equal(seen.length, selected);
  assert.equal(new Set(seen).size, seen.length);
});

test('catalog refusals, each with its status and code', async () => {
  const cases: Array<[string, number, string]> = [
    ['/events/earthquake?feed=usgs-comcat-m6-california&colour=red', 422, 'invalid_request'],
    ['/events/earthquake?feed=usgs-comcat-m6-california&min_value=3', 422, 'invalid_request'],
    ['/events/severe_convective_storm?feed=noaa-spc-hail-denver&min_magnitude=3', 422, 'invalid_request'],
    ['/events/severe_convective_storm?feed=noaa-spc-hail-denver&max_depth_km=3', 422, 'invalid_request'],
    ['/events/earthquake?min_lat=33&max_lat=36&min_lon=-119', 422, 'invalid_request'],
    ['/events/earthquake?feed=usgs-comcat-m6-california&min_magnitude=5', 422, 'invalid_request'],
    ['/events/earthquake?feed=usgs-comcat-m6-california&limit=0', 422, 'invalid_request'],
    ['/events/earthquake?feed=usgs-comcat-m6-california&limit=1001', 422, 'invalid_request'],
    ['/events/earthquake?feed=usgs-comcat-m6-california&from=yesterday', 422, 'invalid_request'],
    ['/events/earthquake?feed=usgs-comcat-m6-california&from=2000-01-01&to=1999-01-01', 422, 'invalid_request'],
    ['/events/earthquake?feed=usgs-comcat-m6-california&limit=5&limit=6', 422, 'invalid_request'],
    ['/events/earthquake', 404, 'no_event_catalogue'],
    ['/events/earthquake?min_lat=0&max_lat=80&min_lon=-170&max_lon=170', 404, 'no_event_catalogue'],
    ['/events/severe_convective_storm?min_lat=39.6&max_lat=39.9&min_lon=-105.1&max_lon=-104.8', 404, 'no_event_catalogue'],
    ['/events/earthquake?feed=noaa-spc-hail-denver', 404, 'no_event_catalogue'],
    ['/events/earthquake?feed=usgs-comcat-m6-california&version=1999-01-01', 404, 'no_event_catalogue'],
    ['/events/weather_station', 404, 'no_event_catalogue'],
    ['/events/flood', 404, 'no_event_catalogue'],
    ['/events/grid_outage', 404, 'no_event_catalogue'],
  ];
  await expectRefusals(svc.api, key, cases);
  const none = await get('/events/earthquake?min_lat=0&max_lat=80&min_lon=-170&max_lon=170');
  assert.equal(none.body.error.details.length, 7, 'every earthquake extract\'s edges are listed');
  const several = await get('/events/severe_convective_storm?min_lat=39.6&max_lat=39.9&min_lon=-105.1&max_lon=-104.8');
  assert.deepEqual(several.body.error.details.map((d: string) => d.split(':')[0]).sort(),
    ['noaa-ncei-storm-events-wind-denver', 'noaa-spc-hail-denver', 'noaa-spc-tornado-denver']);
  const gridded = await get('/events/flood');
  assert.match(gridded.body.error.message, /earthquake, severe_convective_storm, wildfire/);
});

test('a footprint clusters by time from the first event: Ridgecrest 2019 foreshock and mainshock', async () => {
  const week = await get('/events/earthquake/ci38443183/footprint');
  assert.equal(week.status, 200, week.text);
  const occ = week.body.footprint.occurrence;
  assert.equal(occ.window, 'P7D');
  assert.equal(occ.peak_event_id, 'ci38457511');
  assert.ok(occ.events.some((e: any) => e.event_id === 'ci38443183'));
  assert.equal(occ.event_count, occ.events.length);
  assert.equal(occ.from, '2019-07-04T17:33:49.000Z');
  assert.equal(week.body.feed.id, 'usgs-comcat-m6-california');
  assert.ok(week.body.limitations.some((l: string) => /not a shaking map/.test(l)));
  const ext = week.body.footprint.extent;
  for (const e of occ.events) assert.ok(e.latitude >= ext.min_latitude && e.latitude <= ext.max_latitude);

  // 34 hours apart: a one-day window keeps them apart, the M6.4 is its own peak.
  const day = await get('/events/earthquake/ci38443183/footprint?window=PT24H');
  assert.equal(day.body.footprint.occurrence.peak_event_id, 'ci38443183');
  assert.ok(!day.body.footprint.occurrence.events.some((e: any) => e.event_id === 'ci38457511'));
  // The mainshock's floor at 7.0 leaves the M6.4 out.
  const floor = await get('/events/earthquake/ci38457511/footprint?min_magnitude=7');
  assert.equal(floor.body.footprint.occurrence.event_count, 1);
  assert.equal(floor.body.footprint.occurrence.minimum_magnitude, 7);
});

test('footprint refusals', async () => {
  const hail = await get('/events/severe_convective_storm?feed=noaa-spc-hail-denver&limit=1');
  const reportId = hail.body.events[0].event_id;
  const cases: Array<[string, number, string]> = [
    [`/events/severe_convective_storm/${reportId}/footprint`, 404, 'no_event_footprint'],
    ['/events/earthquake/no-such-event/footprint', 404, 'not_found'],
    ['/events/earthquake/ci38443183/footprint?window=P1M', 422, 'invalid_request'],
    ['/events/earthquake/ci38443183/footprint?window=soon', 422, 'invalid_request'],
    ['/events/earthquake/ci38443183/footprint?depth=3', 422, 'invalid_request'],
    ['/events/flood/x/footprint', 404, 'no_event_catalogue'],
  ];
  for (const [path, status, code] of cases) {
    const answer = await get(path);
    assert.equal(answer.status, status, `${path}: ${answer.text}`);
    assert.equal(answer.body.error.code, code, path);
  }
});

test('event routes are not metered', async () => {
  await get('/events/earthquake?feed=usgs-comcat-m6-california');
  assert.equal((await get('/usage')).body.units.total, 0);
});

test('every catalogue\'s default period runs from the start of its first day through the end of its last day', async () => {
  const feeds = (await get('/feeds')).body.feeds as Array<{ feed_id: string; kind: string }>;
  const catalogues = feeds.filter((f) => ['event_catalog', 'storm_report_set', 'fire_extract'].includes(f.kind));
  assert.ok(catalogues.some((f) => f.kind === 'storm_report_set'));
  for (const f of catalogues) {
    const peril = f.kind === 'event_catalog' ? 'earthquake' : f.kind === 'fire_extract' ? 'wildfire' : 'severe_convective_storm';
    const page = await get(`/events/${peril}?feed=${f.feed_id}&limit=1000`);
    assert.equal(page.status, 200, f.feed_id);
    const { from, to } = page.body.selection;
    assert.match(from, /T00:00:00\.000Z$/, `${f.feed_id} from ${from}`);
    assert.match(to, /T00:00:00\.000Z$/, `${f.feed_id} to ${to}`);
    const manifestTo = manifestOf(f.feed_id).period_of_record?.to;
    if (manifestTo) assert.ok(Date.parse(to) >= Date.parse(`${manifestTo}T00:00:00Z`) + 86_400_000, `${f.feed_id} ${to} ends before ${manifestTo} ends`);
  }
});
