// Validation against the published model schema (schemas/model.v0.json, handed in by src/schemas.ts):
// each violation as a sentence naming where it is.
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv';

export type ModelViolations = (value: unknown) => string[];

export function modelValidator(schema: Record<string, unknown>): ModelViolations {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const validate = ajv.compile(schema);
  return (value) => {
    if (validate(value)) return [];
    // if/then keywords repeat what their branch's own error already says.
    const seen = new Set<string>();
    return (validate.errors ?? []).filter((e) => e.keyword !== 'if').map(describe).filter((d) => !seen.has(d) && seen.add(d));
  };
}

function describe(e: ErrorObject): string {
  const at = `model${e.instancePath.replace(/\//g, '.')}`;
  if (e.keyword === 'additionalProperties') return `${at} has an unknown member "${String(e.params.additionalProperty)}"`;
  if (e.keyword === 'required') return `${at} is missing the required member "${String(e.params.missingProperty)}"`;
  if (e.keyword === 'enum') return `${at} must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  if (e.keyword === 'const') return `${at} must be ${JSON.stringify(e.params.allowedValue)}`;
  return `${at} ${e.message ?? 'is not acceptable'}`;
}
