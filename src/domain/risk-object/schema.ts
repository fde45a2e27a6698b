// The published risk-object JSON Schema is the one source of truth for validating objects.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ErrorObject } from 'ajv';

// src/domain/risk-object and dist/domain/risk-object sit at the same depth under the package root.
export const RISK_OBJECT_SCHEMA_URL = new URL('../../../schemas/risk-object.v0.json', import.meta.url);
export const riskObjectSchema = JSON.parse(readFileSync(RISK_OBJECT_SCHEMA_URL, 'utf8')) as Record<string, unknown>;

const ajv = new Ajv2020({ allErrors: true, strict: false });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const validateObject = ajv.compile(riskObjectSchema);

/** Validates a whole object or one block ('#/$defs/peril' ...); each violation as a sentence. */
export function riskObjectViolations(value: unknown, block?: string): string[] {
  const validate = block ? ajv.getSchema(`${riskObjectSchema.$id as string}#/$defs/${block}`)! : validateObject;
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => describe(e, block));
}

function describe(e: ErrorObject, block?: string): string {
  const at = `${block ?? 'object'}${e.instancePath.replace(/\//g, '.')}`;
  if (e.keyword === 'additionalProperties') return `${at} has an unknown member "${String(e.params.additionalProperty)}"`;
  if (e.keyword === 'required') return `${at} is missing the required member "${String(e.params.missingProperty)}"`;
  if (e.keyword === 'enum') return `${at} must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  return `${at} ${e.message ?? 'is not acceptable'}`;
}
