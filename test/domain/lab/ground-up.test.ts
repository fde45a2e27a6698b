import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unwrap } from '../../../src/kernel/result.js';
import { parsePiwindModel, readOccurrenceBinHeader, PiwindModelError } from '../../../src/domain/lab/lanes/windstorm-piwind/piwind-model.js';
import { keyLocations, coveredModelPerils } from '../../../src/domain/lab/lanes/windstorm-piwind/lookup.js';
import { itemKeys } from '../../../src/domain/lab/engine/model-data.js';
import { runGroundUp, eventStreamSeed } from '../../../src/domain/lab/engine/ground-up.js';
import { scaledBinMean } from '../../../src/domain/lab/engine/sensitivity.js';
import { TINY_TEXTS, TINY_LOCATIONS, TINY_UNMODELED, TINY_EVENT_LOSSES, TINY_AAL } from './tiny-model.js';

const model = parsePiwindModel(TINY_TEXTS, { periods: 4 });
const portfolio = keyLocations(model, TINY_LOCATIONS);

const cents = (x: number) => Math.round(x * 100) / 100;

function aal(values: Float64Array, occurrences: Int32Array, periods: number): number {
  let s = 0;
  for (let e = 0; e < values.length; e++) s += occurrences[e]! * values[e]!;
  return s / periods;
}

test('the loader reads every file of the tiny model', () => {
  assert.deepEqual(Array.from(model.events), [1, 2, 3]);
  assert.equal(model.occurrence.periods, 4);
  assert.equal(model.occurrence.periodsSource, 'stated');
  assert.deepEqual(Array.from(model.footprint.eventId), [1, 2, 3]);
  assert.deepEqual(model.lookup.modelPerils, ['WTC', 'WSS']);
  assert.deepEqual(model.lookup.coverageTypes, [1, 3]);
  assert.equal(model.lookup.nearestNeighborMinDistance, -1);
  assert.equal(model.cells.get('WTC')!.length, 2);
  assert.equal(model.cells.get('WSS')![0]!.areaperil_id, 11);
  assert.equal(model.vulnerabilityDict.get('WSS|3|1050'), 3);
  assert.equal(model.settings?.defaultSamples, 10);
  // Without a stated number of periods, the highest period_no is taken and said.
  const inferred = parsePiwindModel(TINY_TEXTS);
  assert.equal(inferred.occurrence.periods, 3);
  assert.ok(inferred.notes.some((n) => n.includes('highest period_no')));
});

test('the occurrence .bin header gives the stated number of periods', () => {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setInt32(0, 1, true);
  new DataView(bytes.buffer).setInt32(4, 1000, true);
  assert.deepEqual(readOccurrenceBinHeader(bytes), { dateOption: 1, periods: 1000 });
  assert.equal(parsePiwindModel(TINY_TEXTS, { occurrenceBin: bytes }).occurrence.periodsSource, 'occurrence_lt.bin header');
});

test('the loader refuses a lookup it cannot reproduce and inconsistent files', () => {
  const cfg = JSON.parse(TINY_TEXTS['lookup_config.json']!) as { step_definition: { peril: { parameters: Record<string, unknown> } } };
  cfg.step_definition.peril.parameters.nearest_neighbor_min_distance = 10;
  assert.throws(() => parsePiwindModel({ ...TINY_TEXTS, 'lookup_config.json': JSON.stringify(cfg) }), PiwindModelError);
  assert.throws(() => parsePiwindModel({ ...TINY_TEXTS, 'occurrence_lt.csv': 'event_id,period_no\n1,9\n' }, { periods: 4 }), /beyond the stated 4 periods/);
  assert.throws(() => parsePiwindModel({ ...TINY_TEXTS, 'footprint.csv': 'event_id,areaperil_id,intensity_bin_id\n1,1,1\n' }), /no column probability/);
  const { 'vulnerability.csv': _omit, ...missing } = TINY_TEXTS;
  assert.throws(() => parsePiwindModel(missing), /vulnerability.csv is missing/);
});

