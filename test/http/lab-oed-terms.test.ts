// Every loss lane applies a stored object's OED terms (issue 31 §4): an OED location, account,
// ri_info and ri_scope set, hand-made here for each lane's places (no published case covers these
// hazards), ingested, then a run naming the object. Each location has a flat deductible D and limit L
// on all its coverages (LocDed6All, LocLimit6All); the account's one policy has no terms; the
// reinsurance is one 30% quota share over the portfolio. So, independently of the module:
//   il(event) = Σ_places min(L, max(0, gul_place − D))   (a place not covering the lane's peril: 0)
//   ri(event) = 0.7 × il(event)
// checked to 1e-9 relative where the lane publishes each place's loss per event (the
// tropical-cyclone replay per storm, the flood lanes per return period); where it publishes only
// metrics (rounded to the minor unit) or field statistics (six significant figures), il ≤ gul per
// event and per place and ri = 0.7 il to those roundings. A run over points has no perspectives.
import assert from 'node:assert/strict';
import { call, eachDialect, finishedRun, sharedService, signup, waitForJob, type TestService } from '../support/service.js';

const D = 50_000;
const L = 400_000;
const QUOTA_CEDED = 0.3;

interface HandLocation { loc: string; lat: number; lon: number; perils: string; building: number; contents: number }

/** The hand-made OED set: one account, one policy without terms, a 30% quota share over the portfolio. */
function oedSet(locations: readonly HandLocation[]): FormData {
  const loc = ['PortNumber,AccNumber,LocNumber,CountryCode,Latitude,Longitude,OccupancyCode,ConstructionCode,LocPerilsCovered,BuildingTIV,ContentsTIV,LocCurrency,LocDed6All,LocLimit6All',
    ...locations.map((l) => `P1,A1,${l.loc},US,${l.lat},${l.lon},1050,5000,${l.perils},${l.building},${l.contents},USD,${D},${L}`)].join('\n');
  const parts: Record<string, string> = {
    file: loc,
    account: 'PortNumber,AccNumber,PolNumber,PolPerilsCovered\nP1,A1,POL1,AA1',
    ri_info: `ReinsNumber,CededPercent,RiskLimit,RiskAttachment,OccLimit,OccAttachment,PlacedPercent,InuringPriority,ReinsType,RiskLevel\n1,${QUOTA_CEDED},0,0,0,0,1,1,QS,`,
    ri_scope: 'ReinsNumber,PortNumber,AccNumber,PolNumber,LocNumber,CededPercent\n1,P1,,,,',
  };
  const data = new FormData();
  for (const [name, text] of Object.entries(parts)) data.append(name, new Blob([text + '\n'], { type: 'text/csv' }), `${name}.csv`);
  return data;
}

async function objectOf(svc: TestService, key: string, locations: readonly HandLocation[]): Promise<string> {
  const accepted = await call(svc.api, 'POST', '/ingest', { key, raw: oedSet(locations) });
  assert.equal(accepted.status, 202, accepted.text);
  const job = await waitForJob(svc.api, key, accepted.headers.get('location')!);
  assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
  return job.result.objects[0].id;
}

async function run(svc: TestService, key: string, body: Record<string, unknown>): Promise<any> {
  const submitted = await call(svc.urls.lab, 'POST', '/runs', { key, body });
  assert.ok([200, 202].includes(submitted.status), submitted.text);
  const done = await finishedRun(svc, key, `/runs/${submitted.body.id}`, 300_000);
  assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
  return done;
}

const insuredOf = (gul: number) => Math.min(L, Math.max(0, gul - D));
const close = (a: number, b: number, rel: number, abs = 0) => Math.abs(a - b) <= Math.max(abs, rel * Math.max(Math.abs(a), Math.abs(b)));

/** The terms stated: the lane's peril, the coverage rule, reinsured. */
function assertStated(result: any, peril: string): void {
  assert.deepEqual(result.terms.perils, [peril]);
  assert.equal(result.terms.reinsurance, true);
  assert.match(result.terms.coverages, /building \(1\) and contents \(3\)/);
  // The OED specification read: oed_spec, or an entry of the earthquake lanes' inputs list.
  assert.equal((result.oed_spec ?? result.inputs.find((i: any) => i.input === 'peril_groups')).feed_id, 'oed-spec');
}

/** il ≤ gul per event and per place and ri = 0.7 il, over lab-metrics/1 blocks (money rounded to cents). */
function assertMetricsViews(result: any): void {
  const { metrics, perspectives: { il, ri } } = result;
  assert.equal(il.schema, 'lab-metrics/1');
  assert.equal(ri.schema, 'lab-metrics/1');
  assert.equal(il.perspective, 'insured');
  const cent = 0.01;
  const gulOf = new Map(metrics.elt.map((e: any) => [e.event_id, e.loss]));
  for (const e of il.elt) assert.ok(e.loss <= (gulOf.get(e.event_id) as number) + cent, `event ${e.event_id}: il ${e.loss} > gul`);
  const riOf = new Map(ri.elt.map((e: any) => [e.event_id, e.loss]));
  for (const e of il.elt) assert.ok(close(riOf.get(e.event_id) as number ?? 0, (1 - QUOTA_CEDED) * e.loss, 0, cent), `event ${e.event_id}: ri ${riOf.get(e.event_id)} vs 0.7 il ${e.loss}`);
  for (const p of il.places) assert.ok(p.aal <= metrics.places.find((g: any) => g.index === p.index).aal + cent, `place ${p.index}`);
  assert.ok(il.average_annual_loss.mean > 0 && il.average_annual_loss.mean < metrics.average_annual_loss.mean);
  assert.ok(close(ri.average_annual_loss.mean, (1 - QUOTA_CEDED) * il.average_annual_loss.mean, 0, cent));
}

