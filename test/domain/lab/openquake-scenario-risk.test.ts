// OpenQuake's scenario risk over a user's own files, against OpenQuake's own QA expectations for
// scenario risk with given ground-motion fields (gem/oq-engine, openquake/qa_tests_data/
// scenario_risk/case_1), and hand-worked small cases for every rule: values by cost type, the
// deductible and limit, clipping at the function's ends, site association, minimum asset loss,
// the refusals, and the draws when covLR > 0 (seeded, so only their law is checked, not
// OpenQuake's random numbers).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseOqExposure } from '../../../src/feeds/parsers/oq-exposure.js';
import { parseOqVulnerability } from '../../../src/feeds/parsers/oq-vulnerability.js';
import { parseOqGmfs } from '../../../src/feeds/parsers/oq-gmfs.js';
import { scenarioRisk, type ScenarioRiskOptions } from '../../../src/domain/lab/lanes/openquake-scenario-risk/scenario-risk.js';
import { lossRatio, meanAndCov } from '../../../src/domain/lab/lanes/openquake-scenario-risk/loss-ratios.js';
import { seededRandom } from '../../../src/domain/stats/random.js';
import { SiteIndex } from '../../../src/domain/lab/lanes/openquake-scenario-risk/asset-values.js';
import { haversineKm } from '../../../src/domain/geo.js';
import { openquakeScenarioRisk, readScenarioRiskSpec, runScenarioRiskLane, type ScenarioRiskSpec } from '../../../src/domain/lab/lanes/openquake-scenario-risk/lane.js';
import { SCENARIO_RISK_TABLES } from '../../../src/domain/lab/lanes/openquake-scenario-risk/exports.js';
import { csvTable } from '../../../src/domain/exports/csv.js';
import { modelOf } from '../../../src/domain/lab/lane.js';
import { CASE1_EXPOSURE, CASE1_GMFS, CASE1_SITES, CASE1_VULNERABILITY } from '../../support/openquake-case1.js';
import type { OqVulnerabilityModel } from '../../../src/domain/lab/lanes/openquake-scenario-risk/oq-inputs.js';

/** Relative closeness, as numpy's assert_allclose(rtol). */
function close(actual: number, expected: number, rtol: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= rtol * Math.abs(expected), `${what}: ${actual} is not ${expected} within ${rtol}`);
}

// ---- QA case_1, from the published files (test/support/openquake-case1.ts) ------------------------

const MEAN: ScenarioRiskOptions = { ignore_covs: false, master_seed: 42, asset_correlation: 0 };

function case1(options: Partial<ScenarioRiskOptions> = {}) {
  const r = scenarioRisk(
    parseOqExposure(CASE1_EXPOSURE),
    new Map([['structural', parseOqVulnerability(CASE1_VULNERABILITY)]]),
    parseOqGmfs(CASE1_GMFS, CASE1_SITES),
    { ...MEAN, ...options },
  );
  assert.ok(r.ok, JSON.stringify(!r.ok && r.refusal));
  return r.value;
}

test('QA case_1: aggrisk and risk_by_event as expected/agg.csv and expected/risk_by_event.csv', () => {
  // job_risk.ini: minimum_asset_loss = {"structural": 200.0}. expected/agg.csv (engine 3.13):
  // structural,4.12367E+02,2.06184E-01. expected/risk_by_event.csv (engine 3.20), nine events,
  // event 7 (a2's loss 198.58 < 200) dropped. Both written with six significant digits: rtol 1e-5.
  const r = case1({ minimum_asset_loss: { structural: 200 } });
  assert.equal(r.events, 10);
  const [agg] = r.aggrisk;
  assert.equal(agg!.loss_type, 'structural');
  close(agg!.loss_value, 412.367, 1e-5, 'loss_value');
  close(agg!.loss_ratio, 0.206184, 1e-5, 'loss_ratio');
  const expected: [number, number][] = [
    [5, 252.5], [1, 328.829], [4, 342.458], [3, 374.689], [2, 409.643], [6, 481.053], [9, 503.661], [8, 579.551], [0, 851.288],
  ];
  const structural = r.risk_by_event.filter((x) => x.loss_type === 'structural');
  assert.deepEqual(structural.map((x) => x.event_id), expected.map(([e]) => e));
  structural.forEach((x, i) => close(x.loss, expected[i]![1], 1e-5, `event ${x.event_id}`));
});

