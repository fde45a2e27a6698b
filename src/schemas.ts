// The published JSON Schemas under schemas/, read once when the process starts; the domain
// validates against what it is handed. src/ and dist/ sit at the same depth under the package root.
// Each validator is compiled on its first use (compiling all three costs a few hundred ms of CPU,
// which most processes, a worker-only one say, never need); `serve` compiles them before it
// listens (compileSchemaValidators), so no request waits for one.
import { readFileSync } from 'node:fs';
import { riskObjectValidator } from './domain/risk-object/schema.js';
import { modelValidator } from './domain/models/schema.js';
import { listingValidator } from './domain/exchange/listing.js';

const compilers: Array<() => unknown> = [];

/** A validator compiled when first called (or by compileSchemaValidators). */
function compiledOnFirstUse<F extends (...args: never[]) => unknown>(compile: () => F): F {
  let compiled: F | undefined;
  const get = (): F => (compiled ??= compile());
  compilers.push(get);
  return ((...args: Parameters<F>) => get()(...args)) as F;
}

/** Compiles every validator now (a serving process, before it listens). */
export function compileSchemaValidators(): void {
  for (const compile of compilers) compile();
}

export const RISK_OBJECT_SCHEMA_URL = new URL('../schemas/risk-object.v0.json', import.meta.url);
export const riskObjectSchema = JSON.parse(readFileSync(RISK_OBJECT_SCHEMA_URL, 'utf8')) as Record<string, unknown>;

/** Violations of the risk-object schema, each as a sentence (whole object, or one block of $defs). */
export const riskObjectViolations = compiledOnFirstUse(() => riskObjectValidator(riskObjectSchema));

export const MODEL_SCHEMA_URL = new URL('../schemas/model.v0.json', import.meta.url);
export const modelSchemaDocument = JSON.parse(readFileSync(MODEL_SCHEMA_URL, 'utf8')) as Record<string, unknown>;

/** Violations of the published model schema (POST /models), each as a sentence. */
export const modelViolations = compiledOnFirstUse(() => modelValidator(modelSchemaDocument));

export const EXCHANGE_LISTING_SCHEMA_URL = new URL('../schemas/exchange-listing.v0.json', import.meta.url);
export const exchangeListingSchema = JSON.parse(readFileSync(EXCHANGE_LISTING_SCHEMA_URL, 'utf8')) as Record<string, unknown>;

/** Faults of an exchange listing against its published schema (POST and PATCH /exchange/models), each a sentence. */
export const exchangeListingViolations = compiledOnFirstUse(() => listingValidator(exchangeListingSchema));

/** The provider protocol an exchange connector speaks (an OpenAPI document providers implement). */
export const exchangeProviderProtocol = JSON.parse(readFileSync(new URL('../schemas/protocols/exchange-provider.v0.json', import.meta.url), 'utf8')) as Record<string, unknown>;

