// The windstorm lane with an object's OED terms, applied through the financial module
// (domain/financial/) sample by sample. Checked two ways on the real PiWind files:
//  - OED terms that pay everything (no deductible, no limit, no reinsurance) give insured and net
//    views equal to the ground-up one (1e-9 relative);
//  - revision r3's terms written as the OED set they stand for (place deductible and limit →
//    LocDed6All, LocLimit6All; account deductible and limit → PolDed6All, PolLimit6All; the quota
//    share → a QS on the portfolio at inuring priority 1; each layer → a CXL at priority 2, all on
//    the same retained loss) give the r3 path's insured and net figures (1e-9 relative), event by
//    event, at samples 0 and 20: the r3 spec terms and OED terms are one set of semantics.
// The places and terms are written here for the test (places at cell centres of the model's grid).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { FEEDS_DIR } from '../../support/feeds.js';
import { parsePiwindModel } from '../../../src/domain/lab/lanes/windstorm-piwind/piwind-model.js';
import { runWindstorm } from '../../../src/domain/lab/lanes/windstorm-piwind/windstorm-lane.js';
import { unwrap } from '../../../src/kernel/result.js';
import type { LabLocation } from '../../../src/domain/lab/engine/places.js';

const DIR = path.join(FEEDS_DIR, 'oasis-piwind', '2026-07-30');
const FILES = ['events_p.csv', 'occurrence_lt.csv', 'footprint.csv', 'vulnerability.csv', 'damage_bin_dict.csv', 'intensity_bin_dict.csv',
  'areaperil_dict.csv', 'vulnerability_dict.csv', 'lookup_config.json', 'model_settings.json', 'ModelVersion.csv'];
const texts: Record<string, string> = {};
for (const f of FILES) texts[f] = readFileSync(path.join(DIR, f), 'utf8');
const model = parsePiwindModel(texts, { occurrenceBin: readFileSync(path.join(DIR, 'occurrence_lt.bin')) });
const identity = { feed_id: 'oasis-piwind', version: '2026-07-30', sha256: 'test' };

const PERIL_GROUPS = new Map<string, string[]>();
for (const r of parse(readFileSync(path.join(FEEDS_DIR, 'oed-spec', '2026-07-08', 'PerilsCovered.csv')), { columns: true }) as Record<string, string>[]) {
  PERIL_GROUPS.set(r.PerilsCovered!, [...(PERIL_GROUPS.get(r.PerilsCovered!) ?? []), r.Peril!]);
}

// Twelve places at the centres of wind cells, buildings and contents, wind with storm surge.
const cells = (parse(texts['areaperil_dict.csv']!, { columns: (h: string[]) => h.map((x) => x.trim().toLowerCase()) }) as Record<string, string>[]).filter((r) => r.peril_id === 'WTC' && r.coverage_type === '1');
const places: LabLocation[] = cells.filter((_, i) => i % 9 === 0).slice(0, 12).map((r, n) => {
  const lats = [1, 2, 3, 4].map((k) => Number(r[`lat${k}`]));
  const lons = [1, 2, 3, 4].map((k) => Number(r[`lon${k}`]));
  return {
    ref: `L${n + 1}`, latitude: (Math.min(...lats) + Math.max(...lats)) / 2, longitude: (Math.min(...lons) + Math.max(...lons)) / 2,
    perils_covered: 'WW1', occupancy_code: 1050, buildings_value: 400_000 + 50_000 * n, contents_value: 100_000,
  };
});

const R3 = {
  policy: { place_deductible: 2_000, place_limit: 60_000, account_deductible: 5_000, account_limit: 250_000 },
  reinsurance: { quota_share: { ceded_share: 0.25 }, layers: [{ attachment: 10_000, limit: 20_000 }, { attachment: 40_000, limit: 50_000 }] },
};

function asOed(withTerms: boolean) {
  const p = R3.policy;
  const locations = places.map((l) => ({
    ...l,
    oed: {
      PortNumber: 'P', AccNumber: 'A', LocNumber: l.ref!, LocPerilsCovered: 'WW1', BuildingTIV: l.buildings_value!, ContentsTIV: l.contents_value!,
      ...(withTerms ? { LocDed6All: p.place_deductible, LocLimit6All: p.place_limit } : {}),
    },
  }));
  const accounts = [{ PortNumber: 'P', AccNumber: 'A', PolNumber: '1', ...(withTerms ? { PolDed6All: p.account_deductible, PolLimit6All: p.account_limit } : {}) }];
  const ri = R3.reinsurance;
  const ri_info = withTerms ? [
    { ReinsNumber: 1, CededPercent: ri.quota_share.ceded_share, PlacedPercent: 1, InuringPriority: 1, ReinsType: 'QS', RiskLevel: 'SEL' },
    ...ri.layers.map((l, k) => ({ ReinsNumber: 2 + k, OccAttachment: l.attachment, OccLimit: l.limit, CededPercent: 1, PlacedPercent: 1, InuringPriority: 2, ReinsType: 'CXL' })),
  ] : [];
  const ri_scope = ri_info.map((r) => ({ ReinsNumber: r.ReinsNumber, PortNumber: 'P' }));
  return { locations, oed: { accounts, ri_info, ri_scope } };
}

const near = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

