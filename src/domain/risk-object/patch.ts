// PATCH of a risk object (SPEC: PATCH /objects/{id}, States: risk object). Pure.
import { isDeepStrictEqual } from 'node:util';
import { ok, refused, type Result } from '../../kernel/result.js';
import { refusal } from '../../kernel/refusal.js';
import type { RiskObjectViolations } from './schema.js';

export type RiskObject = Record<string, unknown> & { id: string; status: string };

/** The six blocks a PATCH may write; each replaces the block of that name whole (null removes it). */
export const WRITABLE_BLOCKS = ['peril', 'financial_structure', 'trigger', 'period', 'parties', 'jurisdiction'] as const;

/** The blocks a technical price is computed from: moving one returns a priced object to draft. */
export const PRICED_INPUTS = ['peril', 'financial_structure', 'trigger', 'period'] as const;

const READ_ONLY: Record<string, string> = {
  id: 'id is set by the server when the object is created and never changes',
  schema_version: 'schema_version is set by the server from the schema the object was stored under',
  status: 'status is set by the server: draft after ingest or creation, priced after a price run',
  exposure: 'exposure is written by ingest (POST /ingest) or at creation (POST /objects) and is read-only',
  provenance: 'provenance is written by the server and only ever grows',
  technical_premium: 'technical_premium is written by a price run (POST /objects/{id}/price)',
};

export interface PatchApplied {
  readonly object: RiskObject;
  /** The blocks whose value moved (none when every block named already held its value). */
  readonly changed: string[];
  readonly returnedToDraft: boolean;
}

/** A PATCH refused for its content (422 invalid_request, every fault named). */
function patchRefused(message: string, details: string[]): Result<PatchApplied> {
  return refused(refusal(422, 'invalid_request', message, details));
}

/** Applies a PATCH body; `violations` checks each written block against the risk-object schema. */
export function applyPatch(object: RiskObject, body: unknown, at: string, violations: RiskObjectViolations): Result<PatchApplied> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return patchRefused('A PATCH body is a JSON object naming the blocks to write.', ['body must be an object']);
  }
  const faults: string[] = [];
  for (const key of Object.keys(body)) {
    if (key in READ_ONLY) faults.push(READ_ONLY[key]!);
    else if (!(WRITABLE_BLOCKS as readonly string[]).includes(key)) {
      faults.push(`${key} is not a member of the risk object; writable blocks are ${WRITABLE_BLOCKS.join(', ')}`);
    }
  }
  const entries = Object.entries(body as Record<string, unknown>).filter(([k]) => (WRITABLE_BLOCKS as readonly string[]).includes(k));
  for (const [block, value] of entries) {
    if (value !== null) faults.push(...violations(value, block));
  }
  if (Object.keys(body).length === 0) faults.push('the body names no block to write');
  if (faults.length > 0) return patchRefused(`The PATCH is not acceptable: ${faults.length} fault${faults.length === 1 ? '' : 's'}.`, faults);

  const next: RiskObject = { ...object };
  const changed: string[] = [];
  for (const [block, value] of entries) {
    if (isDeepStrictEqual(object[block] ?? null, value)) continue;
    changed.push(block);
    if (value === null) delete next[block];
    else next[block] = value;
  }
  const returnedToDraft = object.status === 'priced' && changed.some((b) => (PRICED_INPUTS as readonly string[]).includes(b));
  if (returnedToDraft) {
    next.status = 'draft';
    delete next.technical_premium;
  }
  if (changed.length > 0) {
    const provenance = (next.provenance ?? { source_files: [], runs: [] }) as { source_files: unknown[]; runs: unknown[] };
    next.provenance = {
      ...provenance,
      runs: [...provenance.runs, { kind: 'patch', blocks: changed, recorded_at: at, ...(returnedToDraft ? { returned_to_draft: true, note: 'a priced input moved: the premium was removed' } : {}) }],
    };
  }
  return ok({ object: next, changed, returnedToDraft });
}
