// The probabilistic European and Turkish earthquake lane's engine over the pinned inputs (read
// through the feed store): a run on ESHM20's own area-source branch (the branch named, its rate
// recomputed from the file, rupture counts, a place beyond every source unmodeled) and on the fault
// branch; the catalog-derived fallback model: the b-value recomputed independently from the raw
// catalog, the smoothed seismicity against a direct sum of kernels, the truncated Gutenberg-Richter
// law, unmodeled counting at its site model's 5 km; the ESHM20 GMPE logic tree as pinned, the eleven
// building classes, determinism, and the loss aggregation on a hand-made constant curve (AAL = mean
// year loss, OEP and AEP by their definitions) exact. Engine tests run smaller samples (branches x
// years) than the lane.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FeedStore } from '../../../src/feeds/store.js';
import { eventCatalog, gmpeLogicTree, structuralVulnerability } from '../../../src/feeds/readers.js';
import { coverageBox } from '../../../src/feeds/manifest.js';
import { canonicalJson } from '../../../src/kernel/canonical-json.js';
import { FEEDS_DIR, rawFile, manifestOf } from '../../support/feeds.js';
import { ESHM20_INPUTS } from '../../../src/domain/lab/lanes/eshm20-earthquake/lane.js';
import { BUILDING_CLASSES, runEshm20, type Eshm20Input, type Eshm20Source } from '../../../src/domain/lab/lanes/earthquake/eshm20-lane.js';
import { parseNrmlSourceModel } from '../../../src/feeds/parsers/nrml-source-model.js';
import { truncatedGrBins, type SourceModel } from '../../../src/domain/lab/lanes/earthquake/eshm20-sources.js';
import {
  DEMO_SOURCE_MODEL, fitCatalog, nearestNodeKm, nodePosition, nodeShare, smoothedSeismicity, truncatedGrMagnitude, truncatedGrRate,
} from '../../../src/domain/lab/lanes/earthquake/demo-source-model.js';
import { seededRandom } from '../../../src/domain/stats/random.js';
import type { VulnerabilityFunction } from '../../../src/domain/lab/lanes/earthquake/vulnerability.js';
import type { LabPlace } from '../../../src/domain/lab/engine/places.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { metricsSchema } from '../../../src/domain/lab/engine/metrics.js';
import { backboneOf } from '../../../src/domain/lab/lanes/earthquake/eshm20-backbone.js';
import { kotha2020 } from '../../../src/domain/hazard/gmpe/kotha20.js';

const VULNERABILITY = 'gem-vulnerability-europe';
const CATALOG = ESHM20_INPUTS.catalog.feed_id;
const ESRM20 = ESHM20_INPUTS.gmpe_logic_tree.feed_id;
const ESHM20 = ESHM20_INPUTS.area_sources.feed_id;

interface Pinned {
  functions: ReadonlyMap<string, VulnerabilityFunction>;
  catalog: Extract<Eshm20Source, { kind: 'catalog_demonstration' }>['catalog'];
  box: NonNullable<ReturnType<typeof coverageBox>>;
  periodEnd: string;
  gmpeTree: Eshm20Input['gmpeTree'];
  area: SourceModel;
  faults: SourceModel;
}
let inputs: Promise<Pinned> | undefined;
function pinned(): Promise<Pinned> {
  inputs ??= (async () => {
    const store = await FeedStore.open(FEEDS_DIR, { feeds: [VULNERABILITY, CATALOG, ESRM20, ESHM20] });
    const eshm20 = store.get(ESHM20)!;
    const model = async (file: string) => parseNrmlSourceModel((await store.readFile(eshm20, file)).toString('utf8'));
    const catalog = store.get(CATALOG)!;
    const events = await eventCatalog(store, catalog);
    assert.equal(events.kind, 'quake');
    return {
      functions: await structuralVulnerability(store, store.get(VULNERABILITY)!),
      catalog: events.kind === 'quake' ? events.events : [],
      box: coverageBox(catalog.manifest)!,
      periodEnd: (catalog.manifest.raw.period_of_record as { to: string }).to,
      gmpeTree: await gmpeLogicTree(store, store.get(ESRM20)!, ESHM20_INPUTS.gmpe_logic_tree.file),
      area: await model(ESHM20_INPUTS.area_sources.file),
      faults: await model(ESHM20_INPUTS.fault_sources.file),
    };
  })();
  return inputs;
}