test('OED terms that pay everything: insured and net equal ground up', () => {
  const r = unwrap(runWindstorm(model, { samples: 10, exposure: asOed(false) }, { modelData: identity, perilGroups: PERIL_GROUPS }));
  assert.ok(r.metrics!.average_annual_loss.mean > 0);
  near(r.perspectives!.il.average_annual_loss.mean, r.metrics!.average_annual_loss.mean, 'il AAL');
  near(r.perspectives!.ri.average_annual_loss.mean, r.metrics!.average_annual_loss.mean, 'ri AAL');
});

for (const samples of [0, 20]) {
  test(`r3 terms and the same terms as an OED set agree (samples ${samples})`, () => {
    const r3 = unwrap(runWindstorm(model, { samples, exposure: { locations: places }, terms: R3 }, { modelData: identity }));
    const oed = unwrap(runWindstorm(model, { samples, exposure: asOed(true) }, { modelData: identity, perilGroups: PERIL_GROUPS }));
    near(oed.metrics!.average_annual_loss.mean, r3.metrics!.average_annual_loss.mean, 'ground-up AAL');
    assert.ok(r3.perspectives!.il.average_annual_loss.mean < r3.metrics!.average_annual_loss.mean, 'the terms bind');
    for (const v of ['il', 'ri'] as const) {
      near(oed.perspectives![v].average_annual_loss.mean, r3.perspectives![v].average_annual_loss.mean, `${v} AAL`);
      assert.ok(r3.perspectives![v].places.length > 0);
      r3.perspectives![v].places.forEach((p, i) => near(oed.perspectives![v].places[i]!.aal, p.aal, `${v} place ${i}`));
    }
    assert.equal(oed.terms_summary, null);
    assert.match(String(oed.terms!.source), /OED terms/);
  });
}

test('terms with an object that has OED terms are refused', () => {
  const r = runWindstorm(model, { samples: 0, exposure: asOed(true), terms: R3 }, { modelData: identity, perilGroups: PERIL_GROUPS });
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.refusal.status, 422);
    assert.equal(r.refusal.code, 'invalid_request');
  }
});

// A richer OED set for the twelve places, written here for the test: two accounts, a building
// deductible % of TIV, blanket site terms, a policy deductible with a minimum in two layers with
// participations, an account deductible, then a QS on the portfolio, a per-risk XL by location and
// a CXL. PINNED holds the insured and net AAL (samples 20) and two places' shares that the dense
// evaluation (every item of the programme, one sample at a time: the module before it ran samples
// together over the items an event touches, commit 09ac481) gave for this run; the batch
// evaluation must give them to 1e-9 relative.
function richOed() {
  const locations = places.map((l, n) => ({
    ...l,
    oed: {
      PortNumber: 'P', AccNumber: `A${n % 2}`, LocNumber: l.ref!, LocPerilsCovered: 'WW1', BuildingTIV: l.buildings_value!, ContentsTIV: l.contents_value!,
      LocDed1Building: 0.01, LocDedType1Building: 2, LocDed6All: 1_000, LocLimit6All: 150_000,
    },
  }));
  const accounts = ['A0', 'A1'].flatMap((acc) => [
    { PortNumber: 'P', AccNumber: acc, PolNumber: '1', LayerNumber: 1, PolDed6All: 4_000, PolMinDed6All: 6_000, LayerLimit: 60_000, LayerParticipation: 0.5, AccDed6All: 1_500 },
    { PortNumber: 'P', AccNumber: acc, PolNumber: '1', LayerNumber: 2, PolDed6All: 4_000, PolMinDed6All: 6_000, LayerAttachment: 60_000, LayerLimit: 200_000, LayerParticipation: 0.3, AccDed6All: 1_500 },
  ]);
  const ri_info = [
    { ReinsNumber: 1, ReinsType: 'QS', CededPercent: 0.2, RiskLevel: 'SEL', InuringPriority: 1, PlacedPercent: 1 },
    { ReinsNumber: 2, ReinsType: 'PR', RiskLevel: 'LOC', RiskAttachment: 2_000, RiskLimit: 10_000, InuringPriority: 2, PlacedPercent: 1 },
    { ReinsNumber: 3, ReinsType: 'CXL', OccAttachment: 5_000, OccLimit: 30_000, InuringPriority: 3, PlacedPercent: 0.9 },
  ];
  const ri_scope = ri_info.map((r) => ({ ReinsNumber: r.ReinsNumber, PortNumber: 'P' }));
  return { locations, oed: { accounts, ri_info, ri_scope } };
}

test('a richer OED set gives the figures of the dense evaluation', () => {
  const r = unwrap(runWindstorm(model, { samples: 20, exposure: richOed() }, { modelData: identity, perilGroups: PERIL_GROUPS }));
  const got = {
    il: r.perspectives!.il.average_annual_loss.mean, ri: r.perspectives!.ri.average_annual_loss.mean,
    il0: r.perspectives!.il.places[0]!.aal, ri5: r.perspectives!.ri.places[5]!.aal,
  };
  const PINNED = { il: 50174.45407079711, ri: 12175.903903479104, il0: 5430.737372326056, ri5: 848.6016014254878 };
  assert.ok(PINNED.il < r.metrics!.average_annual_loss.mean && PINNED.ri < PINNED.il, 'the terms bind');
  for (const k of Object.keys(PINNED) as (keyof typeof PINNED)[]) near(got[k], PINNED[k], k);
});