// Tropical cyclone: Andrew (1992) over south Florida; the third location covers earthquake only.
const FLORIDA: HandLocation[] = [
  { loc: 'L1', lat: 25.47, lon: -80.48, perils: 'WW1', building: 800_000, contents: 200_000 },
  { loc: 'L2', lat: 25.76, lon: -80.19, perils: 'WTC', building: 4_000_000, contents: 1_000_000 },
  { loc: 'L3', lat: 25.6, lon: -80.35, perils: 'QEQ', building: 2_000_000, contents: 0 },
];

eachDialect('tropical-cyclone history: the object\'s OED terms storm by storm, il recomputed per storm to 1e-9', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const objectId = await objectOf(svc, key, FLORIDA);
  const done = await run(svc, key, { model: 'climada-tc-history', hazard: { basin: 'NA', years: [1992], storms: ['ANDREW'] }, exposure: { object_id: objectId } });
  const r = done.result;
  assertStated(r, 'WTC');
  const storm = r.storms[0];
  assert.ok(storm.loss > 0);
  const gulAt = (i: number) => storm.places.find((p: any) => p.index === i)?.loss ?? 0;
  assert.ok(gulAt(2) > 0, 'the earthquake-only location has a ground-up loss');
  const expected = insuredOf(gulAt(0)) + insuredOf(gulAt(1));
  const il = r.perspectives.il.storms[0].loss;
  assert.ok(close(il, expected, 1e-9), `il ${il} vs ${expected}`);
  assert.ok(close(r.perspectives.ri.storms[0].loss, (1 - QUOTA_CEDED) * expected, 1e-9));
  assert.ok(close(r.perspectives.il.loss, expected, 1e-9));
  assert.deepEqual(r.perspectives.il.seasons.map((s: any) => s.season), [1992]);
  // Per place: insured within ground up, net within insured; the place outside the peril insures nothing.
  for (const p of r.places) {
    assert.ok(p.insured <= p.loss * (1 + 1e-12) && p.net <= p.insured * (1 + 1e-12), JSON.stringify(p));
    if (p.index < 2) assert.ok(close(p.insured, insuredOf(p.loss), 1e-9));
  }
  assert.equal(r.places[2].insured, 0);
  // Over points: no terms, no perspectives.
  const points = await run(svc, key, { model: 'climada-tc-history', hazard: { basin: 'NA', years: [1992], storms: ['ANDREW'] }, exposure: { points: FLORIDA.map((l) => ({ lat: l.lat, lon: l.lon, value: l.building + l.contents })) } });
  assert.equal(points.result.perspectives, undefined);
  assert.equal(points.result.terms, undefined);
  assert.equal(points.result.places[0].insured, undefined);
  assert.equal(points.result.storms[0].loss, storm.loss, 'the ground up is the same over points');
});

eachDialect('tropical-cyclone synthetic: il and ri as lab-metrics/1 with their sensitivity; their ORD tables served', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const objectId = await objectOf(svc, key, FLORIDA);
  const done = await run(svc, key, { model: 'climada-tc-synthetic', hazard: { basin: 'NA', years: 300 }, exposure: { object_id: objectId } });
  const r = done.result;
  assertStated(r, 'WTC');
  assertMetricsViews(r);
  assert.equal(r.perspectives.il.sensitivity.variants.length, r.metrics.sensitivity.variants.length);
  assert.equal(r.perspectives.il.places.find((p: any) => p.index === 2).aal, 0, 'the earthquake-only location insures no wind');
  const melt = await call(svc.urls.lab, 'GET', `/runs/${done.id}?format=csv&table=melt&perspective=il`, { key });
  assert.equal(melt.status, 200, melt.text);
  const rows = melt.text.trim().split('\n');
  assert.equal(rows.length - 1, r.perspectives.il.elt.length);
});

// Earthquake: the Northridge area; the third location covers wind only.
const NORTHRIDGE: HandLocation[] = [
  { loc: 'L1', lat: 34.2, lon: -118.5, perils: 'QQ1', building: 1_000_000, contents: 200_000 },
  { loc: 'L2', lat: 34.05, lon: -118.25, perils: 'QEQ', building: 1_600_000, contents: 400_000 },
  { loc: 'L3', lat: 34.1, lon: -118.4, perils: 'WTC', building: 1_000_000, contents: 0 },
];
const RUPTURE = { magnitude: 6.7, lat: 34.213, lon: -118.537, depth_km: 17.5, strike: 122, dip: 40, rake: 101 };

