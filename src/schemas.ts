// The published JSON Schemas under schemas/, read once when the process starts; the domain
// validates against what it is handed. src/ and dist/ sit at the same depth under the package root.
import { readFileSync } from 'node:fs';
import { riskObjectValidator } from './domain/risk-object/schema.js';
import { modelValidator } from './domain/models/schema.js';

export const RISK_OBJECT_SCHEMA_URL = new URL('../schemas/risk-object.v0.json', import.meta.url);
export const riskObjectSchema = JSON.parse(readFileSync(RISK_OBJECT_SCHEMA_URL, 'utf8')) as Record<string, unknown>;

/** Violations of the risk-object schema, each as a sentence (whole object, or one block of $defs). */
export const riskObjectViolations = riskObjectValidator(riskObjectSchema);

export const MODEL_SCHEMA_URL = new URL('../schemas/model.v0.json', import.meta.url);
export const modelSchemaDocument = JSON.parse(readFileSync(MODEL_SCHEMA_URL, 'utf8')) as Record<string, unknown>;

/** Violations of the published model schema (POST /models), each as a sentence. */
export const modelViolations = modelValidator(modelSchemaDocument);
