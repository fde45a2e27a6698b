// The lab's lanes are one declaration each (src/domain/lab/lanes/<lane>/lane.ts) and one line of the
// registry (app/lab-lanes.ts): a lane folder left out of the registry is caught here, as is a
// declared member the route's body does not name, and a run whose result leaves its declared shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { LAB_LANES } from '../../src/app/lab-lanes.js';
import { labModels, labRunTask, normalizedSpec } from '../../src/app/lab-runs.js';
import type { LabLane } from '../../src/domain/lab/lane.js';
import type { InputDeclarations } from '../../src/domain/lab/inputs.js';
import { familySnapshots } from '../../src/feeds/lab-inputs.js';
import { metricsSchema } from '../../src/domain/lab/engine/metrics.js';
import { FeedStore } from '../../src/feeds/store.js';
import * as schema from '../../src/http/schemas/lab.js';
import { FEEDS_DIR, rawFile } from '../support/feeds.js';
import type { RunInput } from '../../src/app/lab-inputs.js';
import { CASE1_EXPOSURE, CASE1_GMFS, CASE1_SITES, CASE1_VULNERABILITY } from '../support/openquake-case1.js';

/** Ids of the shape inputs take, for the climada-impact lane's spec (the inputs themselves are handed to its run). */
const CLIMADA_IMPACT_IDS = { hazard: `inp_${'1'.repeat(32)}`, exposures: `inp_${'2'.repeat(32)}`, impact_functions: `inp_${'3'.repeat(32)}` };

/** Ids of the shape inputs take, for the openquake-scenario-risk lane's spec. */
const OQ_SCENARIO_RISK_IDS = { exposure: `inp_${'4'.repeat(32)}`, vulnerability: `inp_${'5'.repeat(32)}`, gmfs: `inp_${'6'.repeat(32)}` };

/** The openquake-scenario-risk run's inputs: OpenQuake's scenario_risk case_1 files, as a user would bring them. */
function openquakeInputs(): Record<string, RunInput> {
  const file = (text: string) => ({ part: 'file', filename: undefined, bytes: new TextEncoder().encode(text) });
  return {
    exposure: { id: OQ_SCENARIO_RISK_IDS.exposure, kind: 'oq-exposure', sha256: '4'.repeat(64), files: [file(CASE1_EXPOSURE)] },
    vulnerability: { id: OQ_SCENARIO_RISK_IDS.vulnerability, kind: 'oq-vulnerability', sha256: '5'.repeat(64), files: [file(CASE1_VULNERABILITY)] },
    gmfs: { id: OQ_SCENARIO_RISK_IDS.gmfs, kind: 'oq-gmfs', sha256: '6'.repeat(64), files: [file(CASE1_GMFS), { part: 'sites', filename: undefined, bytes: new TextEncoder().encode(CASE1_SITES) }] },
  };
}

/** The climada-impact run's inputs: CLIMADA's demo files (the pinned climada-demo-tc), as a user would bring them. */
function demoInputs(): Record<string, RunInput> {
  const file = (name: string) => [{ part: 'file', filename: name, bytes: rawFile('climada-demo-tc', name) }];
  return {
    hazard: { id: CLIMADA_IMPACT_IDS.hazard, kind: 'climada-hazard', sha256: '1'.repeat(64), files: file('tc_fl_1990_2004.h5') },
    exposures: { id: CLIMADA_IMPACT_IDS.exposures, kind: 'climada-exposures', sha256: '2'.repeat(64), files: file('exp_demo_today.h5') },
    impact_functions: { id: CLIMADA_IMPACT_IDS.impact_functions, kind: 'climada-impact-functions', sha256: '3'.repeat(64), files: file('demo_today.xlsx') },
  };
}

const LANES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/domain/lab/lanes');

/** The lane folders: each folder of domain/lab/lanes/ holding a lane.ts. */
function laneFolders(): string[] {
  return readdirSync(LANES_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(LANES_DIR, e.name, 'lane.ts')))
    .map((e) => e.name).sort();
}

const isLane = (v: unknown): v is LabLane => typeof v === 'object' && v !== null && typeof (v as LabLane).run === 'function' && typeof (v as LabLane).id === 'string';

