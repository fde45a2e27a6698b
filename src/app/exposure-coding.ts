// Exposure coding (POST /exposure-codes) and multi-building flags (POST /multi-building-flags),
// and the tool server's code_exposure_rows and flag_multi_building_rows: the same two use cases.
// In order: the caps (413 before any provider is asked), the switch, the account's daily row
// budget, then the provider; a provider that answers no row at all gives the rows back and answers
// 503 exposure_coding_unavailable, a row it leaves unanswered is answered as unanswered.
import { oedReference } from '../feeds/oed.js';
import type { OedReference } from '../domain/exposure/oed-reference.js';
import type { RowCoding, RowMultiBuilding } from '../providers/ports.js';
import { refusal, type Refusal } from '../kernel/refusal.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { EXPOSURE_CODING_SCHEMA_VERSION } from '../kernel/versions.js';
import type { AppDeps } from './deps.js';

/** SPEC Limits: rows a request, characters a row, bytes a body (the JSON {rows: [...]}). */
export const CODING_LIMITS = { rows: 50, rowCharacters: 1000, bodyBytes: 192 * 1024 } as const;

export interface CodingRequest {
  readonly accountId: string;
  readonly rows: readonly string[];
}

type CodingDeps = Pick<AppDeps, 'config' | 'codingBudget' | 'exposureCoder' | 'feeds' | 'now'>;

export interface CodeField {
  /** The OED code, or null when its confidence is below the gate. */
  readonly code: number | null;
  /** The code proposed, whether or not it cleared the gate. */
  readonly proposed: number;
  /** The OED name of the proposed code. */
  readonly name: string;
  readonly confidence: number;
  readonly cleared_gate: boolean;
}

export interface CodedRow {
  readonly index: number;
  readonly status: 'answered' | 'unanswered';
  readonly occupancy: CodeField | null;
  readonly construction: CodeField | null;
  /** A person should look at it: unanswered, or a code below the gate. */
  readonly needs_review: boolean;
}

export interface FlaggedRow {
  readonly index: number;
  readonly status: 'flagged' | 'below_gate' | 'not_flagged' | 'unanswered';
  /** Probability that the row covers more than one building; null when unanswered. */
  readonly probability: number | null;
  readonly needs_review: boolean;
}

interface Budget { readonly day: string; readonly rows_used: number; readonly rows_per_day: number }

export interface ExposureCodes {
  readonly schema_version: string;
  readonly provider: { readonly name: string; readonly model: string };
  readonly gate: { readonly confidence: number };
  readonly budget: Budget;
  readonly counts: { readonly rows: number; readonly answered: number; readonly unanswered: number; readonly needs_review: number };
  readonly rows: readonly CodedRow[];
}

export interface MultiBuildingFlags {
  readonly schema_version: string;
  readonly provider: { readonly name: string; readonly model: string };
  readonly gate: { readonly flagged_at: number; readonly not_flagged_at: number };
  readonly budget: Budget;
  readonly counts: Readonly<Record<FlaggedRow['status'], number>> & { readonly rows: number };
  readonly rows: readonly FlaggedRow[];
}

const characters = (s: string): number => {
  let n = 0;
  for (const _ of s) n += 1;
  return n;
};

/** The caps of SPEC Limits, checked on the request before anything else; undefined when within them. */
export function codingCapsRefusal(rows: readonly string[]): Refusal | undefined {
  if (rows.length > CODING_LIMITS.rows) {
    return refusal(413, 'payload_too_large', `${rows.length} rows sent; a request codes at most ${CODING_LIMITS.rows} rows.`);
  }
  const long = rows.map((row, index) => ({ index, length: characters(row) })).filter((r) => r.length > CODING_LIMITS.rowCharacters);
  if (long.length > 0) {
    return refusal(413, 'payload_too_large', `${long.length} row(s) longer than ${CODING_LIMITS.rowCharacters} characters.`,
      long.map((r) => `rows[${r.index}]: ${r.length} characters`));
  }
  const bytes = Buffer.byteLength(JSON.stringify({ rows }));
  if (bytes > CODING_LIMITS.bodyBytes) {
    return refusal(413, 'payload_too_large', `The rows make a body of ${bytes} bytes; a request carries at most ${CODING_LIMITS.bodyBytes} bytes (192 KiB).`);
  }
  return undefined;
}

function unavailable(message: string, retryAfter?: number): Refusal {
  return refusal(503, 'exposure_coding_unavailable', message, undefined, retryAfter !== undefined ? { 'retry-after': String(retryAfter) } : undefined);
}

/** Caps, switch and budget: the rows taken from the day's budget, or the refusal. */
async function admit(deps: CodingDeps, input: CodingRequest): Promise<Result<Budget>> {
  if (input.rows.length === 0) return refused(refusal(422, 'invalid_request', 'Send at least one row: {"rows": ["..."]}.'));
  const caps = codingCapsRefusal(input.rows);
  if (caps) return refused(caps);
  const { enabled, dailyRows } = deps.config.exposureCoding;
  if (!enabled) return refused(unavailable('Exposure coding is off in this environment (CATRISK_EXPOSURE_CODING).'));
  const now = deps.now();
  const day = now.toISOString().slice(0, 10);
  const used = await deps.codingBudget.take(input.accountId, day, input.rows.length, dailyRows);
  if (used === undefined) {
    const left = Math.max(0, dailyRows - await deps.codingBudget.used(input.accountId, day));
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    return refused(unavailable(
      `The daily row budget of exposure coding is used: ${left} of ${dailyRows} rows left today (UTC), ${input.rows.length} sent; it renews at midnight UTC.`,
      Math.max(1, Math.ceil((midnight - now.getTime()) / 1000))));
  }
  return ok({ day, rows_used: used, rows_per_day: dailyRows });
}

