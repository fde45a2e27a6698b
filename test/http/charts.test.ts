// Charts over real HTTP: a backtest's payouts, a lab run's EP curves and an object's locations map,
// each as SVG (well-formed, its marks matching the JSON it is drawn from, the same bytes twice, an
// ETag answered 304) and as PNG; linked from the JSON; 404 across accounts; 409 for a run that has
// not succeeded.
import assert from 'node:assert/strict';
import { call, eachDialect, envelopeFaults, sharedService, signup, startService, waitForJob, USER_AGENT, type TestService } from '../support/service.js';
import { ACCEPTANCE_BODIES } from '../support/acceptance.js';
import { ingestedObject } from '../support/objects.js';
import { form, largeSchedule } from '../support/schedules.js';
import { classed, findAll, parseXml, type XmlElement } from '../support/xml.js';
import { keepArtifact } from '../support/artifacts.js';

const MODEL = 'oasislmf-windstorm';
const POINTS = [
  { lat: 52.74, lon: -0.91, value: 1_000_000 },
  { lat: 52.76, lon: -0.89, value: 250_000 },
];

/** A GET whose body is bytes (a PNG), with its headers. */
async function fetchBytes(base: string, path: string, key: string, headers: Record<string, string> = {}) {
  const response = await fetch(base + path, { headers: { 'user-agent': USER_AGENT, authorization: `Bearer ${key}`, ...headers } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** An SVG answer: 200, its media type, and the document read strictly. */
function svgOf(answer: { status: number; headers: Headers; text: string }): XmlElement {
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.headers.get('content-type'), 'image/svg+xml; charset=utf-8');
  assert.equal(answer.headers.get('content-security-policy'), "default-src 'none'");
  assert.match(answer.headers.get('etag')!, /^"[0-9a-f]{64}"$/);
  const root = parseXml(answer.text);
  assert.equal(root.name, 'svg');
  return root;
}

/** The PNG of a chart: its signature, and the SVG's width and height. */
async function assertPng(base: string, path: string, key: string, svg: XmlElement, keep: string | null = null) {
  const png = await fetchBytes(base, path, key);
  assert.equal(png.status, 200, png.bytes.toString('utf8'));
  assert.equal(png.headers.get('content-type'), 'image/png');
  assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.deepEqual([png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)], [Number(svg.attrs.width), Number(svg.attrs.height)]);
  // Kept to be looked at (artifacts/charts/), once: the SQLite run's.
  if (keep) keepArtifact('charts', keep, png.bytes);
}

/** A heading as read: its lines (a long one wraps) joined. */
const titleOf = (root: XmlElement) => findAll(root, classed('title')).map((t) => t.text).join(' ');

/** The same bytes twice, and If-None-Match with their ETag answered 304 with no body. */
async function assertStable(base: string, path: string, key: string) {
  const first = await fetchBytes(base, path, key);
  const second = await fetchBytes(base, path, key);
  assert.ok(first.bytes.equals(second.bytes), `${path} draws the same bytes twice`);
  const etag = first.headers.get('etag')!;
  const again = await fetchBytes(base, path, key, { 'if-none-match': etag });
  assert.equal(again.status, 304);
  assert.equal(again.bytes.length, 0);
}

function assertRefused(answer: { status: number; body: any; text: string }, status: number, code: string) {
  assert.equal(answer.status, status, answer.text);
  assert.deepEqual(envelopeFaults(answer as never), []);
  assert.equal(answer.body.error.code, code);
}

async function structureOf(svc: TestService, key: string, objectPath: string, body: unknown) {
  assert.equal((await call(svc.api, 'PATCH', objectPath, { key, body })).status, 200);
  const cut = await call(svc.api, 'POST', `${objectPath}/structures`, { key });
  assert.equal(cut.status, 201, cut.text);
  return cut.body;
}

eachDialect('a backtest chart: one bar or shaded band per year of the artifact, its lines, linked from the artifact', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const objectPath = await ingestedObject(svc, key);
  const structure = await structureOf(svc, key, objectPath, ACCEPTANCE_BODIES.earthquake);
  const accepted = await call(svc.api, 'POST', `${structure.links.self}/backtest`, { key });
  const job = await waitForJob(svc.api, key, accepted.headers.get('location')!, 60_000);
  assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
  const artifact = job.result;
  assert.equal(artifact.links.chart, `/backtests/${artifact.id}/chart.svg`);
  assert.equal((await call(svc.api, 'GET', artifact.links.self, { key })).body.links.chart, artifact.links.chart);

  const root = svgOf(await call(svc.api, 'GET', artifact.links.chart, { key }));
  const groups = findAll(root, classed('year'));
  const years: any[] = artifact.years;
  assert.deepEqual(groups.map((g) => Number(g.attrs['data-year'])), years.map((y) => y.year));
  assert.equal(years.length, artifact.window.to_year - artifact.window.from_year + 1);
  groups.forEach((g, i) => {
    const year = years[i];
    assert.equal(g.attrs['data-record'], year.record);
    const [bar] = findAll(g, classed('bar'));
    if (year.record === 'missing') {
      assert.equal(bar, undefined);
      assert.equal(findAll(g, classed('missing')).length, 1);
    } else {
      assert.equal(Number(bar!.attrs['data-payout']), year.record === 'partial' ? year.payout_on_partial_record ?? 0 : year.payout);
    }
  });
  const [limit] = findAll(root, classed('line', 'limit'));
  assert.equal(Number(limit!.attrs['data-value']), artifact.structure.financial_structure.limit);
  assert.match(titleOf(root), new RegExp(`^earthquake backtest: ${artifact.feed.feed_id} ${artifact.feed.version}`));
  await assertStable(svc.api, artifact.links.chart, key);
  await assertPng(svc.api, `/backtests/${artifact.id}/chart.png`, key, root, dialect === 'sqlite' ? 'backtest-earthquake.png' : null);

  // Another account's backtest, and one that does not exist, are not found.
  const other = await signup(svc.api);
  assertRefused(await call(svc.api, 'GET', artifact.links.chart, { key: other.key }), 404, 'not_found');
  assertRefused(await call(svc.api, 'GET', `/backtests/${artifact.id}/chart.png`, { key: other.key }), 404, 'not_found');
  assertRefused(await call(svc.api, 'GET', '/backtests/bt_nothing/chart.svg', { key }), 404, 'not_found');
});