test('QA case_1 before minimum_asset_loss: a2\'s average loss and insured loss as expected/asset-loss.csv and asset-ins.csv', () => {
  // The engine's earlier case_1 job had no minimum_asset_loss; its expected/asset-loss.csv reads
  // structural,USD,a2,4.3222545E+02,1.8686446E+02 and expected/asset-ins.csv (deductible 350,
  // insuranceLimit 800, absolute) structural,USD,a2,1.0485958E+02,1.4536984E+02 (mean, standard
  // deviation over the ten events). Eight significant digits: rtol 1e-7.
  const r = case1();
  const [avg] = r.avg_losses;
  assert.equal(avg!.asset_id, 'a2');
  close(avg!.mean, 432.22545, 1e-7, 'mean');
  close(avg!.stddev!, 186.86446, 1e-7, 'stddev');
  const [ins] = r.insured_losses;
  close(ins!.mean, 104.85958, 1e-7, 'insured mean');
  close(ins!.stddev!, 145.36984, 1e-7, 'insured stddev');
  const insAgg = r.aggrisk.find((x) => x.loss_type === 'structural_ins')!;
  close(insAgg.loss_value, 104.85958, 1e-7, 'structural_ins loss_value');
  assert.equal(r.sampled, false);
});

// ---- Hand-worked rules ---------------------------------------------------------------------------
// Hand-made small inputs, written here: one function (PGA levels 0.1 0.2 0.4, mean ratios 0.1 0.2
// 0.6), two sites 1 km apart and a third far away.

const VULN = (dist = 'LN', covs = '0 0 0', imt = 'PGA') => `<nrml xmlns="http://openquake.org/xmlns/nrml/0.5">
  <vulnerabilityModel id="v" assetCategory="buildings" lossCategory="structural">
    <vulnerabilityFunction id="W" dist="${dist}">
      <imls imt="${imt}">0.1 0.2 0.4</imls><meanLRs>0.1 0.2 0.6</meanLRs><covLRs>${covs}</covLRs>
    </vulnerabilityFunction>
  </vulnerabilityModel></nrml>`;

function exposure(costTypes: string, assets: string, conversions = ''): string {
  return `<nrml xmlns="http://openquake.org/xmlns/nrml/0.5"><exposureModel id="e" category="buildings">
    <description>hand-made</description>
    <conversions>${conversions}<costTypes>${costTypes}</costTypes></conversions>
    <occupancyPeriods>day night</occupancyPeriods>
    <assets>${assets}</assets></exposureModel></nrml>`;
}

const SITES = 'site_id,lon,lat\n0,10.0,45.0\n1,10.0127,45.0\n2,12.0,45.0\n';

function run(exp: string, gmfs: string, options: Partial<ScenarioRiskOptions> = {}, vuln = VULN()) {
  return scenarioRisk(parseOqExposure(exp), new Map([['structural', parseOqVulnerability(vuln)]]), parseOqGmfs(gmfs, SITES), { ...MEAN, ...options });
}