/** One event over fields: il ≤ gul and ri = 0.7 il in the aggregate (six significant figures), per place too. */
function assertFieldViews(r: any): void {
  const { il, ri } = r.perspectives;
  assert.equal(il.perspective, 'insured');
  const six = 1e-5;
  assert.ok(il.aggregate.mean > 0 && il.aggregate.mean <= r.aggregate.mean * (1 + six));
  for (const k of ['p5', 'p50', 'p95']) assert.ok(il.aggregate.percentiles[k] <= r.aggregate.percentiles[k] * (1 + six), k);
  assert.ok(close(ri.aggregate.mean, (1 - QUOTA_CEDED) * il.aggregate.mean, six));
  for (const p of r.places) {
    assert.ok(p.insured <= p.loss.mean * (1 + six) && p.net <= p.insured * (1 + six), JSON.stringify(p));
    // The limit bounds a place's insured loss in every field, so its mean too.
    assert.ok(p.insured <= L * (1 + six));
  }
  assert.equal(r.places.find((p: any) => p.index === 2).insured, 0, 'the wind-only location insures no shaking');
}

eachDialect('scenario and historical earthquakes: the terms field by field; over points no perspectives', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const objectId = await objectOf(svc, key, NORTHRIDGE);
  const scenario = await run(svc, key, { model: 'openquake-scenario-eq', rupture: RUPTURE, exposure: { object_id: objectId } });
  assertStated(scenario.result, 'QEQ');
  assertFieldViews(scenario.result);
  const historical = await run(svc, key, { model: 'openquake-historical-eq', event: 'northridge-1994', exposure: { object_id: objectId } });
  assertStated(historical.result, 'QEQ');
  assertFieldViews(historical.result);
  const points = await run(svc, key, { model: 'openquake-scenario-eq', rupture: RUPTURE, exposure: { points: NORTHRIDGE.map((l) => ({ lat: l.lat, lon: l.lon, value: l.building + l.contents })) } });
  assert.equal(points.result.perspectives, undefined);
  assert.equal(points.result.places[0].insured, undefined);
  assert.deepEqual(points.result.aggregate, scenario.result.aggregate, 'the ground up is the same over points');
});

eachDialect('probabilistic earthquake (ESHM20): il and ri as lab-metrics/1, rupture by rupture', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const objectId = await objectOf(svc, key, [
    { loc: 'L1', lat: 38.42, lon: 27.14, perils: 'QQ1', building: 1_500_000, contents: 500_000 },
    { loc: 'L2', lat: 41.01, lon: 28.97, perils: 'QEQ', building: 800_000, contents: 200_000 },
    { loc: 'L3', lat: 39.93, lon: 32.86, perils: 'ORF', building: 1_000_000, contents: 0 },
  ]);
  const done = await run(svc, key, { model: 'openquake-eshm20-eq', building_class: 'rc_infilled_frame_moderate_code_4', exposure: { object_id: objectId } });
  assertStated(done.result, 'QEQ');
  assertMetricsViews(done.result);
  assert.equal(done.result.perspectives.il.places.find((p: any) => p.index === 2)?.aal ?? 0, 0, 'the flood-only location insures no shaking');
});

eachDialect('river flood: the terms per return period, recomputed to 1e-9; AAL by the same trapezoid', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  // A cell of the San Salvador focus area and a wet cell of the Djibouti map (as the flood lane's test).
  const objectId = await objectOf(svc, key, [
    { loc: 'L1', lat: 13.6905, lon: -89.1995, perils: 'OO1', building: 400_000, contents: 100_000 },
    { loc: 'L2', lat: 11.957, lon: 42.2912, perils: 'ORF', building: 3_000_000, contents: 1_000_000 },
  ]);
  const done = await run(svc, key, { model: 'river-flood', exposure: { object_id: objectId } });
  const r = done.result;
  assertStated(r, 'ORF');
  const { il, ri } = r.perspectives;
  assert.ok(il.return_period_losses.length > 0);
  for (const { return_period: rp, loss } of il.return_period_losses) {
    const expected = r.places.reduce((s: number, p: any) => s + insuredOf(p.losses.find((x: any) => x.return_period === rp).loss), 0);
    assert.ok(close(loss, expected, 1e-9, 1e-9), `rp ${rp}: il ${loss} vs ${expected}`);
    assert.ok(close(ri.return_period_losses.find((x: any) => x.return_period === rp).loss, (1 - QUOTA_CEDED) * expected, 1e-9, 1e-9));
    assert.ok(loss <= r.return_period_losses.find((x: any) => x.return_period === rp).loss);
  }
  assert.ok(il.aal <= r.aal && ri.aal <= il.aal);
  for (const p of r.places) {
    assert.ok(p.insured.aal <= p.aal * (1 + 1e-12) && p.net.aal <= p.insured.aal * (1 + 1e-12));
    for (const x of p.insured.losses) assert.ok(close(x.loss, insuredOf(p.losses.find((g: any) => g.return_period === x.return_period).loss), 1e-9, 1e-9));
  }
});