/** What a registry lacks against the lane modules: every lane a folder's lane.ts exports, by folder. */
function unregistered(modules: ReadonlyMap<string, Record<string, unknown>>, registry: readonly LabLane[]): string[] {
  const out: string[] = [];
  for (const [folder, exports] of modules) {
    const lanes = Object.values(exports).filter(isLane);
    if (lanes.length === 0) out.push(`${folder}/lane.ts declares no lane`);
    for (const lane of lanes) {
      if (!registry.includes(lane)) out.push(`${folder}/lane.ts: ${lane.id} is not in app/lab-lanes.ts`);
      if (lane.lane !== folder) out.push(`${folder}/lane.ts: lane ${lane.lane} lives in a folder of another name`);
    }
  }
  return out;
}

async function laneModules(): Promise<Map<string, Record<string, unknown>>> {
  const modules = new Map<string, Record<string, unknown>>();
  for (const folder of laneFolders()) {
    // The transpiled test build holds lane.js beside each lane.ts; run from sources, tsx reads the .ts.
    const path = join(LANES_DIR, folder, existsSync(join(LANES_DIR, folder, 'lane.js')) ? 'lane.js' : 'lane.ts');
    modules.set(folder, await import(pathToFileURL(path).href) as Record<string, unknown>);
  }
  return modules;
}

/** Lanes that read a stored object's terms only, never bare points. */
const OBJECT_ONLY = new Set(['deterministic-loss']);
/** An object's exposure as a lab job hands it: one OED location with a blanket deductible, one policy without terms (written here). */
const OED_OBJECT_EXPOSURE = {
  locations: [{ latitude: null, longitude: null, buildings_value: 1000, oed: { PortNumber: 'P', AccNumber: 'A', LocNumber: 'L1', BuildingTIV: 1000, LocDed6All: 100 } }],
  oed: { accounts: [{ PortNumber: 'P', AccNumber: 'A', PolNumber: '1' }], ri_info: [], ri_scope: [] },
};

test('every lane folder is registered once, under its folder\'s name, and the registry holds nothing else', async () => {
  const modules = await laneModules();
  assert.equal(modules.size, 12);
  assert.deepEqual(unregistered(modules, LAB_LANES), []);
  assert.deepEqual(LAB_LANES.map((l) => l.lane).sort(), laneFolders());
  assert.equal(new Set(LAB_LANES.map((l) => l.id)).size, LAB_LANES.length, 'model ids are unique');
  // A registry missing a lane, or holding it under another folder, is named.
  const [first, ...rest] = LAB_LANES;
  assert.deepEqual(unregistered(modules, rest), [`${first!.lane}/lane.ts: ${first!.id} is not in app/lab-lanes.ts`]);
  assert.deepEqual(unregistered(new Map([['elsewhere', { lane: first }]]), LAB_LANES), [`elsewhere/lane.ts: lane ${first!.lane} lives in a folder of another name`]);
  assert.deepEqual(unregistered(new Map([['empty', { x: 1 }]]), LAB_LANES), ['empty/lane.ts declares no lane']);
});

test('every registered lane is a model of the route, of GET /models, and of the spec reader; its members are the body\'s', async () => {
  const body = (schema.submitRun.schema as { body: { properties: Record<string, { description?: string; anyOf?: Array<{ enum?: string[] }> }> } }).body;
  const routeModels = body.properties.model!.anyOf![0]!.enum!;
  const listed = await labModels({ feeds: undefined });
  assert.ok(listed.ok);
  const models = (listed.value.models as Array<{ id: string; spec: Record<string, string> }>);
  assert.deepEqual(models.map((m) => m.id), LAB_LANES.map((l) => l.id));
  assert.deepEqual(routeModels, LAB_LANES.map((l) => l.id));
  const declared = new Set(LAB_LANES.flatMap((l) => Object.keys(l.members)));
  assert.deepEqual(Object.keys(body.properties).filter((k) => !['model', 'parameters', 'exposure', 'object_id'].includes(k)).sort(), [...declared].sort());
  for (const lane of LAB_LANES) {
    for (const [name, member] of Object.entries(lane.members)) {
      assert.ok(body.properties[name]!.description!.includes(lane.id), `${lane.id}: the body describes ${name}`);
      assert.equal(models.find((m) => m.id === lane.id)!.spec[name], member.description, `${lane.id}: GET /models words ${name}`);
    }
    // The spec reader knows the lane's members: an unknown one is refused naming them.
    const refused = normalizedSpec({ model: lane.id, ...(lane.exposure ? { exposure: OBJECT_ONLY.has(lane.id) ? { object_id: 'obj_1' } : { points: [] } } : {}), colour: 'red' });
    assert.ok(!refused.ok);
    assert.match(refused.refusal.message, new RegExp(`a ${lane.id} spec has model${lane.exposure ? ', exposure' : ''}${Object.keys(lane.members).map((m) => `, ${m}`).join('')}\\)`));
  }
});

