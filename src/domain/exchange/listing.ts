// An exchange listing as data: its published schema's faults (schemas/exchange-listing.v0.json,
// handed in by src/schemas.ts), its states and the moves between them, and the listing as answered
// (never its credentials).
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv';

export const LISTING_ID = /^xm_[0-9a-f]{16}$/;
export const ACCOUNT_ID = /^acct_[0-9a-f]{24}$/;

export type ListingState = 'draft' | 'in_review' | 'listed' | 'rejected' | 'withdrawn';
export type ListingStep = 'review' | 'approve' | 'reject' | 'withdraw';

/** What a provider writes (credentials apart, which are sealed and kept beside it). */
export interface ListingTerms {
  name: string;
  description: string;
  perils: string[];
  regions: string[];
  access: 'free' | 'by_grant';
  access_url: string;
  connector: { base_url: string; model_ref: string };
  provider: { name: string; email: string; url?: string };
}

/**
 * The full move table (published in docs/exchange.md). review and withdraw are the provider's
 * (POST /exchange/models/{id}/review, /withdraw); approve and reject are a person's, by the operator
 * commands `catrisk exchange approve|reject`. PATCH changes a listing in any state and moves none.
 */
export const MOVES: ReadonlyArray<{ step: ListingStep; from: readonly ListingState[]; to: ListingState; by: string; condition?: string }> = [
  { step: 'review', from: ['draft', 'rejected', 'withdrawn'], to: 'in_review', by: 'provider', condition: 'credentials stored' },
  { step: 'approve', from: ['in_review'], to: 'listed', by: 'operator' },
  { step: 'reject', from: ['in_review'], to: 'rejected', by: 'operator', condition: 'a reason, shown to the provider' },
  { step: 'withdraw', from: ['draft', 'in_review', 'listed', 'rejected'], to: 'withdrawn', by: 'provider' },
];

/** The state a step leads to, or why it cannot be taken from this state. */
export function move(state: ListingState, step: ListingStep, credentialsStored: boolean): { to: ListingState } | { fault: string } {
  const row = MOVES.find((m) => m.step === step)!;
  if (!row.from.includes(state)) {
    const why = state === 'listed' && step === 'review' ? 'it is already listed' : state === 'in_review' && step === 'review' ? 'it is already in review' : `it is ${state.replace('_', ' ')}`;
    return { fault: `The listing cannot take the step ${step}: ${why} (${step} moves a listing from ${row.from.join(', ')}).` };
  }
  if (step === 'review' && !credentialsStored) {
    return { fault: 'The listing cannot be reviewed before its connector credentials are stored: PATCH connector.credentials first (POST /exchange/models/{id}/check then shows whether the platform can be reached with them).' };
  }
  return { to: row.to };
}

export type ListingViolations = (value: unknown) => string[];

/** Faults of a listing against the published schema, each a sentence naming where it is. */
export function listingValidator(schema: Record<string, unknown>): ListingViolations {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const validate = ajv.compile(schema);
  return (value) => {
    if (validate(value)) return [];
    const seen = new Set<string>();
    return (validate.errors ?? []).map(describe).filter((d) => !seen.has(d) && seen.add(d));
  };
}

function describe(e: ErrorObject): string {
  const at = `listing${e.instancePath.replace(/\//g, '.')}`;
  if (e.keyword === 'additionalProperties') return `${at} has an unknown member "${String(e.params.additionalProperty)}"`;
  if (e.keyword === 'required') return `${at} is missing the required member "${String(e.params.missingProperty)}"`;
  if (e.keyword === 'enum') return `${at} must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  if (e.keyword === 'pattern') return `${at} must match ${String(e.params.pattern)}`;
  return `${at} ${e.message ?? 'is not acceptable'}`;
}

/** A PATCH body over the stored terms: each member replaces its own, connector's members one by one. */
export function patchedTerms(stored: ListingTerms, patch: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...stored };
  for (const [name, value] of Object.entries(patch)) {
    if (name === 'connector' && value !== null && typeof value === 'object' && !Array.isArray(value)) merged.connector = { ...stored.connector, ...(value as object) };
    else merged[name] = value;
  }
  return merged;
}
