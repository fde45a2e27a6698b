// The flood lane's rules over tiny maps and curves written here by hand (not pinned data): the
// trapezoid AAL against a sum done by hand, the finest map taken where two cover a place, every
// covering map's depths listed, no-data cells and places off every map counted as unmodeled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runFlood, trapezoidAal } from '../../../src/domain/lab/lanes/flood/flood-lane.js';
import { depthMapFromRasters } from '../../../src/domain/lab/lanes/flood/depth-map.js';

test('trapezoid AAL over exceedance probability, the largest return period held beyond it', () => {
  // Losses 0, 10, 40 at 2, 10, 100 years: (0.5 - 0.1)(0 + 10)/2 + (0.1 - 0.01)(10 + 40)/2 + 0.01 × 40.
  const parts = trapezoidAal([10, 2, 100], [10, 0, 40]);
  assert.ok(Math.abs(parts.between_return_periods - (2 + 2.25)) < 1e-12);
  assert.ok(Math.abs(parts.beyond_largest - 0.4) < 1e-12);
  assert.ok(Math.abs(parts.aal - 4.65) < 1e-12);
  assert.equal(trapezoidAal([5], [20]).aal, 4);
});

// Two hand-made maps over the same place: a coarse 1° one and a fine 0.1° one, return periods 10 and 100.
const identity = (feed_id: string) => ({ feed_id, version: '2026-01-01', sha256: 'a'.repeat(64) });
const place = { iso_a3: null, continent: 'testland', basis: 'written in the test' };
const layer = (rp: number, width: number, height: number, step: number, values: number[]) => ({
  return_period: rp, width, height, origin_lon: 0, origin_lat: 2, step_lon: step, step_lat: -step, nodata: -9999, values,
});
const coarse = depthMapFromRasters([layer(10, 2, 2, 1, [0.5, 0.5, 0.5, -9999]), layer(100, 2, 2, 1, [1, 1, 1, -9999])], { identity: identity('coarse'), flood: 'river', scenario: 'test', place });
const fine = depthMapFromRasters([layer(10, 2, 2, 0.1, [0.2, 0, 0, 0]), layer(100, 2, 2, 0.1, [2, 0, 0, 0])], { identity: identity('fine'), flood: 'river', scenario: 'test', place });
// Damage rises 0 → 1 over 0 → 2 m.
const curves = [{ continent: 'testland', sector: 'residential', depths: [0, 2], fractions: [0, 1] }, { continent: 'global', sector: 'residential', depths: [0, 1], fractions: [0, 1] }];
const options = { lane: 'river-flood' as const, flood: 'river' as const, model: { id: 'river-flood', version: 't', label: 't' }, maps: [coarse, fine], curves, countries: [], curveSource: identity('curves') };

test('the finest covering map gives the loss; every covering map\'s depths are listed; places off the maps are unmodeled', () => {
  const result = runFlood({ sector: 'residential', exposure: { points: [
    { lat: 1.95, lon: 0.05, value: 100 }, // fine cell (0,0) and coarse cell (0,0)
    { lat: 1.5, lon: 1.5, value: 100 }, // coarse cell (0,1) only
    { lat: 0.5, lon: 1.5, value: 100 }, // coarse cell (1,1): no data
    { lat: 5, lon: 5, value: 100 }, // off both maps
  ] } }, options) as any;
  assert.deepEqual(result.unmodeled.places, [{ index: 2, reason: 'outside_maps' }, { index: 3, reason: 'outside_maps' }]);
  const [first, second] = result.places;
  assert.equal(first.map, 'fine');
  assert.deepEqual(first.depths.map((d: any) => d.feed_id), ['fine', 'coarse']);
  // fine: 0.2 m and 2 m → 0.1 and 1 → losses 10 and 100: (0.1 - 0.01)(10 + 100)/2 + 0.01 × 100.
  assert.ok(Math.abs(first.aal - (0.09 * 55 + 1)) < 1e-6);
  assert.equal(second.map, 'coarse');
  // coarse: 0.5 m and 1 m → 0.25 and 0.5 → 25 and 50: 0.09 × 37.5 + 0.01 × 50.
  assert.ok(Math.abs(second.aal - (0.09 * 37.5 + 0.5)) < 1e-6);
  assert.ok(Math.abs(result.aal - first.aal - second.aal) < 1e-9);
  assert.deepEqual(result.return_period_losses.map((r: any) => r.return_period), [10, 100]);
  assert.ok(Math.abs(result.return_period_losses[1].loss - 150) < 1e-6);
});

test('with no map pinned every place is unmodeled and there is no loss figure; an unknown continent takes the global curve with a warning', () => {
  const none = runFlood({ sector: 'residential', exposure: { points: [{ lat: 1, lon: 1, value: 1 }, { lat: 2, lon: 2, value: 1 }] } }, { ...options, lane: 'coastal-flood', flood: 'coastal', maps: [] }) as any;
  assert.deepEqual([none.unmodeled.count, none.aal, none.maps_read.length], [2, null, 0]);
  assert.ok(none.unmodeled.places.every((p: any) => p.reason === 'no_map_pinned'));
  const unknown = depthMapFromRasters([layer(10, 1, 1, 1, [1])], { identity: identity('somewhere'), flood: 'river', scenario: 'test', place: { iso_a3: null, continent: null, basis: 'none stated' } });
  const global = runFlood({ sector: 'residential', exposure: { points: [{ lat: 1.5, lon: 0.5, value: 10 }] } }, { ...options, maps: [unknown] }) as any;
  assert.equal(global.places[0].curve.continent, 'global');
  assert.ok(global.warnings.some((w: string) => /global residential curve/.test(w)));
  // 1 m on the global curve: fraction 1, loss 10 at 10 years, held beyond: 0.1 × 10.
  assert.ok(Math.abs(global.aal - 1) < 1e-12);
});