test('values by cost type: aggregated, per_asset × number, per_area × area (× number when the area is per asset)', () => {
  const gmfs = 'sid,eid,gmv_PGA\n0,0,0.3\n';
  // At PGA 0.3 the mean ratio is 0.2 + (0.6 - 0.2) × 0.5 = 0.4.
  const asset = (id: string, extra: string, value: number) => `<asset id="${id}" taxonomy="W" ${extra}><location lon="10" lat="45"/><costs><cost type="structural" value="${value}"/></costs></asset>`;
  const cases: [string, string, string, number][] = [
    ['aggregated', '', 'number="5"', 1000],
    ['per_asset', '', 'number="5"', 5000],
    ['per_area', '<area type="aggregated" unit="SQM"/>', 'number="5" area="20"', 20000],
    ['per_area', '<area type="per_asset" unit="SQM"/>', 'number="5" area="20"', 100000],
  ];
  for (const [type, conv, attrs, value] of cases) {
    const r = run(exposure(`<costType name="structural" type="${type}" unit="EUR"/>`, asset('a', attrs, 1000), conv), gmfs);
    assert.ok(r.ok);
    assert.equal(r.value.aggrisk[0]!.exposed_value, value, `${type} ${conv}`);
    close(r.value.avg_losses[0]!.mean, value * 0.4, 1e-12, `${type} loss`);
  }
});

test('a function read at its ends: 0 below the first level, held at the last above it', () => {
  const exp = exposure('<costType name="structural" type="aggregated" unit="EUR"/>', '<asset id="a" taxonomy="W"><location lon="10" lat="45"/><costs><cost type="structural" value="100"/></costs></asset>');
  const r = run(exp, 'sid,eid,gmv_PGA\n0,0,0.05\n0,1,0.1\n0,2,2.5\n');
  assert.ok(r.ok);
  // Event 0: below 0.1, no loss; event 1: 100 × 0.1; event 2: clipped to 0.4, 100 × 0.6.
  assert.deepEqual(r.value.risk_by_event.map((x) => [x.event_id, x.loss]), [[1, 10], [2, 60]]);
  close(r.value.aggrisk[0]!.loss_value, 70 / 3, 1e-12, 'mean over the three events');
});

test('site association: the closest site within asset_hazard_distance (15 km by default); an asset beyond it is discarded', () => {
  const asset = (id: string, lon: number) => `<asset id="${id}" taxonomy="W"><location lon="${lon}" lat="45"/><costs><cost type="structural" value="100"/></costs></asset>`;
  // a: on site 0; b: 0.4 km from site 1 (1 km east of site 0), so site 1; c: 40 km from every site.
  const exp = exposure('<costType name="structural" type="aggregated" unit="EUR"/>', asset('a', 10) + asset('b', 10.0178) + asset('c', 10.5));
  const r = run(exp, 'sid,eid,gmv_PGA\n0,0,0.2\n1,0,0.4\n2,0,0.4\n');
  assert.ok(r.ok);
  assert.deepEqual(r.value.assets, { total: 3, associated: 2, discarded: 1, discarded_ids: ['c'], without_cost: {} });
  assert.deepEqual(r.value.avg_losses.map((x) => [x.asset_id, x.mean]), [['a', 20], ['b', 60]]);
  const wide = run(exp, 'sid,eid,gmv_PGA\n0,0,0.2\n1,0,0.4\n2,0,0.4\n', { asset_hazard_distance_km: 50 });
  assert.ok(wide.ok);
  assert.equal(wide.value.assets.associated, 3);
});

test('minimum_asset_loss drops a loss not above it; the dropped event still counts in the mean', () => {
  const exp = exposure('<costType name="structural" type="aggregated" unit="EUR"/>', '<asset id="a" taxonomy="W"><location lon="10" lat="45"/><costs><cost type="structural" value="100"/></costs></asset>');
  const r = run(exp, 'sid,eid,gmv_PGA\n0,0,0.2\n0,1,0.4\n', { minimum_asset_loss: { structural: 20 } });
  assert.ok(r.ok);
  // Event 0's loss is 20, not above 20: dropped; event 1's is 60.
  assert.deepEqual(r.value.risk_by_event.map((x) => x.event_id), [1]);
  assert.equal(r.value.aggrisk[0]!.loss_value, 30);
});

