// The published JSON Schemas under schemas/, read once when the process starts; the domain
// validates against what it is handed. src/ and dist/ sit at the same depth under the package root.
import { readFileSync } from 'node:fs';
import { riskObjectValidator } from './domain/risk-object/schema.js';
import { modelValidator } from './domain/models/schema.js';
import { listingValidator } from './domain/exchange/listing.js';

export const RISK_OBJECT_SCHEMA_URL = new URL('../schemas/risk-object.v0.json', import.meta.url);
export const riskObjectSchema = JSON.parse(readFileSync(RISK_OBJECT_SCHEMA_URL, 'utf8')) as Record<string, unknown>;

/** Violations of the risk-object schema, each as a sentence (whole object, or one block of $defs). */
export const riskObjectViolations = riskObjectValidator(riskObjectSchema);

export const MODEL_SCHEMA_URL = new URL('../schemas/model.v0.json', import.meta.url);
export const modelSchemaDocument = JSON.parse(readFileSync(MODEL_SCHEMA_URL, 'utf8')) as Record<string, unknown>;

/** Violations of the published model schema (POST /models), each as a sentence. */
export const modelViolations = modelValidator(modelSchemaDocument);

export const EXCHANGE_LISTING_SCHEMA_URL = new URL('../schemas/exchange-listing.v0.json', import.meta.url);
export const exchangeListingSchema = JSON.parse(readFileSync(EXCHANGE_LISTING_SCHEMA_URL, 'utf8')) as Record<string, unknown>;

/** Faults of an exchange listing against its published schema (POST and PATCH /exchange/models), each a sentence. */
export const exchangeListingViolations = listingValidator(exchangeListingSchema);

/** The provider protocol an exchange connector speaks (an OpenAPI document providers implement). */
export const exchangeProviderProtocol = JSON.parse(readFileSync(new URL('../schemas/protocols/exchange-provider.v0.json', import.meta.url), 'utf8')) as Record<string, unknown>;