test('each member\'s JSON Schema, and the contract\'s spec of the lane, admit the normalised spec a lane writes', () => {
  const ajv = new Ajv2020({ strict: false });
  const points = [{ lat: 38.4, lon: 27.1, value: 1000 }];
  const bodies: Record<string, Record<string, unknown>> = {
    'openquake-scenario-eq': { rupture: { magnitude: 6.5, lat: 38, lon: 23, depth_km: 10 } },
    'openquake-historical-eq': { event: 'northridge-1994' },
    'climada-tc-history': { hazard: { basin: 'NA', years: [2017] } },
    'climada-tc-synthetic': { hazard: { basin: 'NA' } },
    'openquake-eshm20-eq': { building_class: 'rc_infilled_frame_moderate_code_4' },
    'climada-impact': CLIMADA_IMPACT_IDS,
    'openquake-scenario-risk': OQ_SCENARIO_RISK_IDS,
  };
  for (const lane of LAB_LANES) {
    const spec = normalizedSpec({ model: lane.id, ...(lane.exposure ? { exposure: OBJECT_ONLY.has(lane.id) ? { object_id: 'obj_1' } : { points } } : {}), ...bodies[lane.id] });
    assert.ok(spec.ok, lane.id);
    for (const [name, member] of Object.entries(lane.members)) {
      const value = spec.value[name];
      // null, or left out: an optional member the spec does not give (a loss type's vulnerability model).
      if (value === null || value === undefined) continue;
      assert.ok(ajv.validate(member.schema, value), `${lane.id}.${name}: ${JSON.stringify(ajv.errors)}`);
    }
    assert.ok(!lane.exposure || ajv.validate(lane.exposure.schema, spec.value.exposure), `${lane.id}.exposure: ${JSON.stringify(ajv.errors)}`);
    assert.ok(ajv.validate(schema.laneSpec(lane), spec.value), `${lane.id}: ${JSON.stringify(ajv.errors)}`);
    // A lane whose exposure is an input users bring takes no stored object.
    if (!lane.exposure || lane.userInputs?.exposure) continue;
    const byObject = normalizedSpec({ model: lane.id, exposure: { object_id: 'obj_1' }, ...bodies[lane.id] });
    assert.ok(byObject.ok && ajv.validate(schema.laneSpec(lane), byObject.value), `${lane.id} by object: ${JSON.stringify(ajv.errors)}`);
  }
});

