// The published JSON Schemas under schemas/, read once when the process starts; the domain
// validates against what it is handed. src/ and dist/ sit at the same depth under the package root.
import { readFileSync } from 'node:fs';
import { riskObjectValidator } from './domain/risk-object/schema.js';

export const RISK_OBJECT_SCHEMA_URL = new URL('../schemas/risk-object.v0.json', import.meta.url);
export const riskObjectSchema = JSON.parse(readFileSync(RISK_OBJECT_SCHEMA_URL, 'utf8')) as Record<string, unknown>;

/** Violations of the risk-object schema, each as a sentence (whole object, or one block of $defs). */
export const riskObjectViolations = riskObjectValidator(riskObjectSchema);