test('LocPerilsCovered expands through the OED peril groups and keeps the model perils', () => {
  assert.deepEqual(coveredModelPerils(model, 'WW1'), ['WTC', 'WSS']);
  assert.deepEqual(coveredModelPerils(model, 'WW2'), ['WTC']);
  assert.deepEqual(coveredModelPerils(model, 'AA1'), ['WTC', 'WSS']);
  assert.deepEqual(coveredModelPerils(model, 'WSS;QEQ'), ['WSS']);
  assert.deepEqual(coveredModelPerils(model, ' wtc ; WTC '), ['WTC']);
  assert.deepEqual(coveredModelPerils(model, 'QEQ;OO1'), []);
  assert.deepEqual(coveredModelPerils(model, null), ['WTC', 'WSS']);
});

test('locations are keyed into items as the built-in lookup does, with every unmodeled reason', () => {
  assert.deepEqual(portfolio.unmodeled, TINY_UNMODELED);
  assert.deepEqual(Array.from(portfolio.locPlace), [0, 1, 2]);
  assert.deepEqual(itemKeys(portfolio), [
    { place: 0, peril: 'WTC', coverage_type: 1, areaperil_id: 1, vulnerability_id: 1, tiv: 100_000 },
    { place: 0, peril: 'WTC', coverage_type: 3, areaperil_id: 1, vulnerability_id: 2, tiv: 50_000 },
    { place: 0, peril: 'WSS', coverage_type: 1, areaperil_id: 11, vulnerability_id: 3, tiv: 100_000 },
    { place: 0, peril: 'WSS', coverage_type: 3, areaperil_id: 11, vulnerability_id: 3, tiv: 50_000 },
    { place: 1, peril: 'WTC', coverage_type: 1, areaperil_id: 2, vulnerability_id: 1, tiv: 200_000 },
    // C lies on the edge shared by cells 1 and 2 (boundaries inside): the lower id.
    { place: 2, peril: 'WTC', coverage_type: 1, areaperil_id: 1, vulnerability_id: 1, tiv: 10_000 },
  ]);
  assert.equal(portfolio.dropped.boundary_ties, 1);
  assert.equal(portfolio.dropped.zero_value, 2); // B's and C's contents
  // Corners count as inside too; a hair outside the grid (the extent of its cells) does not.
  assert.deepEqual(model.extent, { min_lat: 52.74, max_lat: 52.75, min_lon: -0.91, max_lon: -0.89 });
  const corner = keyLocations(model, [{ latitude: 52.74, longitude: -0.91, perils_covered: 'WTC', occupancy_code: 1050, buildings_value: 1 }]);
  assert.equal(corner.itemAreaperil[0], 1);
  const outside = keyLocations(model, [{ latitude: 52.7500001, longitude: -0.905, perils_covered: 'WTC', occupancy_code: 1050, buildings_value: 1 }]);
  assert.deepEqual(outside.unmodeled, [{ index: 0, reason: 'outside_demonstration_footprint' }]);
});

test('analytical mean damage matches the hand computation to the cent, allocation rule 1 included', () => {
  const run = unwrap(runGroundUp(model, portfolio, { samples: 0 }));
  assert.deepEqual(Array.from(run.occurrences), [2, 1, 0]);
  for (const [eventId, loss] of TINY_EVENT_LOSSES) {
    const e = Array.from(run.eventIds).indexOf(eventId);
    assert.equal(cents(run.groundUp[0]![e]!), loss, `event ${eventId}`);
    assert.equal(cents(run.analytical[e]!), loss, `event ${eventId} analytical`);
  }
  assert.equal(cents(aal(run.groundUp[0]!, run.occurrences, 4)), TINY_AAL);
  // Places: A 2·147,000; B 2·104,000 + 22,000; C 2·2,740 (event 3 never occurs).
  assert.deepEqual(Array.from(run.placeGroundUp, cents), [294_000, 230_000, 5_480]);
  // Rule 1 split back pro rata on A's buildings in event 1: WTC .274/1.154, WSS .88/1.154 of 100,000.
  const wtcB = (2 * (100_000 * 0.274 / 1.154 + 104_000 + 2_740) + 22_000) / 4;
  const wssB = (2 * (100_000 * 0.88 / 1.154)) / 4;
  const pc = Array.from(run.byPerilCoverage, (x) => cents(x / 4));
  assert.deepEqual(pc, [cents(wtcB), cents(2 * 3_000 / 4), cents(wssB), cents(2 * 44_000 / 4)]);
});