test('insured loss: a relative deductible and limit are fractions of the value', () => {
  const exp = exposure('<costType name="structural" type="per_asset" unit="EUR"/>',
    '<asset id="a" taxonomy="W" number="2"><location lon="10" lat="45"/><costs><cost type="structural" value="500" deductible="0.1" insuranceLimit="0.5"/></costs></asset>',
    '<deductible isAbsolute="false"/><insuranceLimit isAbsolute="false"/>');
  // Value 1000; deductible 100, limit 500. Losses 200 (PGA 0.2), 400 (0.3), 600 (0.4): insured 100, 300, 400.
  const r = run(exp, 'sid,eid,gmv_PGA\n0,0,0.2\n0,1,0.3\n0,2,0.4\n');
  assert.ok(r.ok);
  const ins = r.value.risk_by_event.filter((x) => x.loss_type === 'structural_ins').map((x) => [x.event_id, x.loss]);
  assert.deepEqual(ins.map(([e, l]) => [e, Math.round(l! * 1e9) / 1e9]), [[0, 100], [1, 300], [2, 400]]);
  close(r.value.insured_losses[0]!.mean, 800 / 3, 1e-12, 'insured mean');
});

test('an SA measure is matched whatever its period\'s spelling: SA(0.30) reads the gmv_SA(0.3) column', () => {
  const exp = exposure('<costType name="structural" type="aggregated" unit="EUR"/>', '<asset id="a" taxonomy="W"><location lon="10" lat="45"/><costs><cost type="structural" value="100"/></costs></asset>');
  const r = run(exp, 'sid,eid,gmv_PGA,gmv_SA(0.3)\n0,0,0.1,0.4\n', {}, VULN('LN', '0 0 0', 'SA(0.30)'));
  assert.ok(r.ok);
  assert.equal(r.value.avg_losses[0]!.mean, 60);
});

test('refusals: a taxonomy without a function, a measure the fields lack, a minimum loss for another loss type, no asset near a site', () => {
  const exp = (tax: string, lon = 10) => exposure('<costType name="structural" type="aggregated" unit="EUR"/>', `<asset id="a" taxonomy="${tax}"><location lon="${lon}" lat="45"/><costs><cost type="structural" value="100"/></costs></asset>`);
  const gmfs = 'sid,eid,gmv_PGA\n0,0,0.2\n';
  const faults = (r: ReturnType<typeof run>) => { assert.ok(!r.ok); assert.equal(r.refusal.status, 422); assert.equal(r.refusal.code, 'invalid_request'); return r.refusal.details; };
  assert.deepEqual(faults(run(exp('X'), gmfs)), ['the structural vulnerability model has no function for taxonomy X']);
  assert.deepEqual(faults(run(exp('W'), gmfs, {}, VULN('LN', '0 0 0', 'MMI'))), ['structural vulnerability function W reads MMI, which the ground-motion fields do not hold (they hold PGA)']);
  assert.deepEqual(faults(run(exp('W'), gmfs, { minimum_asset_loss: { contents: 1 } })), ['minimum_asset_loss names contents, which is not a loss type of the run (structural)']);
  assert.deepEqual(faults(run(exp('W', 11), gmfs)), ['no asset of the exposure is within asset_hazard_distance (15 km) of a site of the ground-motion fields']);
});

// ---- Draws when covLR > 0 ----------------------------------------------------------------------

