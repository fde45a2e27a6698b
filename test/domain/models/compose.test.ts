// One vocabulary: every built-in trigger design is a composition of the registry's primitives, and
// that composition writes back the same structure the design reads. The published model schema is
// the one the vocabulary builds. The payout check fails a payout above the limit or the annual cap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { compositionOfTerms, modelSchema, termsOfComposition, vocabularyFaults } from '../../../src/domain/models/compose.js';
import { MEASUREMENTS, measurementOfVariable } from '../../../src/domain/models/primitives.js';
import { payoutCheck } from '../../../src/domain/models/validation.js';
import { modelValidator } from '../../../src/domain/models/schema.js';
import { validateStructure } from '../../../src/domain/triggers/index.js';
import { DESIGN_OF_VARIABLE, PERIL_MODELS } from '../../../src/domain/triggers/vocabulary.js';
import type { StructureTerms } from '../../../src/domain/triggers/terms.js';
import { ACCEPTANCE_BODIES, DENVER_HAIL } from '../../support/acceptance.js';

// The kinds of the feeds the acceptance bodies name, as their MANIFEST.json files state them
// (hand-written here: the domain test reads no feed).
const KINDS: Record<string, string> = {
  'usgs-comcat-m6-california': 'event_catalog', 'usgs-nwis-04119000-discharge': 'daily_series', 'noaa-nhc-hurdat2-atlantic': 'track_archive',
  'ghcnd-usw00012816-prcp': 'daily_series', 'usgs-mtbs-northern-california': 'fire_extract', 'noaa-spc-hail-denver': 'storm_report_set',
};
const pinned = (feedId: string, version: string) => (KINDS[feedId] ? { feed_id: feedId, version, kind: KINDS[feedId]! } : undefined);

const DESIGNS: Record<string, StructureTerms> = { ...(ACCEPTANCE_BODIES as Record<string, StructureTerms>), denver_hail: DENVER_HAIL as unknown as StructureTerms };
const validate = modelValidator(JSON.parse(readFileSync(new URL('../../../schemas/model.v0.json', import.meta.url), 'utf8')));

test('every built-in design is a composition in the v1 vocabulary that writes back the structure it came from', () => {
  for (const [name, terms] of Object.entries(DESIGNS)) {
    const composition = compositionOfTerms(terms);
    assert.deepEqual(vocabularyFaults(composition, pinned), [], name);
    assert.deepEqual(validate({ name: name.replace(/_/g, '-'), ...composition }), [], name);
    const written = termsOfComposition(composition, { financial_structure: terms.financial_structure, period: terms.period })!;
    const original = validateStructure(terms);
    const again = validateStructure(written);
    assert.ok(original.structure, `${name}: ${JSON.stringify(original.shape_faults)}`);
    // The structure the designs read (units, windows, bases, region, financial terms, term rule) is the same.
    assert.deepEqual(again.structure, original.structure, name);
  }
});

test('each variable a priced peril reads has its measurement, of the design the variable selects', () => {
  for (const [peril, model] of Object.entries(PERIL_MODELS)) {
    for (const variable of model.variables) {
      const type = Object.keys(DESIGN_OF_VARIABLE).find((t) => DESIGN_OF_VARIABLE[t as keyof typeof DESIGN_OF_VARIABLE][variable] !== undefined
        && model.designs.includes(DESIGN_OF_VARIABLE[t as keyof typeof DESIGN_OF_VARIABLE][variable]!))!;
      const design = DESIGN_OF_VARIABLE[type as keyof typeof DESIGN_OF_VARIABLE][variable]!;
      if (variable === 'report_value') continue; // the generic report variable is read through report_value_in_box's named ones
      // The state event design (grid_outage on the OE-417 record) is not a v1 primitive: none is offered for it.
      if (design === 'state_event') { assert.equal(measurementOfVariable(design, variable), undefined); continue; }
      const m = measurementOfVariable(design, variable);
      assert.ok(m, `${peril} ${variable}`);
      assert.equal(m.design, design, `${peril} ${variable}`);
    }
  }
  assert.equal(new Set(MEASUREMENTS.map((m) => m.id)).size, MEASUREMENTS.length);
});

test('the published model schema is the one the vocabulary builds', () => {
  const file = JSON.parse(readFileSync(new URL('../../../schemas/model.v0.json', import.meta.url), 'utf8'));
  assert.deepEqual(file, modelSchema());
});

test('the vocabulary check names each fault: a primitive missing, unknown, or not connecting', () => {
  const c = compositionOfTerms(DESIGNS.earthquake!);
  assert.deepEqual(vocabularyFaults({ ...c, measurement: undefined }, pinned), ['measurement is missing: a model is composed of a feed, a measurement, transforms ([] for none) and a payout function']);
  assert.match(vocabularyFaults({ ...c, payout_function: 'step' }, pinned)[0]!, /payout_function "step" is not in the v1 vocabulary/);
  assert.match(vocabularyFaults({ ...c, feed: { id: 'ghcnd-usw00012816-prcp', version: 'x' } }, pinned)[0]!, /is daily_series; the measurement magnitude_in_box reads event_catalog/);
  assert.match(vocabularyFaults({ ...c, feed: { id: 'nowhere', version: 'x' } }, pinned)[0]!, /not a pinned snapshot/);
  const flood = compositionOfTerms(DESIGNS.flood!);
  assert.match(vocabularyFaults({ ...flood, transforms: [...flood.transforms, 'occurrence_clustering'] }, pinned)[0]!, /occurrence_clustering is not read by the measurement daily_series_value/);
});

test('the payout check fails a payout above the limit or a year above the annual cap; a ladder pays its running maximum', () => {
  const s = validateStructure(DESIGNS.earthquake!).structure!;
  const artifact = { years: [{ payout: 2_500_000 }, { payout: null }] } as never;
  const passed = payoutCheck(s, artifact);
  assert.equal(passed.passed, true);
  assert.deepEqual([passed.figure.lowest_fraction, passed.figure.highest_fraction, passed.figure.decreases], [0, 1, 0]);
  const above = { ...s, payout: { function: 'ladder' as const, basis: s.payout.basis, levels: [{ at_least: 6.5, fraction: 1.5 }] } };
  const refused = payoutCheck(above, artifact);
  assert.equal(refused.passed, false);
  assert.equal(refused.figure.highest_fraction, 1.5);
  // A year paying above the annual cap (the limit here) fails it too.
  assert.equal(payoutCheck(s, { years: [{ payout: 10_000_001 }] } as never).passed, false);
  // A ladder whose fractions fall is paid as the highest fraction reached so far (payout.ts), so the
  // payout cannot fall; the structure rules refuse such a ladder before it is replayed.
  const falling = { ...s, payout: { function: 'ladder' as const, basis: s.payout.basis, levels: [{ at_least: 6.5, fraction: 0.5 }, { at_least: 7, fraction: 0.25 }] } };
  assert.equal(payoutCheck(falling, artifact).figure.decreases, 0);
});