/** The catalog-derived fallback as a run's source. */
const demo = (p: Pinned): Eshm20Source => ({ kind: 'catalog_demonstration', catalog: p.catalog, box: p.box, periodEnd: p.periodEnd });

/** The fields of one CSV line (quoted fields may hold commas). */
function csvFields(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) { out.push(cur); cur = ''; }
    else cur += ch;
  }
  out.push(cur);
  return out;
}

test('the b-value: Aki-Utsu recomputed independently from the raw catalog rows (M >= 6.0, 1964 on, ΔM 0.1)', async () => {
  const lines = rawFile(CATALOG).toString('utf8').trim().split('\n');
  const header = csvFields(lines[0]!);
  const [time, mag, type] = ['time', 'mag', 'type'].map((c) => header.indexOf(c));
  const rows = lines.slice(1).map(csvFields).filter((f) => f[type!] === 'earthquake' && f[time!]! >= '1964-01-01');
  // Binned to 0.1 (halves up), Mc 6.0: b = log10(e) / (mean - 5.95), standard error b / sqrt(N) (Aki 1965).
  const binned = rows.map((f) => Math.round(Number(f[mag!]) * 10 + 1e-9) / 10).filter((m) => m >= 6.0 - 1e-9);
  const mean = binned.reduce((s, m) => s + m, 0) / binned.length;
  const b = Math.LOG10E / (mean - 5.95);
  const { periodEnd, catalog } = await pinned();
  assert.equal(periodEnd, manifestOf(CATALOG).period_of_record.to);
  const fit = fitCatalog(catalog, periodEnd);
  assert.equal(fit.estimate.n, binned.length);
  assert.equal(binned.length, 56);
  // Tolerance 1e-9 relative: the two sums differ only by floating-point order.
  assert.ok(Math.abs(fit.estimate.b - b) / b < 1e-9, `${fit.estimate.b} vs ${b}`);
  assert.ok(Math.abs(fit.estimate.standardErrorAki - b / Math.sqrt(56)) < 1e-9);
  // The rate of M >= 6 over 1964-01-01 to the end of the period of record, in Julian years.
  const years = (Date.parse(`${periodEnd}T23:59:59.999Z`) - Date.UTC(1964, 0, 1)) / (365.25 * 86_400_000);
  assert.ok(Math.abs(fit.rate_at_mc - 56 / years) < 1e-12);
  assert.ok(b > 0.75 && b < 0.85, `b ${b}`);
});

test('the ESHM20 shallow-crust GMPE logic tree as pinned: 15 branches of Kotha et al. 2020, weights summing to 1', async () => {
  const { gmpeTree } = await pinned();
  assert.equal(gmpeTree.branches.length, 15);
  assert.equal(gmpeTree.tectonic_region, 'Shallow Default');
  assert.ok(gmpeTree.branches.every((b) => b.gsim === 'KothaEtAl2020ESHM20SlopeGeology'));
  assert.ok(Math.abs(gmpeTree.branches.reduce((s, b) => s + b.weight, 0) - 1) < 1e-6);
  const central = gmpeTree.branches.find((b) => b.branch_id === 'Shallow_Default_MidStress_CentralAtt')!;
  assert.deepEqual([central.args, central.weight], [{}, 0.35519112]);
  const corner = gmpeTree.branches.find((b) => b.branch_id === 'Shallow_Default_VLowStress_FastAtt')!;
  assert.deepEqual(corner.args, { sigma_mu_epsilon: -2.85697, c3_epsilon: -1.732051 });
});

