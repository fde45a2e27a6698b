// The per-place lanes' way to an object's OED terms (engine/place-terms.ts) on a hand-made OED set
// (three locations, written here): a place's loss split onto its building and contents items by
// their TIVs, other and BI taking nothing, a location that does not cover the lane's peril insuring
// nothing, and a 30% quota share; every figure recomputed independently to 1e-9 relative.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { FEEDS_DIR } from '../../support/feeds.js';
import { impactTerms, PlaceTerms, termsPerspectives } from '../../../src/domain/lab/engine/place-terms.js';
import type { LabLocation } from '../../../src/domain/lab/engine/places.js';
import type { Impact } from '../../../src/domain/lab/engine/impact.js';

const PERIL_GROUPS = new Map<string, string[]>();
for (const r of parse(readFileSync(path.join(FEEDS_DIR, 'oed-spec', '2026-07-08', 'PerilsCovered.csv')), { columns: true }) as Record<string, string>[]) {
  PERIL_GROUPS.set(r.PerilsCovered!, [...(PERIL_GROUPS.get(r.PerilsCovered!) ?? []), r.Peril!]);
}

const location = (oed: Record<string, string | number>): LabLocation => ({
  latitude: 0, longitude: 0, oed: { PortNumber: 'P1', AccNumber: 'A1', ...oed },
  buildings_value: Number(oed.BuildingTIV ?? 0), contents_value: Number(oed.ContentsTIV ?? 0),
  other_value: Number(oed.OtherTIV ?? 0), bi_value: Number(oed.BITIV ?? 0),
});
const LOCATIONS = [
  // Site all deductible and limit; other and BI values the lane does not damage.
  location({ LocNumber: 'L0', LocPerilsCovered: 'WW1', BuildingTIV: 800_000, ContentsTIV: 200_000, OtherTIV: 50_000, BITIV: 100_000, LocDed6All: 50_000, LocLimit6All: 400_000 }),
  // Earthquake only: the wind lane's loss here is not insured.
  location({ LocNumber: 'L1', LocPerilsCovered: 'QEQ', BuildingTIV: 1_000_000, ContentsTIV: 0 }),
  // Coverage deductibles: the split onto building and contents decides what each retains.
  location({ LocNumber: 'L2', LocPerilsCovered: 'WTC', BuildingTIV: 600_000, ContentsTIV: 400_000, LocDed1Building: 10_000, LocDed3Contents: 30_000 }),
];
const SET = {
  accounts: [{ PortNumber: 'P1', AccNumber: 'A1', PolNumber: 'POL1', PolPerilsCovered: 'AA1' }],
  ri_info: [{ ReinsNumber: 1, CededPercent: 0.3, RiskLimit: 0, RiskAttachment: 0, OccLimit: 0, OccAttachment: 0, PlacedPercent: 1, InuringPriority: 1, ReinsType: 'QS', RiskLevel: '' }],
  ri_scope: [{ ReinsNumber: 1, PortNumber: 'P1', AccNumber: '', PolNumber: '', LocNumber: '', CededPercent: '' }],
};

/** Independently: each place's insured loss for its ground-up loss g. */
function insured(place: number, g: number): number {
  if (place === 0) return Math.min(400_000, Math.max(0, g - 50_000));
  if (place === 1) return 0;
  return Math.max(0, g * 0.6 - 10_000) + Math.max(0, g * 0.4 - 30_000);
}
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

test('one event: the place\'s loss split by TIV onto building and contents, the lane\'s peril only, recomputed to 1e-9', () => {
  const terms = PlaceTerms.of(LOCATIONS, SET, PERIL_GROUPS, ['WTC'])!;
  assert.ok(terms.reinsured);
  const events = [[120_000, 300_000, 80_000], [900_000, 0, 1_000_000], [10_000, 5_000, 20_000], [0, 0, 0]];
  for (const losses of events) {
    const placeIl = new Float64Array(3);
    const placeRi = new Float64Array(3);
    const t = terms.event([0, 1, 2], losses, 0, 3, placeIl, placeRi, 2);
    const expected = losses.reduce((s, g, p) => s + insured(p, g), 0);
    assert.ok(close(t.il, expected), `${losses}: il ${t.il} vs ${expected}`);
    assert.ok(close(t.ri, 0.7 * expected), `${losses}: ri ${t.ri}`);
    losses.forEach((g, p) => {
      assert.ok(close(placeIl[p]!, 2 * insured(p, g)), `place ${p}: ${placeIl[p]} vs 2 × ${insured(p, g)}`);
      assert.ok(close(placeRi[p]!, 2 * 0.7 * insured(p, g)));
    });
  }
  // The same terms for an earthquake lane: only the earthquake location insures.
  const quake = PlaceTerms.of(LOCATIONS, SET, PERIL_GROUPS, ['QEQ'])!;
  assert.ok(close(quake.event([0, 1, 2], [100_000, 300_000, 100_000], 0, 3).il, 300_000));
  // No OED set: no terms.
  assert.equal(PlaceTerms.of(LOCATIONS, undefined, PERIL_GROUPS, ['WTC']), null);
});

test('an impact, event by event, and the il and ri lab-metrics/1 blocks weighted by the occurrences', () => {
  const terms = PlaceTerms.of(LOCATIONS, SET, PERIL_GROUPS, ['WTC'])!;
  // Hand-made impact: event 7 reaches places 0 and 2, event 9 place 2 only.
  const impact: Impact = {
    event_ids: Int32Array.from([7, 9]), frequency: Float64Array.from([0.1, 0.1]),
    at_event: Float64Array.from([500_000, 200_000]), eai_exp: new Float64Array(3), aai_agg: 0,
    imp_mat: { rowStart: Int32Array.from([0, 2, 3]), place: Int32Array.from([0, 2, 2]), loss: Float64Array.from([300_000, 200_000, 200_000]) },
  };
  const occurrences = [{ event_id: 7, period: 1 }, { event_id: 9, period: 2 }, { event_id: 9, period: 4 }];
  const losses = impactTerms(terms, impact, occurrences);
  const e7 = insured(0, 300_000) + insured(2, 200_000);
  const e9 = insured(2, 200_000);
  assert.deepEqual(losses.il.map((e) => e.event_id), [7, 9]);
  assert.ok(close(losses.il[0]!.loss, e7) && close(losses.il[1]!.loss, e9));
  assert.ok(close(losses.placeIl[2]!, insured(2, 200_000) * 3), 'place 2: once for event 7, twice for event 9');
  const { il, ri } = termsPerspectives(losses, { lossBasis: 'test', periods: 4, occurrences });
  assert.equal(il.schema, 'lab-metrics/1');
  assert.equal(il.perspective, 'insured');
  assert.ok(close(il.average_annual_loss.mean, (e7 + 2 * e9) / 4));
  assert.ok(close(ri.average_annual_loss.mean, 0.7 * (e7 + 2 * e9) / 4));
  assert.ok(close(il.places.find((p) => p.index === 0)!.aal, insured(0, 300_000) / 4));
});