test('lognormal draws: the ratio\'s mean and CoV are the function\'s; the same seed gives the same losses, another seed others', () => {
  const fn = parseOqVulnerability(VULN('LN', '0.3 0.3 0.3')).functions[0]!;
  const rng = seededRandom(7);
  const n = 200_000;
  let s = 0;
  let ss = 0;
  for (let i = 0; i < n; i++) { const x = lossRatio(fn, 0.3, { rng }, false); s += x; ss += x * x; }
  const mean = s / n;
  const cov = Math.sqrt(ss / n - mean * mean) / mean;
  // 200,000 draws: the mean's standard error is 0.3 × 0.4 / √n ≈ 2.7e-4; 5e-3 relative is over 7 of them.
  close(mean, 0.4, 5e-3, 'mean ratio');
  close(cov, 0.3, 2e-2, 'CoV');
  const exp = exposure('<costType name="structural" type="aggregated" unit="EUR"/>', '<asset id="a" taxonomy="W"><location lon="10" lat="45"/><costs><cost type="structural" value="100"/></costs></asset>');
  const gmfs = 'sid,eid,gmv_PGA\n0,0,0.3\n0,1,0.3\n0,2,0.3\n';
  const a = run(exp, gmfs, { master_seed: 1 }, VULN('LN', '0.3 0.3 0.3'));
  const b = run(exp, gmfs, { master_seed: 1 }, VULN('LN', '0.3 0.3 0.3'));
  const c = run(exp, gmfs, { master_seed: 2 }, VULN('LN', '0.3 0.3 0.3'));
  const m = run(exp, gmfs, { master_seed: 1, ignore_covs: true }, VULN('LN', '0.3 0.3 0.3'));
  assert.ok(a.ok && b.ok && c.ok && m.ok);
  assert.equal(a.value.sampled, true);
  assert.deepEqual(a.value.risk_by_event, b.value.risk_by_event);
  assert.notDeepEqual(a.value.risk_by_event, c.value.risk_by_event);
  assert.equal(m.value.sampled, false);
  m.value.risk_by_event.forEach((x) => close(x.loss, 40, 1e-12, 'mean loss under ignore_covs'));
});

test('beta draws: mean and CoV are the function\'s; a PMF\'s draws fall on its ratios with its probabilities', () => {
  const bt = parseOqVulnerability(VULN('BT', '0.5 0.5 0.5')).functions[0]!;
  const at = meanAndCov(bt as never, 0.3);
  close(at.mean, 0.4, 1e-12, 'interpolated mean');
  close(at.cov, 0.5, 1e-12, 'interpolated CoV');
  const rng = seededRandom(11);
  const n = 100_000;
  let s = 0;
  let ss = 0;
  for (let i = 0; i < n; i++) { const x = lossRatio(bt, 0.3, { rng }, false); assert.ok(x >= 0 && x <= 1); s += x; ss += x * x; }
  const mean = s / n;
  close(mean, 0.4, 5e-3, 'beta mean');
  close(Math.sqrt(ss / n - mean * mean) / mean, 0.5, 2e-2, 'beta CoV');
  const pm = parseOqVulnerability(`<nrml xmlns="http://openquake.org/xmlns/nrml/0.5"><vulnerabilityModel id="p" assetCategory="buildings" lossCategory="structural">
    <vulnerabilityFunction id="P" dist="PM"><imls imt="PGA">0.1 0.3</imls>
      <probabilities lr="0">0.8 0.2</probabilities><probabilities lr="0.5">0.2 0.4</probabilities><probabilities lr="1">0 0.4</probabilities>
    </vulnerabilityFunction></vulnerabilityModel></nrml>`).functions[0]!;
  // At 0.2, halfway: probabilities 0.5, 0.3, 0.2 for ratios 0, 0.5, 1; the mean ratio is 0.35.
  const counts = new Map<number, number>();
  for (let i = 0; i < n; i++) { const x = lossRatio(pm, 0.2, { rng }, false); counts.set(x, (counts.get(x) ?? 0) + 1); }
  close(counts.get(0)! / n, 0.5, 2e-2, 'P(0)');
  close(counts.get(0.5)! / n, 0.3, 2e-2, 'P(0.5)');
  close(counts.get(1)! / n, 0.2, 3e-2, 'P(1)');
  close(lossRatio(pm, 0.2, null, false), 0.35, 1e-12, 'PMF mean under ignore_covs');
});