test('sampled losses agree with the analytical mean within the CLT tolerance', () => {
  // Places B and C carry one item per coverage, so no cap binds and the expected sampled loss is the
  // analytical mean. A place's loss L lies in [0, TIV], so Var L <= TIV·E[L]; the mean of S
  // Latin-hypercube samples of a monotone function of u has a variance at most that of S independent
  // draws, Var L / S: CLT tolerance 4·sqrt(TIV·E[L]/S). The stratification gives a sharper, sure bound:
  // L is non-decreasing in u and each stratum of width 1/S holds one draw, so the sample mean and the
  // integral both lie between the lower and upper stratum sums: |mean - E[L]| <= (L(1) - L(0))/S <= TIV/S.
  const single = keyLocations(model, [TINY_LOCATIONS[1]!, TINY_LOCATIONS[2]!]);
  const S = 1000;
  const run = unwrap(runGroundUp(model, single, { samples: S, seed: 7 }));
  const exact = unwrap(runGroundUp(model, single, { samples: 0 }));
  for (let e = 0; e < 3; e++) {
    const mean = exact.groundUp[0]![e]!;
    const tiv = 210_000;
    const gap = Math.abs(run.groundUp[0]![e]! - mean);
    assert.ok(gap <= 4 * Math.sqrt((tiv * mean) / S), `event ${e + 1}: ${run.groundUp[0]![e]} vs ${mean} (CLT)`);
    assert.ok(gap <= tiv / S, `event ${e + 1}: ${run.groundUp[0]![e]} vs ${mean} (strata)`);
  }
  // Place A: both perils on each coverage share the place's uniform u (one random group per
  // location), so they move together and the cap binds sample by sample. By hand, event 1:
  //   WSS [0 0 .2 .8]: u >= .2 → damage 1; u < .2 → uniform on [0.2, 0.6] (mean 0.4);
  //   WTC buildings [.30 .26 .32 .12] and contents [.64 .28 .08 0] are 0 for u < .3 and .64.
  //   buildings: .8·100,000 (capped) + .2·0.4·100,000 = 88,000; contents: .8·50,000 + .2·.4·50,000 = 44,000
  // → 132,000, below the 147,000 of the capped means. Sure bound: 150,000/S.
  const a = keyLocations(model, [TINY_LOCATIONS[0]!]);
  const runA = unwrap(runGroundUp(model, a, { samples: S, seed: 7 }));
  assert.ok(Math.abs(runA.groundUp[0]![0]! - 132_000) <= 150_000 / S, `A event 1: ${runA.groundUp[0]![0]}`);
  assert.equal(cents(runA.analytical[0]!), 147_000);
});

test('sampling inverts the CDF with linear interpolation inside the bins (scaled-damage means agree)', () => {
  // Under factor 1.1 a damage ratio D becomes min(1, 1.1·D). With samples the engine applies it to
  // each sampled D; with samples 0 it takes E[min(1, 1.1·D)] over each bin, uniform for linear bins.
  // Both must agree within the CLT tolerance, which checks the within-bin spread the sampler draws.
  const single = keyLocations(model, [TINY_LOCATIONS[1]!]);
  const S = 1000;
  const sampled = unwrap(runGroundUp(model, single, { samples: S, seed: 11, factors: [1, 1.1, 3] }));
  const exact = unwrap(runGroundUp(model, single, { samples: 0, factors: [1, 1.1, 3] }));
  for (let f = 1; f < 3; f++) {
    for (let e = 0; e < 3; e++) {
      const mean = exact.groundUp[f]![e]!;
      // min(1, f·D) is non-decreasing in u: the stratification bound TIV/S holds (and the CLT one).
      const gap = Math.abs(sampled.groundUp[f]![e]! - mean);
      assert.ok(gap <= 200_000 / S && gap <= 4 * Math.sqrt((200_000 * mean) / S) + 1e-9, `factor ${f} event ${e + 1}`);
    }
  }
  // By hand, event 1 on B: P = [0 .2 .5 .3]; factor 3 caps bin 3 [0.2, 0.6] at D >= 1/3:
  // E[min(1, 3D)] over U(0.2, 0.6) = (1/0.4)·(∫_{0.2}^{1/3} 3x dx + (0.6 - 1/3)) = 0.8333...
  assert.ok(Math.abs(scaledBinMean(0.2, 0.6, 0.4, 3) - (1 / 0.4) * (1.5 * (1 / 9 - 0.04) + (0.6 - 1 / 3))) < 1e-12);
  const byHand = 200_000 * (0.2 * 0.3 + 0.5 * scaledBinMean(0.2, 0.6, 0.4, 3) + 0.3 * 1);
  assert.equal(cents(exact.groundUp[2]![0]!), cents(byHand));
});

