// Validation against the published risk-object JSON Schema, the one source of truth for objects.
// The schema is handed in by whoever read it (src/schemas.ts): the domain does no I/O.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ErrorObject } from 'ajv';

/** Validates a whole object or one block ('peril', ...); each violation as a sentence. */
export type RiskObjectViolations = (value: unknown, block?: string) => string[];

export function riskObjectValidator(riskObjectSchema: Record<string, unknown>): RiskObjectViolations {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  const validateObject = ajv.compile(riskObjectSchema);
  return (value, block) => {
    const validate = block ? ajv.getSchema(`${riskObjectSchema.$id as string}#/$defs/${block}`)! : validateObject;
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => describe(e, block));
  };
}

function describe(e: ErrorObject, block?: string): string {
  const at = `${block ?? 'object'}${e.instancePath.replace(/\//g, '.')}`;
  if (e.keyword === 'additionalProperties') return `${at} has an unknown member "${String(e.params.additionalProperty)}"`;
  if (e.keyword === 'required') return `${at} is missing the required member "${String(e.params.missingProperty)}"`;
  if (e.keyword === 'enum') return `${at} must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  return `${at} ${e.message ?? 'is not acceptable'}`;
}