test('NRML 0.4 discreteVulnerabilitySet reads as its NRML 0.5 twin', () => {
  const v04 = parseOqVulnerability(`<nrml xmlns="http://openquake.org/xmlns/nrml/0.4"><vulnerabilityModel>
    <discreteVulnerabilitySet vulnerabilitySetID="s" assetCategory="buildings" lossCategory="structural">
      <IML IMT="PGA">0.1 0.2 0.4</IML>
      <discreteVulnerability vulnerabilityFunctionID="W" probabilisticDistribution="LN">
        <lossRatio>0.1 0.2 0.6</lossRatio><coefficientsVariation>0 0 0</coefficientsVariation>
      </discreteVulnerability></discreteVulnerabilitySet></vulnerabilityModel></nrml>`);
  const v05: OqVulnerabilityModel = parseOqVulnerability(VULN());
  assert.deepEqual(v04.functions, v05.functions);
  assert.equal(v04.loss_category, 'structural');
});

// ---- The lane: its spec, its result naming each input, its CSV exports ----------------------------

const E = `inp_${'e'.repeat(32)}`;
const V = `inp_${'a'.repeat(32)}`;
const G = `inp_${'b'.repeat(32)}`;

test('the lane\'s spec: defaults filled in, every fault named', () => {
  const read = readScenarioRiskSpec({ exposure: E, vulnerability: V, gmfs: G });
  assert.ok(read.ok);
  assert.deepEqual(read.value, {
    exposure: E, gmfs: G, vulnerability: V, loss_types: ['structural'], minimum_asset_loss: {},
    ignore_covs: false, master_seed: 123456, asset_correlation: 0, asset_hazard_distance: 15,
  });
  const bad = readScenarioRiskSpec({ exposure: 3, gmfs: G, contents_vulnerability: 'inp_x', loss_types: ['structural'], minimum_asset_loss: { occupants: 1 } });
  assert.ok(!bad.ok);
  assert.equal(bad.refusal.status, 422);
  assert.equal(bad.refusal.code, 'invalid_request');
  assert.deepEqual(bad.refusal.details, [
    'contents_vulnerability must be the id of an input you brought (inp_ and 32 hex digits, as POST /inputs answered it)',
    'loss_types names structural, whose vulnerability model (vulnerability) the spec does not give',
    'minimum_asset_loss names occupants, which is not a loss type of the run (structural)',
    'exposure must be the id of an input you brought (inp_ and 32 hex digits, as POST /inputs answered it)',
  ]);
  const none = readScenarioRiskSpec({ exposure: E, gmfs: G });
  assert.ok(!none.ok);
  assert.deepEqual(none.refusal.details, ['name at least one vulnerability model: vulnerability, nonstructural_vulnerability, contents_vulnerability, business_interruption_vulnerability, occupants_vulnerability']);
});

const csvOf = (result: Record<string, unknown>, table: string) => {
  const t = SCENARIO_RISK_TABLES[table]!.rows(result)!;
  return csvTable(t.header, t.rows).split('\r\n');
};