test('a branch of the tree is Kotha et al. 2020 in its ESHM20 Vs30 form at the branch\'s epsilons', async () => {
  const { gmpeTree } = await pinned();
  const ctx = { rupture: { mag: 6.5, rake: 0, dip: 90, ztor: 0, width: 15, hypo_depth: 10 }, site: { vs30: 800, vs30measured: false, z1pt0: NaN, z2pt5: NaN, backarc: false }, distances: { rjb: 20, rrup: 21, rx: 20, ry0: 0, rhypo: 23 } };
  const imt = { kind: 'SA', period: 0.6 } as const;
  for (const b of gmpeTree.branches) {
    const direct = kotha2020({ form: 'eshm20', sigmaMuEpsilon: b.args.sigma_mu_epsilon ?? 0, c3Epsilon: b.args.c3_epsilon ?? 0 }).predict(ctx, imt);
    assert.deepEqual(backboneOf(b).predict(ctx, imt), direct, b.branch_id);
  }
  const [low, high] = ['Shallow_Default_VLowStress_CentralAtt', 'Shallow_Default_VHighStress_CentralAtt'].map((id) => backboneOf(gmpeTree.branches.find((b) => b.branch_id === id)!).predict(ctx, imt).mean);
  assert.ok(low! < high!, 'the high-stress branch shakes harder');
});

test('smoothed seismicity: node shares against a direct sum of Gaussian kernels; the grid as site model', async () => {
  const { catalog, box } = await pinned();
  const epicentres = catalog.filter((e) => e.magnitude !== null && e.magnitude >= 6);
  const grid = smoothedSeismicity(epicentres, box);
  assert.equal(grid.spacing, 0.05);
  assert.equal(grid.nLat * grid.nLon, 141 * 391);
  // Independent: the kernel sum at two nodes (one near the 1939 Erzincan epicentre, one in the
  // middle of the box), their ratio as the grid's shares' ratio (1e-9 relative).
  const kernel = (lat: number, lon: number) => epicentres.reduce((s, e) => {
    const rad = Math.PI / 180;
    const h = Math.sin((lat - e.latitude) * rad / 2) ** 2 + Math.cos(lat * rad) * Math.cos(e.latitude * rad) * Math.sin((lon - e.longitude) * rad / 2) ** 2;
    const d = 2 * 6371.0088 * Math.asin(Math.sqrt(h));
    return s + (d <= 150 ? Math.exp(-(d * d) / (2 * 50 * 50)) : 0);
  }, 0);
  const at = (lat: number, lon: number) => Math.round((lat - grid.lat0) / 0.05) * grid.nLon + Math.round((lon - grid.lon0) / 0.05);
  const [k1, k2] = [at(39.9, 39.6), at(39, 35)];
  const p1 = nodePosition(grid, k1);
  const p2 = nodePosition(grid, k2);
  const ratio = nodeShare(grid, k1) / nodeShare(grid, k2);
  const direct = kernel(p1.latitude, p1.longitude) / kernel(p2.latitude, p2.longitude);
  assert.ok(Math.abs(ratio / direct - 1) < 1e-9, `${ratio} vs ${direct}`);
  assert.equal(grid.cumulative[grid.cumulative.length - 1], 1);
  // Site model: inside the box every place is within 5 km of a node; 3.3 km beyond the northern edge too; 10 km beyond, not.
  assert.ok(nearestNodeKm(grid, 38.0249, 30.0249) < 3.6);
  assert.ok(nearestNodeKm(grid, 42.53, 30) < 5);
  assert.ok(nearestNodeKm(grid, 42.59, 30) > 5);
});

test('the truncated Gutenberg-Richter law: its rate of M >= 6 is the catalog\'s; sampled magnitudes follow it', () => {
  const [b, mmin, mmax, rate6] = [0.8, 5, 8, 0.95];
  const rateMin = truncatedGrRate(rate6, 6, b, mmin, mmax);
  // Independent: N(>=6) = N(>=5) (10^-0.8 - 10^-2.4) / (1 - 10^-2.4).
  assert.ok(Math.abs(rateMin * (10 ** -0.8 - 10 ** -2.4) / (1 - 10 ** -2.4) - rate6) < 1e-12);
  assert.equal(truncatedGrMagnitude(0, b, mmin, mmax), mmin);
  assert.ok(Math.abs(truncatedGrMagnitude(1 - 1e-15, b, mmin, mmax) - mmax) < 1e-6);
  // 100,000 seeded draws: the share at or above 6 within 4 binomial standard errors of (10^-0.8 - 10^-2.4)/(1 - 10^-2.4).
  const rng = seededRandom(7);
  let above = 0;
  for (let i = 0; i < 100_000; i++) if (truncatedGrMagnitude(rng.uniform(), b, mmin, mmax) >= 6) above++;
  const p = (10 ** -0.8 - 10 ** -2.4) / (1 - 10 ** -2.4);
  assert.ok(Math.abs(above / 100_000 - p) < 4 * Math.sqrt(p * (1 - p) / 100_000), `${above / 100_000} vs ${p}`);
});