/** Asks the provider; a throw or no answered row gives the rows back and answers 503. */
async function ask<T>(deps: CodingDeps, input: CodingRequest, budget: Budget, call: () => Promise<Array<T | null>>): Promise<Result<Array<T | null>>> {
  let answers: Array<T | null>;
  try {
    answers = await call();
  } catch (error) {
    await deps.codingBudget.giveBack(input.accountId, budget.day, input.rows.length);
    return refused(unavailable(`The exposure-coding provider gave no usable answer: ${(error as Error).message}.`));
  }
  const answered = answers.slice(0, input.rows.length);
  while (answered.length < input.rows.length) answered.push(null);
  if (answered.every((a) => a === null)) {
    await deps.codingBudget.giveBack(input.accountId, budget.day, input.rows.length);
    return refused(unavailable('The exposure-coding provider answered none of the rows.'));
  }
  return ok(answered);
}

function field(answer: { code: number; confidence: number }, table: ReadonlyMap<number, string>, gate: number): CodeField | null {
  const name = table.get(answer.code);
  if (name === undefined) return null;
  const cleared = answer.confidence >= gate;
  return { code: cleared ? answer.code : null, proposed: answer.code, name, confidence: answer.confidence, cleared_gate: cleared };
}

function codedRow(index: number, answer: RowCoding | null, oed: OedReference, gate: number): CodedRow {
  const occupancy = answer ? field(answer.occupancy, oed.occupancy, gate) : null;
  const construction = answer ? field(answer.construction, oed.construction, gate) : null;
  // A code outside the pinned tables is no answer: the row is unanswered as a whole.
  if (!occupancy || !construction) return { index, status: 'unanswered', occupancy: null, construction: null, needs_review: true };
  return { index, status: 'answered', occupancy, construction, needs_review: !occupancy.cleared_gate || !construction.cleared_gate };
}

async function pinnedOed(deps: CodingDeps): Promise<Result<OedReference>> {
  try {
    return ok(await oedReference(deps.feeds));
  } catch (error) {
    return refused(unavailable(`The pinned OED code lists cannot be read: ${(error as Error).message}`));
  }
}

/** Per row an OED OccupancyCode and ConstructionCode, each with its confidence and the gate's verdict. */
export async function codeExposureRows(deps: CodingDeps, input: CodingRequest): Promise<Result<ExposureCodes>> {
  const admitted = await admit(deps, input);
  if (!admitted.ok) return admitted;
  const budget = admitted.value;
  const oed = await pinnedOed(deps);
  if (!oed.ok) {
    await deps.codingBudget.giveBack(input.accountId, budget.day, input.rows.length);
    return oed;
  }
  const answers = await ask(deps, input, budget, () => deps.exposureCoder.codeRows(input.rows));
  if (!answers.ok) return answers;
  const gate = deps.config.exposureCoding.gate;
  const rows = answers.value.map((a, index) => codedRow(index, a, oed.value, gate));
  if (rows.every((r) => r.status === 'unanswered')) {
    await deps.codingBudget.giveBack(input.accountId, budget.day, input.rows.length);
    return refused(unavailable('The exposure-coding provider answered no row with codes of the pinned OED lists.'));
  }
  const answered = rows.filter((r) => r.status === 'answered').length;
  return ok({
    schema_version: EXPOSURE_CODING_SCHEMA_VERSION,
    provider: { name: deps.exposureCoder.provider, model: deps.exposureCoder.model },
    gate: { confidence: gate },
    budget,
    counts: { rows: rows.length, answered, unanswered: rows.length - answered, needs_review: rows.filter((r) => r.needs_review).length },
    rows,
  });
}

function flaggedRow(index: number, answer: RowMultiBuilding | null, gate: number): FlaggedRow {
  if (!answer) return { index, status: 'unanswered', probability: null, needs_review: true };
  const p = answer.probability;
  const status = p >= gate ? 'flagged' : p <= 1 - gate ? 'not_flagged' : 'below_gate';
  return { index, status, probability: p, needs_review: status === 'below_gate' };
}

/** Per row the probability that it covers more than one building, and its status at the gate. */
export async function flagMultiBuildingRows(deps: CodingDeps, input: CodingRequest): Promise<Result<MultiBuildingFlags>> {
  const admitted = await admit(deps, input);
  if (!admitted.ok) return admitted;
  const budget = admitted.value;
  const answers = await ask(deps, input, budget, () => deps.exposureCoder.flagRows(input.rows));
  if (!answers.ok) return answers;
  const gate = deps.config.exposureCoding.multiBuildingGate;
  const rows = answers.value.map((a, index) => flaggedRow(index, a, gate));
  const count = (s: FlaggedRow['status']) => rows.filter((r) => r.status === s).length;
  return ok({
    schema_version: EXPOSURE_CODING_SCHEMA_VERSION,
    provider: { name: deps.exposureCoder.provider, model: deps.exposureCoder.model },
    gate: { flagged_at: gate, not_flagged_at: Number((1 - gate).toFixed(6)) },
    budget,
    counts: { rows: rows.length, flagged: count('flagged'), below_gate: count('below_gate'), not_flagged: count('not_flagged'), unanswered: count('unanswered') },
    rows,
  });
}
