// The backtest artifact's published schema (schemas/backtest.v0.json, the contract's answer to
// GET /backtests/{id}) against real artifacts: each trigger design replayed over its pinned snapshot
// (a catalogue box, a daily series, a track gate, a state's outage events, and hail with an annual
// aggregate), so the schema cannot drift from what artifact.ts writes. A member the code adds or
// drops without the schema fails here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ACCEPTANCE_BODIES, DENVER_HAIL } from '../../support/acceptance.js';
import { FLORIDA_OUTAGE } from '../../support/grid-outage.js';
import { backtest } from './support.js';

const schema = JSON.parse(readFileSync(new URL('../../../schemas/backtest.v0.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
const validate = ajv.compile(schema);

/** Every member name an artifact holds, by where it sits (years[], occurrences[] and the like folded). */
function memberPaths(value: unknown, at = '', out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) memberPaths(item, `${at}[]`, out);
  else if (value && typeof value === 'object') {
    for (const [name, member] of Object.entries(value)) {
      out.add(`${at}.${name}`);
      memberPaths(member, `${at}.${name}`, out);
    }
  }
  return out;
}

/** Every member path the schema names (following its $defs), in the same notation. */
function schemaPaths(node: unknown, at = '', out = new Set<string>(), depth = 0): Set<string> {
  if (!node || typeof node !== 'object' || depth > 12) return out;
  const s = node as Record<string, unknown>;
  if (typeof s.$ref === 'string') return schemaPaths((schema.$defs as Record<string, unknown>)[s.$ref.replace('#/$defs/', '')], at, out, depth + 1);
  for (const [name, member] of Object.entries((s.properties as Record<string, unknown> | undefined) ?? {})) {
    out.add(`${at}.${name}`);
    schemaPaths(member, `${at}.${name}`, out, depth + 1);
  }
  if (s.items) schemaPaths(s.items, `${at}[]`, out, depth + 1);
  for (const variant of (s.anyOf as unknown[] | undefined) ?? []) schemaPaths(variant, at, out, depth + 1);
  return out;
}

const CASES: Record<string, unknown> = { ...ACCEPTANCE_BODIES, denver_hail: DENVER_HAIL, florida_outage: FLORIDA_OUTAGE };
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
