// Every earthquake lane that reads ground motion from a rupture or a ShakeMap names each pinned input
// it read by feed id, version and SHA-256: the scenario and historical lanes (on a grid, and on
// stations for South Napa and Kahramanmaras) run through the
// registry's reading of their declared inputs (app/lab-lanes.ts, runLane) over the verified feed
// store, and each snapshot a declaration points at is found in the result's inputs as the store
// verified it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FeedStore } from '../../../src/feeds/store.js';
import { labLane, runLane } from '../../../src/app/lab-lanes.js';
import type { FeedPin, InputDeclaration } from '../../../src/domain/lab/inputs.js';
import { FEEDS_DIR } from '../../support/feeds.js';

const CASES = [
  {
    model: 'openquake-scenario-eq',
    spec: { rupture: { magnitude: 6.5, lat: 38, lon: 23, depth_km: 10 } },
    points: [{ lat: 38.1, lon: 23.1, value: 1000 }],
    feeds: ['gem-vulnerability-europe', 'oed-spec'],
  },
  {
    model: 'openquake-historical-eq',
    spec: { event: 'northridge-1994' },
    points: [{ lat: 34.2, lon: -118.5, value: 1000 }],
    feeds: ['gem-vulnerability-europe', 'oed-spec', 'usgs-shakemap-northridge-1994'],
  },
  {
    model: 'openquake-historical-eq',
    spec: { event: 'south-napa-2014' },
    points: [{ lat: 38.3, lon: -122.29, value: 1000 }],
    feeds: ['gem-vulnerability-europe', 'oed-spec', 'usgs-shakemap-inputs-south-napa-2014'],
  },
  {
    model: 'openquake-historical-eq',
    spec: { event: 'kahramanmaras-2023' },
    points: [{ lat: 37.58, lon: 36.93, value: 1000 }],
    feeds: ['gem-vulnerability-europe', 'oed-spec', 'usgs-shakemap-stations-kahramanmaras-2023'],
  },
];

for (const c of CASES) {
  test(`${c.model} (${JSON.stringify(c.spec).slice(0, 40)}): every input read is named by feed id, version and SHA-256`, async () => {
    const store = await FeedStore.open(FEEDS_DIR, { feeds: c.feeds });
    const lane = labLane(c.model);
    assert.ok(lane);
    const spec = lane.normalize(c.spec, { byObject: false, value: { points: c.points } });
    assert.ok(spec.ok);
    const run = await runLane(lane, store, spec.value);
    assert.ok(run.ok, JSON.stringify(run));
    const result = JSON.parse(run.value);
    const declared = Object.entries(lane.inputs as Record<string, InputDeclaration>);
    assert.equal(result.inputs.length, declared.length, 'one entry per declared input');
    for (const [name, input] of declared) {
      const source = input.source;
      const pin: FeedPin | undefined = 'pin' in source ? source.pin : 'pins' in source ? source.pins[source.pick(spec.value as never)] : undefined;
      assert.ok(pin, `${name} is pinned`);
      const snapshot = store.get(pin.feed_id, pin.version);
      assert.ok(snapshot, `${pin.feed_id} ${pin.version} is in the store`);
      const named = result.inputs.find((i: any) => i.input === name);
      assert.deepEqual({ feed_id: named?.feed_id, version: named?.version, sha256: named?.sha256 }, { feed_id: snapshot.feed_id, version: snapshot.version, sha256: snapshot.sha256 }, name);
      assert.ok(named.files_read.length > 0 && named.files_read.every((f: any) => /^[0-9a-f]{64}$/.test(f.sha256)), `${name}: the files read, each with its SHA-256`);
    }
    assert.equal(result.vulnerability.model_data.sha256, result.inputs.find((i: any) => i.input === 'vulnerability').sha256);
  });
}
