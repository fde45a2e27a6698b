// The price job's result against its published schema (schemas/price.v0.json, the contract's
// description of a price job's result): priceTask, the function the job computes with, over every
// trigger design's pinned snapshot, which between them take each fitted view (Gutenberg–Richter,
// Poisson × empirical severity, extreme values of term maxima). A member the code adds or drops
// without the schema fails here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { priceTask } from '../../src/app/price.js';
import type { StructureTerms } from '../../src/domain/triggers/terms.js';
import { ACCEPTANCE_BODIES, DENVER_HAIL } from '../support/acceptance.js';
import { FLORIDA_OUTAGE } from '../support/grid-outage.js';
import { memberPaths, publishedSchema, schemaPaths } from '../support/schema-members.js';
import { store } from '../domain/backtest/support.js';

const schema = publishedSchema('price.v0');
const backtest = publishedSchema('backtest.v0');
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(backtest);
const validate = ajv.compile(schema);

const CASES: Record<string, unknown> = { ...ACCEPTANCE_BODIES, denver_hail: DENVER_HAIL, florida_outage: FLORIDA_OUTAGE };
const seen = new Set<string>();
const methods = new Set<string>();

for (const [name, terms] of Object.entries(CASES)) {
  test(`the ${name} price is valid against schemas/price.v0.json`, async () => {
    const priced = await priceTask({ objectId: 'obj_schema_test', terms: terms as StructureTerms, window: null, feedsDir: undefined }, await store());
    assert.ok(priced.ok, JSON.stringify(!priced.ok && priced.refusal));
    const document = JSON.parse(priced.value) as { fitted_view: { method: string } };
    assert.ok(validate(document), ajv.errorsText(validate.errors, { separator: '\n' }));
    methods.add(document.fitted_view.method);
    for (const path of memberPaths(document)) seen.add(path);
  });
}

test('the prices take every fitted view, and every member they hold is named by the schema', () => {
  assert.deepEqual([...methods].sort(), ['extreme_value_term_maxima', 'gutenberg_richter_poisson', 'poisson_empirical_severity']);
  // Counts by reason (fitted_view.sample.excluded, the structure's selection) are maps: their keys are data, not members.
  const named = schemaPaths(schema, [backtest]);
  const undescribed = [...seen].filter((p) => !named.has(p) && !/^\.fitted_view\.sample\.excluded\./.test(p));
  assert.deepEqual(undescribed, []);
});