test('each lane\'s result has its declared shape (a small run of each, over the pinned feeds)', async () => {
  const store = await FeedStore.open(FEEDS_DIR);
  const ajv = new Ajv2020({ strict: false });
  ajv.addSchema(metricsSchema);
  const specs: Record<string, Record<string, unknown>> = {
    'oasislmf-windstorm': { samples: 10, exposure: { points: [{ lat: 52.74, lon: -0.91, value: 1_000_000 }, { lat: 51.5, lon: 0, value: 1 }] }, terms: { policy: { place_deductible: 1000 }, reinsurance: { quota_share: { ceded_share: 0.3 } } } },
    'river-flood': { exposure: { points: [{ lat: 13.69, lon: -89.19, value: 100_000 }, { lat: 0, lon: 0, value: 1 }] } },
    'coastal-flood': { exposure: { points: [{ lat: 11.6, lon: 43.1, value: 5 }] } },
    wildfire: { exposure: { points: [{ lat: 40.6, lon: -105.9, value: 2_000_000 }, { lat: 0, lon: 0, value: 1 }] } },
    'openquake-scenario-eq': { rupture: { magnitude: 6.5, lat: 38, lon: 23, depth_km: 10 }, exposure: { points: [{ lat: 38.1, lon: 23.1, value: 1000 }] } },
    'openquake-historical-eq': { event: 'northridge-1994', exposure: { points: [{ lat: 34.2, lon: -118.5, value: 1000 }] } },
    'climada-tc-history': { hazard: { basin: 'NA', years: [2017] }, exposure: { points: [{ lat: 25.77, lon: -80.19, value: 1e6 }] } },
    'climada-tc-synthetic': { hazard: { basin: 'NA', years: 20 }, exposure: { points: [{ lat: 25.77, lon: -80.19, value: 1e6 }] } },
    'openquake-eshm20-eq': { building_class: 'rc_infilled_frame_moderate_code_4', exposure: { points: [{ lat: 38.4, lon: 27.1, value: 1e6 }] } },
    'climada-impact': CLIMADA_IMPACT_IDS,
    'openquake-scenario-risk': OQ_SCENARIO_RISK_IDS,
    'deterministic-loss': { exposure: { object_id: 'obj_1' }, loss_factors: [0.5, 1] },
  };
  const userInputs: Record<string, () => Record<string, RunInput>> = { 'climada-impact': demoInputs, 'openquake-scenario-risk': openquakeInputs };
  for (const lane of LAB_LANES) {
    const spec = normalizedSpec({ model: lane.id, ...specs[lane.id] });
    assert.ok(spec.ok, lane.id);
    // An object-only lane runs over the object's exposure as the job hands it (an OED set written here).
    if (OBJECT_ONLY.has(lane.id)) spec.value.exposure = OED_OBJECT_EXPOSURE;
    const run = await labRunTask({ model: lane.id, spec: spec.value, feedsDir: undefined, ...(lane.userInputs ? { inputs: userInputs[lane.id]!() } : {}) }, store);
    assert.ok(run.ok, `${lane.id}: ${JSON.stringify(!run.ok && run.refusal)}`);
    // The shape the lab's contract gives the lane's result (its declaration, with the members lanes share described).
    const shape = JSON.parse(JSON.stringify(schema.laneResult(lane)).replaceAll('#/components/schemas/lab-metrics.v1', 'lab-metrics.v1.json'));
    assert.ok(ajv.validate(shape, JSON.parse(run.value)), `${lane.id}: ${JSON.stringify(ajv.errors)}`);
    // Every pinned snapshot the lane declares, as the store holds it, is named in the result with its
    // sha256, but for those the spec does not choose (ESHM20 on its area sources reads neither the
    // fault branch nor the catalog of its fallback model).
    const notChosen: Record<string, string[]> = { 'openquake-eshm20-eq': ['catalog', 'fault_sources'] };
    for (const [name, input] of Object.entries(lane.inputs as InputDeclarations)) {
      if (notChosen[lane.id]?.includes(name)) continue;
      const source = input.source;
      const pins = 'pin' in source ? [source.pin] : 'pins' in source ? [source.pins[source.pick(spec.value as never)]] : [];
      const snapshots = 'family' in source ? familySnapshots(store, source.family) : pins.flatMap((p) => (p ? [store.get(p.feed_id, p.version)] : [])).filter((x) => x !== undefined);
      for (const snap of snapshots) {
        assert.ok(run.value.includes(snap!.sha256), `${lane.id}: input ${name} (${snap!.feed_id} ${snap!.version}) is not named with its sha256`);
      }
    }
  }
});

test('over a feeds folder that pins nothing, each lane is refused 503 (its record is not here), never a 500', async () => {
  // An empty folder made here: the lanes' inputs are all missing.
  const dir = mkdtempSync(join(tmpdir(), 'catrisk-no-feeds-'));
  try {
    const store = await FeedStore.open(dir);
    const points = { exposure: { points: [{ lat: 40.6, lon: -105.9, value: 1_000 }] } };
    const specs: Record<string, Record<string, unknown>> = {
      'openquake-scenario-eq': { rupture: { magnitude: 6.5, lat: 38, lon: 23, depth_km: 10 } },
      'openquake-historical-eq': { event: 'northridge-1994' },
      'climada-tc-history': { hazard: { basin: 'NA', years: [2017] } },
      'climada-tc-synthetic': { hazard: { basin: 'NA', years: 20 } },
      'openquake-eshm20-eq': { building_class: 'rc_infilled_frame_moderate_code_4' },
    };
    const outcomes: string[] = [];
    specs['climada-impact'] = CLIMADA_IMPACT_IDS;
    specs['openquake-scenario-risk'] = OQ_SCENARIO_RISK_IDS;
    for (const lane of LAB_LANES) {
      const spec = normalizedSpec({ model: lane.id, ...(OBJECT_ONLY.has(lane.id) ? { exposure: { object_id: 'obj_1' } } : lane.exposure ? points : {}), ...specs[lane.id] });
      assert.ok(spec.ok, lane.id);
      const run = await labRunTask({ model: lane.id, spec: spec.value, feedsDir: undefined }, store);
      outcomes.push(`${lane.id} ${run.ok ? 'ran' : `${run.refusal.status} ${run.refusal.code}`}`);
    }
    assert.deepEqual(outcomes, LAB_LANES.map((l) => `${l.id} 503 server_error`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