test('the lane\'s result names each input with its sha256; its tables export as OpenQuake\'s CSV', () => {
  const spec = { ...modelOf(openquakeScenarioRisk), ...(readScenarioRiskSpec({ exposure: E, vulnerability: V, gmfs: G, minimum_asset_loss: { structural: 200 } }) as { value: object }).value } as ScenarioRiskSpec;
  const inputs = {
    exposure: { id: E, kind: 'oq-exposure', sha256: 'e'.repeat(64), value: parseOqExposure(CASE1_EXPOSURE) },
    vulnerability: { id: V, kind: 'oq-vulnerability', sha256: 'v'.repeat(64), value: parseOqVulnerability(CASE1_VULNERABILITY) },
    gmfs: { id: G, kind: 'oq-gmfs', sha256: 'g'.repeat(64), value: parseOqGmfs(CASE1_GMFS, CASE1_SITES) },
  };
  const r = runScenarioRiskLane(openquakeScenarioRisk, inputs, spec);
  assert.ok(r.ok);
  const result = r.value as Record<string, any>;
  assert.deepEqual(result.inputs, [
    { member: 'exposure', id: E, kind: 'oq-exposure', sha256: 'e'.repeat(64) },
    { member: 'gmfs', id: G, kind: 'oq-gmfs', sha256: 'g'.repeat(64) },
    { member: 'vulnerability', id: V, kind: 'oq-vulnerability', sha256: 'v'.repeat(64) },
  ]);
  assert.equal(result.sampling.sampled, false);
  const aggrisk = csvOf(result, 'aggrisk');
  assert.equal(aggrisk[0], 'loss_type,loss_value,loss_ratio');
  assert.match(aggrisk[1]!, /^structural,412\.36\d+,0\.20618\d+$/);
  const byEvent = csvOf(result, 'risk_by_event');
  assert.equal(byEvent[0], 'event_id,loss,loss_type');
  assert.match(byEvent[1]!, /^5,252\.50\d+,structural$/);
  assert.equal(csvOf(result, 'avg_losses')[0], 'asset_id,taxonomy,lon,lat,loss_type,mean,stddev');
  assert.match(csvOf(result, 'insured_losses')[1]!, /^a2,RC,15\.56,38\.17,structural_ins,/);
});

test('the site index finds the closest site within the distance as a scan of every site does (clusters, the antimeridian, near a pole)', () => {
  const rng = seededRandom(3);
  const sites: { id: string; lon: number; lat: number }[] = [];
  for (let i = 0; i < 1500; i++) sites.push({ id: String(i), lon: 10 + rng.uniform() * 0.5, lat: 45 + rng.uniform() * 0.5 });
  for (let i = 0; i < 300; i++) sites.push({ id: `w${i}`, lon: rng.uniform() < 0.5 ? 179.9 + rng.uniform() * 0.1 : -180 + rng.uniform() * 0.1, lat: -17 + rng.uniform() });
  for (let i = 0; i < 200; i++) sites.push({ id: `p${i}`, lon: -180 + rng.uniform() * 360, lat: 89 + rng.uniform() });
  const index = new SiteIndex(sites);
  const scan = (lat: number, lon: number, maxKm: number) => {
    let best = -1;
    let bestKm = Infinity;
    sites.forEach((s, i) => {
      const km = haversineKm({ latitude: lat, longitude: lon }, { latitude: s.lat, longitude: s.lon });
      if (km <= maxKm && km < bestKm) { best = i; bestKm = km; }
    });
    return best;
  };
  const queries: [number, number][] = [];
  for (let i = 0; i < 300; i++) queries.push([44.8 + rng.uniform() * 0.9, 9.8 + rng.uniform() * 0.9]);
  for (let i = 0; i < 100; i++) queries.push([-17.2 + rng.uniform() * 1.4, rng.uniform() < 0.5 ? 179.8 + rng.uniform() * 0.2 : -180 + rng.uniform() * 0.2]);
  for (let i = 0; i < 100; i++) queries.push([88.5 + rng.uniform() * 1.5, -180 + rng.uniform() * 360]);
  for (const maxKm of [0.5, 15, 60]) {
    for (const [lat, lon] of queries) assert.equal(index.closest(lat, lon, maxKm), scan(lat, lon, maxKm), `${lat} ${lon} within ${maxKm} km`);
  }
  // The cluster alone: a grid of about 0.013° cells (one site a cell), searched ring by ring.
  const cluster = new SiteIndex(sites.slice(0, 1500));
  for (const maxKm of [0.5, 15, 60]) {
    for (const [lat, lon] of queries.slice(0, 300)) assert.equal(cluster.closest(lat, lon, maxKm), scan(lat, lon, maxKm), `cluster: ${lat} ${lon} within ${maxKm} km`);
  }
});