test('the eleven building classes: unique ids, each a pinned GEM structural function', async () => {
  const { functions } = await pinned();
  assert.equal(BUILDING_CLASSES.length, 11);
  assert.equal(new Set(BUILDING_CLASSES.map((c) => c.id)).size, 11);
  assert.equal(new Set(BUILDING_CLASSES.map((c) => c.taxonomy)).size, 11);
  for (const c of BUILDING_CLASSES) assert.ok(functions.has(c.taxonomy), `${c.taxonomy} is pinned`);
  assert.equal(BUILDING_CLASSES.find((c) => c.id === 'rc_infilled_frame_moderate_code_4')?.taxonomy, 'CR/LFINF+CDM+DUM/H4/RES');
});

// Places written for the test: Istanbul, Izmir, 3.3 km north of the grid's northern edge, 10 km
// north of it, and one without coordinates (a schedule's location may have none).
const PLACES: LabPlace[] = [
  { index: 0, lat: 41.01, lon: 28.97, value: 1_000_000 },
  { index: 1, lat: 38.42, lon: 27.14, value: 2_000_000 },
  { index: 2, lat: 42.53, lon: 33.0, value: 500_000 },
  { index: 3, lat: 42.59, lon: 33.0, value: 500_000 },
  { index: 4, lat: null, lon: null, value: 100 },
];

test('a run on the fallback model: unmodeled places counted with reasons, seeded determinism byte for byte, the demonstration and the licence stated', async () => {
  const p = await pinned();
  const fn = p.functions.get('CR/LFINF+CDM+DUM/H4/RES')!;
  const input: Eshm20Input = { source: demo(p), gmpeTree: p.gmpeTree, places: PLACES, buildingClass: 'rc_infilled_frame_moderate_code_4', vulnerability: fn, branches: 4, yearsPerBranch: 250 };
  const a = canonicalJson(runEshm20(input));
  assert.equal(canonicalJson(runEshm20(input)), a, 'the same input, the same bytes');
  assert.notEqual(canonicalJson(runEshm20({ ...input, seed: 1 })), a);
  const r = JSON.parse(a);
  assert.deepEqual(r.unmodeled, { count: 2, places: [{ index: 3, reason: 'farther than 5 km from the site model\'s grid' }, { index: 4, reason: 'no coordinates' }] });
  assert.deepEqual(r.exposure, { places: 5, modeled: 3, unmodeled: 2 });
  assert.match(r.demonstration, /not ESHM20/);
  assert.ok(r.metrics.warnings.some((w: string) => /Demonstration source model, not ESHM20/.test(w)));
  assert.match(r.licence, /CC BY-NC-SA 4\.0/);
  assert.match(r.vulnerability.licence, /non-commercial/);
  assert.equal(r.metrics.schema, 'lab-metrics/1');
  const validate = new Ajv2020({ allErrors: true, strict: true }).compile(metricsSchema);
  assert.ok(validate(r.metrics), JSON.stringify(validate.errors));
  assert.equal(r.metrics.periods, 1000);
  assert.equal(r.branches.length, 4);
  assert.equal(r.vulnerability.imt, 'SA(0.6)');
  assert.ok(r.metrics.average_annual_loss.mean > 0);
  // Each branch: its epistemic draws within their stated alternatives; its rate of M >= 5 recomputed
  // from its b and Mmax (1e-12 relative); its rupture count within 4 Poisson standard deviations of rate x years.
  const fit = r.source_model.b_value;
  const ids = new Set(p.gmpeTree.branches.map((b) => b.branch_id));
  for (const br of r.branches) {
    assert.ok(Math.abs(br.b_value - fit.b) <= 2 * fit.standard_error + 1e-12, `b ${br.b_value}`);
    assert.ok([7.8, 8.0, 8.2].includes(br.mmax));
    assert.ok(ids.has(br.gmpe_branch));
    const rate = r.source_model.rate_at_completeness * (1 - 10 ** (-br.b_value * (br.mmax - 5))) / (10 ** (-br.b_value) - 10 ** (-br.b_value * (br.mmax - 5)));
    assert.ok(Math.abs(br.rate_m_min / rate - 1) < 1e-12);
    assert.ok(Math.abs(br.ruptures - rate * 250) < 4 * Math.sqrt(rate * 250), `branch ${br.branch}: ${br.ruptures} ruptures at ${rate}/year`);
  }
  assert.equal(r.branches.reduce((s: number, b: any) => s + b.ruptures, 0), r.sample.ruptures);
  // Branch AALs average to the whole sample's (equal years per branch), 1e-9 relative.
  const meanOfBranches = r.branches.reduce((s: number, b: any) => s + b.aal, 0) / 4;
  assert.ok(Math.abs(meanOfBranches / r.metrics.average_annual_loss.mean - 1) < 1e-9);
  // Places' AALs sum to the AAL.
  const placeSum = r.metrics.places.reduce((s: number, x: any) => s + x.aal, 0);
  assert.ok(Math.abs(placeSum / r.metrics.average_annual_loss.mean - 1) < 1e-9);
});

