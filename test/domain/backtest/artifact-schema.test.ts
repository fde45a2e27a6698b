// The backtest artifact's published schema (schemas/backtest.v0.json, the contract's answer to
// GET /backtests/{id}) against real artifacts: each trigger design replayed over its pinned snapshot
// (a catalogue box, a daily series, a track gate as a box and as a polygon, a state's outage events, and hail with an annual
// aggregate), so the schema cannot drift from what artifact.ts writes. A member the code adds or
// drops without the schema fails here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ACCEPTANCE_BODIES, DENVER_HAIL } from '../../support/acceptance.js';
import { FLORIDA_OUTAGE } from '../../support/grid-outage.js';
import { memberPaths, publishedSchema, schemaPaths } from '../../support/schema-members.js';
import { backtest } from './support.js';

const schema = publishedSchema('backtest.v0');
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
const validate = ajv.compile(schema);

/** The tropical-cyclone body with its gate drawn as a polygon (the same square as its box). */
const POLYGON_GATE = {
  ...(ACCEPTANCE_BODIES.tropical_cyclone as object),
  peril: { code: 'tropical_cyclone', region: { type: 'polygon', coordinates: [[-81, 25], [-79.5, 25], [-79.5, 26.5], [-81, 26.5], [-81, 25]] } },
};
const CASES: Record<string, unknown> = { ...ACCEPTANCE_BODIES, tropical_cyclone_polygon: POLYGON_GATE, denver_hail: DENVER_HAIL, florida_outage: FLORIDA_OUTAGE };
const seen = new Set<string>();

for (const [name, terms] of Object.entries(CASES)) {
  test(`the ${name} backtest's artifact is valid against schemas/backtest.v0.json`, async () => {
    const artifact = await backtest(terms);
    assert.ok(validate(artifact), ajv.errorsText(validate.errors, { separator: '\n' }));
    for (const path of memberPaths(artifact)) seen.add(path);
  });
}

test('every member the artifacts hold is named by the schema (no member left undescribed)', () => {
  assert.ok(seen.size > 100, `${seen.size} member paths seen`);
  // Counts by reason (selection.excluded, selection.record_counts) are maps: their keys are data, not members.
  const named = schemaPaths(schema);
  const undescribed = [...seen].filter((p) => !named.has(p) && !/^\.selection\.(excluded|record_counts)\./.test(p));
  assert.deepEqual(undescribed, []);
});