eachDialect('an object\'s map: its locations, with the box of a structure cut from it', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const objectPath = await ingestedObject(svc, key);
  const id = objectPath.split('/').pop()!;
  const page = await call(svc.api, 'GET', `${objectPath}/locations`, { key });
  assert.equal(page.body.links.map, `${objectPath}/map.svg`);

  const plain = svgOf(await call(svc.api, 'GET', page.body.links.map, { key }));
  const dots = (root: XmlElement) => findAll(findAll(root, classed('locations'))[0]!, (e) => e.name === 'circle');
  assert.equal(dots(plain).length, page.body.locations.length);
  // Natural Earth's land under them, and a legend of their values in the schedule's currency.
  assert.equal(findAll(plain, classed('land')).length, 1);
  assert.match(findAll(findAll(plain, classed('legend'))[0]!, (e) => e.name === 'text')[0]!.text, /^Total value \([A-Z]{3}\):$/);
  assert.equal(findAll(plain, classed('region')).length, 0);
  assert.match(plain.children.find((c) => c.name === 'desc')!.text, /^2 of 2 locations drawn\./);

  const box = await structureOf(svc, key, objectPath, ACCEPTANCE_BODIES.earthquake);
  const boxed = svgOf(await call(svc.api, 'GET', `${objectPath}/map.svg?structure=${box.id}`, { key }));
  const [region] = findAll(boxed, classed('region', 'box'));
  assert.ok(region, 'the structure\'s box is drawn');
  assert.match(titleOf(boxed), new RegExp(`^Locations of ${id} and the box of ${box.id}$`));
  // Each location lies inside the box as drawn (the acceptance box holds the schedule's points).
  const corners = region!.attrs.points!.split(' ').map((p) => p.split(',').map(Number));
  const xs = corners.map((c) => c[0]!);
  const ys = corners.map((c) => c[1]!);
  for (const c of dots(boxed)) {
    assert.ok(Number(c.attrs.cx) > Math.min(...xs) && Number(c.attrs.cx) < Math.max(...xs) && Number(c.attrs.cy) > Math.min(...ys) && Number(c.attrs.cy) < Math.max(...ys));
  }
  await assertStable(svc.api, `${objectPath}/map.svg?structure=${box.id}`, key);
  await assertPng(svc.api, `${objectPath}/map.png?structure=${box.id}`, key, boxed, dialect === 'sqlite' ? 'map-with-box.png' : null);

  // A structure with no region (a gauge's index) draws the locations and says why no region is drawn.
  const flood = await structureOf(svc, key, objectPath, ACCEPTANCE_BODIES.flood);
  const gauge = svgOf(await call(svc.api, 'GET', `${objectPath}/map.svg?structure=${flood.id}`, { key }));
  assert.equal(findAll(gauge, classed('region')).length, 0);
  assert.match(gauge.children.find((c) => c.name === 'desc')!.text, new RegExp(`Structure ${flood.id} has no region to draw`));

  // A structure of another object of the same account is refused; anyone else's is not found.
  const otherObject = await ingestedObject(svc, key);
  assertRefused(await call(svc.api, 'GET', `${otherObject}/map.svg?structure=${box.id}`, { key }), 422, 'invalid_request');
  const other = await signup(svc.api);
  assertRefused(await call(svc.api, 'GET', `${objectPath}/map.svg`, { key: other.key }), 404, 'not_found');
  const theirs = await ingestedObject(svc, other.key);
  assertRefused(await call(svc.api, 'GET', `${theirs}/map.svg?structure=${box.id}`, { key: other.key }), 404, 'not_found');
  assertRefused(await call(svc.api, 'GET', `${objectPath}/map.svg?structure=str_nothing`, { key }), 404, 'not_found');
  assertRefused(await call(svc.api, 'GET', `${objectPath}/map.svg?zoom=2`, { key }), 422, 'invalid_request');
});