test('loss aggregation, a hand-made case: a constant curve makes every reaching rupture lose 1% of value; AAL, OEP and AEP by their definitions, exact', async () => {
  const p = await pinned();
  // Hand-made curve (not pinned data): mean loss ratio 0.01 at any ground motion above 1e-12 g.
  const flat: VulnerabilityFunction = { id: 'hand', imt: { kind: 'PGA' }, imls: [1e-12, 100], mean_lr: [0.01, 0.01], cov_lr: [0, 0] };
  const value = 1_000_000;
  const r = runEshm20({ source: demo(p), gmpeTree: p.gmpeTree, places: [{ index: 0, lat: 39.0, lon: 35.0, value }], buildingClass: 'rc_infilled_frame_moderate_code_4', vulnerability: flat, branches: 4, yearsPerBranch: 250 }) as any;
  const m = r.metrics;
  const N = 1000;
  const L = value * 0.01;
  // Every event loses exactly L: the event count is the ruptures reaching the place.
  assert.equal(m.events_with_loss, r.sample.ruptures_reaching_places);
  assert.ok(m.elt.every((e: any) => e.loss === L && e.occurrences === 1));
  // AAL = mean year loss = L x reaching ruptures / N.
  assert.equal(m.average_annual_loss.mean, (L * r.sample.ruptures_reaching_places) / N);
  // Year losses from the YLT (years absent have none): AEP sums a year's events, OEP takes its largest.
  const agg = new Array(N).fill(0);
  const occ = new Array(N).fill(0);
  for (const y of m.ylt) { agg[y.period - 1] = y.loss; occ[y.period - 1] = y.max_event_loss; assert.equal(y.loss, y.events * L); assert.equal(y.max_event_loss, L); }
  const atRank = (values: number[], T: number) => {
    const sorted = [...values].sort((x, y) => y - x);
    const rank = N / T; // whole for the published T (10 ... 100)
    assert.ok(Number.isInteger(rank));
    return { loss: sorted[rank - 1], tvar: sorted.slice(0, rank).reduce((s, x) => s + x, 0) / rank };
  };
  assert.deepEqual(m.exceedance.oep.map((x: any) => x.return_period), [2, 5, 10, 25, 50, 100]);
  for (const row of m.exceedance.aep) assert.deepEqual({ loss: row.loss, tvar: row.tvar }, atRank(agg, row.return_period));
  for (const row of m.exceedance.oep) assert.deepEqual({ loss: row.loss, tvar: row.tvar }, atRank(occ, row.return_period));
  // One 1,000-year block: its AAL is the AAL.
  assert.equal(m.blocks.count, 1);
  assert.equal(m.blocks.aal_by_block[0].aal, m.average_annual_loss.mean);
});