test('the same seed replays the run; another seed draws other numbers; terms leave ground-up unchanged', () => {
  const a = unwrap(runGroundUp(model, portfolio, { samples: 20, seed: 5 }));
  const b = unwrap(runGroundUp(model, portfolio, { samples: 20, seed: 5 }));
  const c = unwrap(runGroundUp(model, portfolio, { samples: 20, seed: 6 }));
  assert.deepEqual(Array.from(a.groundUp[0]!), Array.from(b.groundUp[0]!));
  assert.notDeepEqual(Array.from(a.groundUp[0]!), Array.from(c.groundUp[0]!));
  assert.notEqual(eventStreamSeed(5, 1, 0), eventStreamSeed(5, 1, 1));
  const withTerms = unwrap(runGroundUp(model, portfolio, {
    samples: 20, seed: 5,
    terms: { placeDeductible: 1000, placeLimit: 120_000, accountDeductible: 5000, accountLimit: Infinity, cededShare: 0.25, layers: [{ attachment: 10_000, limit: 50_000 }], nonlinearAcrossPlaces: true },
  }));
  for (let e = 0; e < 3; e++) {
    assert.ok(Math.abs(withTerms.groundUp[0]![e]! - a.groundUp[0]![e]!) <= 1e-9 * Math.max(1, a.groundUp[0]![e]!));
  }
  assert.ok(withTerms.conservation.checks > 0);
  assert.ok(withTerms.conservation.max_relative_gap < 1e-12);
});

test('with samples the terms act sample by sample; without, on the mean', () => {
  // One place, B, with a deductible of 30,000 on a loss whose mean in event 2 is 22,000: the mean
  // alone never reaches the deductible, while some samples do.
  const b = keyLocations(model, [TINY_LOCATIONS[1]!]);
  const terms = { placeDeductible: 30_000, placeLimit: Infinity, accountDeductible: 0, accountLimit: Infinity, cededShare: 0, layers: [], nonlinearAcrossPlaces: false };
  const mean = unwrap(runGroundUp(model, b, { samples: 0, terms }));
  const sampled = unwrap(runGroundUp(model, b, { samples: 200, seed: 3, terms }));
  assert.equal(mean.insured![0]![1], 0);
  assert.ok(sampled.insured![0]![1]! > 0);
  assert.equal(cents(mean.insured![0]![0]!), 104_000 - 30_000);
});

test('losses that fail a conservation check are refused with loss_not_conserved, not thrown', () => {
  // Hand-made data built here: the tiny portfolio with its first coverage value made NaN, which no
  // lookup writes, so the losses it reaches are not numbers and the terms cannot conserve them.
  const broken = keyLocations(model, TINY_LOCATIONS);
  broken.covTiv[0] = Number.NaN;
  const terms = { placeDeductible: 1000, placeLimit: Infinity, accountDeductible: 0, accountLimit: Infinity, cededShare: 0, layers: [], nonlinearAcrossPlaces: false };
  const run = runGroundUp(model, broken, { samples: 10, seed: 7, terms });
  assert.equal(run.ok, false);
  if (run.ok) return;
  assert.equal(run.refusal.code, 'loss_not_conserved');
  assert.equal(run.refusal.status, 500);
  assert.match(run.refusal.message, /^Event \d+: .*do not conserve/);
  // The same portfolio unbroken runs.
  assert.equal(runGroundUp(model, keyLocations(model, TINY_LOCATIONS), { samples: 10, seed: 7, terms }).ok, true);
});