eachDialect('a map of more locations than its cap draws one in every 2^k, over the whole schedule, and says so', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const accepted = await call(svc.api, 'POST', '/ingest', { key, raw: form(largeSchedule(24_000), { type: 'text/csv', currency: 'USD' }) });
  const job = await waitForJob(svc.api, key, accepted.headers.get('location')!, 120_000);
  assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
  const root = svgOf(await call(svc.api, 'GET', `${job.result.objects[0].links.self as string}/map.svg`, { key }));
  assert.equal(findAll(findAll(root, classed('locations'))[0]!, (e) => e.name === 'circle').length, 12_000);
  assert.ok(root.children.find((c) => c.name === 'desc')!.text.startsWith('12000 of 24000 locations drawn (one in 2, in schedule order: at most 20000 are drawn). Points coloured by total value (USD)'));
});

eachDialect('a lab run\'s EP curves: OEP and AEP with TVaR at each published return period, linked once succeeded', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const submitted = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, samples: 0, exposure: { points: POINTS } } });
  assert.ok([200, 202].includes(submitted.status), submitted.text);
  const path = `/runs/${submitted.body.id as string}`;
  if (submitted.body.status !== 'succeeded') {
    assert.equal(submitted.body.links.chart, undefined, 'no chart is linked before there are results');
    await waitForJob(svc.api, key, new URL(submitted.body.links.job).pathname, 120_000);
  }
  const run = (await call(svc.urls.lab, 'GET', path, { key })).body;
  assert.equal(run.status, 'succeeded');
  assert.equal(run.links.chart, `${path}/chart.svg`);

  const root = svgOf(await call(svc.urls.lab, 'GET', run.links.chart, { key }));
  const metrics = run.result.metrics;
  for (const [kind, points, member] of [['oep', metrics.exceedance.oep, 'loss'], ['oep-tvar', metrics.exceedance.oep, 'tvar'], ['aep', metrics.exceedance.aep, 'loss'], ['aep-tvar', metrics.exceedance.aep, 'tvar']] as const) {
    const [curve] = findAll(root, classed('curve', kind));
    const drawn = findAll(curve!, classed('point')).map((p) => [Number(p.attrs['data-return-period']), Number(p.attrs['data-loss'])]);
    assert.deepEqual(drawn, points.map((p: any) => [p.return_period, p[member]]), kind);
  }
  assert.ok(findAll(root, classed('point')).length > 0, 'the run publishes some return periods');
  await assertStable(svc.urls.lab, run.links.chart, key);
  await assertPng(svc.urls.lab, `${path}/chart.png`, key, root, dialect === 'sqlite' ? 'ep-curve.png' : null);
  // il and ri need terms; a perspective not named is refused by the schema.
  assertRefused(await call(svc.urls.lab, 'GET', `${path}/chart.svg?perspective=il`, { key }), 422, 'invalid_request');
  assertRefused(await call(svc.urls.lab, 'GET', `${path}/chart.svg?perspective=net`, { key }), 422, 'invalid_request');

  const other = await signup(svc.api);
  assertRefused(await call(svc.urls.lab, 'GET', run.links.chart, { key: other.key }), 404, 'not_found');
  assertRefused(await call(svc.urls.lab, 'GET', '/runs/run_nothing/chart.svg', { key }), 404, 'not_found');
});

eachDialect('a run that has not succeeded has no chart: 409 run_not_succeeded', async (dialect) => {
  // No worker: the run stays queued.
  const svc = await startService(dialect, { CATRISK_IN_PROCESS_WORKERS: 'false' });
  try {
    const { key } = await signup(svc.api);
    const submitted = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, samples: 0, exposure: { points: POINTS } } });
    assert.equal(submitted.status, 202, submitted.text);
    assert.equal(submitted.body.links.chart, undefined);
    for (const format of ['svg', 'png']) {
      const refused = await call(svc.urls.lab, 'GET', `/runs/${submitted.body.id as string}/chart.${format}`, { key });
      assertRefused(refused, 409, 'run_not_succeeded');
      assert.match(refused.body.error.message, /is queued/);
      assert.equal(refused.headers.get('retry-after'), '1');
    }
  } finally {
    await svc.close();
  }
});