// Places written for the test: Istanbul, Izmir, Athens, Riyadh (over 600 km south of every ESHM20
// source) and one without coordinates.
const EUROPE: LabPlace[] = [
  { index: 0, lat: 41.01, lon: 28.97, value: 1_000_000 },
  { index: 1, lat: 38.42, lon: 27.14, value: 2_000_000 },
  { index: 2, lat: 37.98, lon: 23.73, value: 1_500_000 },
  { index: 3, lat: 24.71, lon: 46.68, value: 500_000 },
  { index: 4, lat: null, lon: null, value: 100 },
];

test('a run on ESHM20\'s area-source branch: the branch named as one of a weighted tree, its rate from the file, Riyadh unmodeled', async () => {
  const p = await pinned();
  const fn = p.functions.get('CR/LFINF+CDM+DUM/H4/RES')!;
  const source: Eshm20Source = { kind: 'area_sources', model: p.area, file: ESHM20_INPUTS.area_sources.file };
  const input: Eshm20Input = { source, gmpeTree: p.gmpeTree, places: EUROPE, buildingClass: 'rc_infilled_frame_moderate_code_4', vulnerability: fn, branches: 2, yearsPerBranch: 250 };
  const a = canonicalJson(runEshm20(input));
  assert.equal(canonicalJson(runEshm20(input)), a, 'the same input, the same bytes');
  const r = JSON.parse(a);
  assert.equal(r.demonstration, undefined);
  assert.equal(r.source_model.file, ESHM20_INPUTS.area_sources.file);
  assert.equal(r.source_model.name, 'as_model eshm20');
  assert.match(r.source_model.logic_tree, /single branch of ESHM20's weighted source-model logic tree/);
  assert.ok(r.metrics.warnings.some((w: string) => /one published branch of ESHM20's weighted logic tree/.test(w)));
  assert.ok(r.metrics.assumptions.some((w: string) => /one branch of ESHM20's weighted source-model logic tree, not the weighted model/.test(w)));
  assert.deepEqual(r.unmodeled, { count: 2, places: [{ index: 3, reason: 'farther than 200 km from every source of the ESHM20 branch' }, { index: 4, reason: 'no coordinates' }] });
  assert.equal(r.source_model.sources.area, 375);
  // The rate sampled: every source the lane finds within reach, its bins from M 5 (each bin's rate
  // by hand: 10^(a - b(m - 0.05)) - 10^(a - b(m + 0.05))), summed; at most the whole branch's rate of
  // M >= 5 computed from the file's a, b and Mmax directly (1e-9 relative).
  const whole = p.area.area.reduce((s, x) => s + 10 ** (x.mfd.a - x.mfd.b * 5) - 10 ** (x.mfd.a - x.mfd.b * x.mfd.max_mag), 0);
  const viaBins = p.area.area.reduce((s, x) => s + truncatedGrBins(x.mfd).filter((b) => b.mag >= 5).reduce((t, b) => t + b.rate, 0), 0);
  assert.ok(Math.abs(viaBins / whole - 1) < 1e-9);
  const rate = r.branches[0].rate_m_min;
  assert.ok(rate > 0 && rate < whole, `${rate} of ${whole}`);
  assert.ok(r.source_model.sources.within_reach > 10 && r.source_model.sources.within_reach < 375);
  for (const br of r.branches) {
    assert.equal(br.rate_m_min, rate);
    assert.ok(Math.abs(br.ruptures - rate * 250) < 4 * Math.sqrt(rate * 250), `branch ${br.branch}: ${br.ruptures} ruptures at ${rate}/year`);
  }
  assert.ok(r.metrics.average_annual_loss.mean > 0);
  const placeSum = r.metrics.places.reduce((s: number, x: any) => s + x.aal, 0);
  assert.ok(Math.abs(placeSum / r.metrics.average_annual_loss.mean - 1) < 1e-9);
});

test('a run on ESHM20\'s fault-source branch: faults floated, the missing background said', async () => {
  const p = await pinned();
  const fn = p.functions.get('CR/LFINF+CDM+DUM/H4/RES')!;
  const r = runEshm20({
    source: { kind: 'fault_sources', model: p.faults, file: ESHM20_INPUTS.fault_sources.file },
    gmpeTree: p.gmpeTree, places: EUROPE.slice(0, 3), buildingClass: 'rc_infilled_frame_moderate_code_4', vulnerability: fn, branches: 2, yearsPerBranch: 250,
  }) as any;
  assert.equal(r.source_model.sources.simple_fault, 1003);
  assert.ok(r.metrics.warnings.some((w: string) => /smoothed-seismicity background \(not pinned\)/.test(w)));
  assert.ok(r.sample.ruptures > 0);
  assert.equal(r.unmodeled.count, 0);
});

test('the rate of ruptures reaching Istanbul on the area-source branch: the lane\'s count against the sources\' rates times their area within 200 km, computed here', async () => {
  const p = await pinned();
  const fn = p.functions.get('CR/LFINF+CDM+DUM/H4/RES')!;
  const istanbul = { lat: 41.01, lon: 28.97 };
  const years = 2000;
  const r = runEshm20({
    source: { kind: 'area_sources', model: p.area, file: ESHM20_INPUTS.area_sources.file },
    gmpeTree: p.gmpeTree, places: [{ index: 0, ...istanbul, value: 1_000_000 }], buildingClass: 'rc_infilled_frame_moderate_code_4', vulnerability: fn, branches: 1, yearsPerBranch: years,
  }) as any;
  // Independent: each source's rate of M >= 5 (10^(a - 5b) - 10^(a - b Mmax)) times the share of its
  // polygon's area within 200 km of the place (every source's ruptures are points, so Rjb is the
  // epicentral distance), the share measured on a 0.02-degree latitude-longitude grid weighted by
  // cos(latitude), not the lane's 10 km projected grid.
  const rad = Math.PI / 180;
  const km = (lat: number, lon: number) => 2 * 6371.0088 * Math.asin(Math.sqrt(Math.sin((lat - istanbul.lat) * rad / 2) ** 2 + Math.cos(lat * rad) * Math.cos(istanbul.lat * rad) * Math.sin((lon - istanbul.lon) * rad / 2) ** 2));
  const inside = (lon: number, lat: number, ring: readonly (readonly [number, number])[]) => {
    let odd = false;
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i]!;
      const [xj, yj] = ring[j]!;
      if ((yi > lat) !== (yj > lat) && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) odd = !odd;
    }
    return odd;
  };
  let expected = 0;
  for (const s of p.area.area) {
    const lats = s.polygon.map((v) => v[1]);
    const lons = s.polygon.map((v) => v[0]);
    if (Math.min(...lats) > istanbul.lat + 2 || Math.max(...lats) < istanbul.lat - 2 || Math.min(...lons) > istanbul.lon + 2.7 || Math.max(...lons) < istanbul.lon - 2.7) continue;
    let [all, near] = [0, 0];
    for (let lat = Math.min(...lats) + 0.01; lat < Math.max(...lats); lat += 0.02) {
      for (let lon = Math.min(...lons) + 0.01; lon < Math.max(...lons); lon += 0.02) {
        if (!inside(lon, lat, s.polygon)) continue;
        const w = Math.cos(lat * rad);
        all += w;
        if (km(lat, lon) <= 200) near += w;
      }
    }
    if (all > 0 && near > 0) expected += (near / all) * (10 ** (s.mfd.a - 5 * s.mfd.b) - 10 ** (s.mfd.a - s.mfd.b * s.mfd.max_mag));
  }
  const rate = r.sample.ruptures_reaching_places / years;
  // Tolerance: 4 Poisson standard errors, plus 3% for the lane's 10 km grid against the fine one at
  // the 200 km circle's edge and the sources' borders.
  const tolerance = 4 * Math.sqrt(expected / years) + 0.03 * expected;
  assert.ok(expected > 1, `${expected}`);
  assert.ok(Math.abs(rate - expected) < tolerance, `lane ${rate}/year vs ${expected}/year ± ${tolerance}`);
});
