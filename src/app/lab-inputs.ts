// Inputs users bring to the lab: POST {lab_url}/inputs stores an input (multipart: kind, and the
// kind's file parts) content-addressed, after its kind's reader (feeds/input-readers.ts) has read
// it in a compute thread; GET /inputs/{id} and GET /inputs read back the caller's own. A run spec
// names inputs by id; the lab_run job loads their files (loadRunInputs) and the compute thread
// reads them again with the same readers (readRunInputs) before the lane runs.
import { createHash } from 'node:crypto';
import { contentAddress } from '../kernel/canonical-json.js';
import { refusal, refusals } from '../kernel/refusal.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { INPUT_KINDS, isInputKind, type InputFile, type InputFiles, type InputKind, type UserInput } from '../domain/lab/user-inputs.js';
import { INPUT_READERS } from '../feeds/input-readers.js';
import type { OwnedInputRow, StoredInputFile } from '../store/lab-inputs.js';
import { requireActive } from './accounts.js';
import type { UploadPart } from './ingest.js';
import type { AppDeps } from './deps.js';

/** An input's files together: at most 64 MB (64,000,000 bytes), as ingest counts its 32 MB. */
export const INPUT_FILE_LIMIT = 64_000_000;

/** The kinds, as the form's kind part and the docs name them. */
export const INPUT_KIND_NAMES = Object.keys(INPUT_KINDS) as InputKind[];

/** An input as GET /inputs/{id} and the 201 answer it. */
export interface InputDocument {
  id: string;
  kind: string;
  sha256: string;
  bytes: number;
  summary: Record<string, unknown>;
  files: StoredInputFile[];
  created_at: string;
  links: { self: string };
}

function documentOf(row: OwnedInputRow): InputDocument {
  return {
    id: row.id, kind: row.kind, sha256: row.sha256, bytes: Number(row.size),
    summary: JSON.parse(row.summary) as Record<string, unknown>,
    files: JSON.parse(row.files) as StoredInputFile[],
    created_at: row.owned_at,
    links: { self: `/inputs/${row.id}` },
  };
}

const formFault = (faults: string[]) => refused<never>(refusals.invalidRequest(422, `The form is not acceptable: ${faults.join('; ')}.`, faults));

/** The form's kind and the kind's file parts, each once, nothing else. */
function pickInputParts(parts: readonly UploadPart[]): Result<{ kind: InputKind; files: InputFile[] }> {
  const kinds = parts.filter((p) => p.name === 'kind');
  if (kinds.length !== 1) return formFault([kinds.length === 0 ? `no part named kind (one of ${INPUT_KIND_NAMES.join(', ')})` : 'more than one part named kind']);
  const kind = kinds[0]!.data.toString('utf8').trim();
  if (!isInputKind(kind)) return formFault([`unknown kind "${kind.slice(0, 60)}" (kinds: ${INPUT_KIND_NAMES.join(', ')})`]);
  const wanted = INPUT_KINDS[kind].parts;
  const faults: string[] = [];
  for (const name of wanted) {
    const n = parts.filter((p) => p.name === name).length;
    if (n === 0) faults.push(`no part named ${name} (a ${kind} input takes ${wanted.join(', ')})`);
    if (n > 1) faults.push(`more than one part named ${name}`);
  }
  for (const p of parts) if (p.name !== 'kind' && !wanted.includes(p.name)) faults.push(`unknown part "${p.name}" (a ${kind} input takes kind, ${wanted.join(', ')})`);
  if (faults.length > 0) return formFault(faults);
  return ok({ kind, files: wanted.map((name) => {
    const p = parts.find((x) => x.name === name)!;
    return { part: name, filename: p.filename, bytes: p.data };
  }) });
}

/** An input's digest: its one file's, or for several files the digest of their digests by part. */
function inputDigest(files: readonly { part: string; sha256: string }[]): string {
  return files.length === 1 ? files[0]!.sha256 : contentAddress(Object.fromEntries(files.map((f) => [f.part, f.sha256])));
}

/** The input's content address: the same kind and files are one input, whoever brings them. */
export function inputId(kind: string, files: readonly { part: string; sha256: string }[]): string {
  return `inp_${contentAddress({ kind, files: files.map((f) => [f.part, f.sha256]) }).slice(0, 32)}`;
}

/**
 * POST /inputs: the input read by its kind's reader (in a compute thread) and stored, 201 with its
 * summary; 200 with the same document when this account had already brought it.
 */
export async function storeInput(
  deps: Pick<AppDeps, 'accounts' | 'labInputs' | 'compute' | 'now'>,
  input: { accountId: string; parts: () => Result<readonly UploadPart[]> },
): Promise<Result<{ created: boolean; document: InputDocument }>> {
  const active = await requireActive(deps, input.accountId);
  if (!active.ok) return active;
  const read = input.parts();
  if (!read.ok) return read;
  const picked = pickInputParts(read.value);
  if (!picked.ok) return picked;
  const { kind, files } = picked.value;
  const size = files.reduce((a, f) => a + f.bytes.byteLength, 0);
  if (size > INPUT_FILE_LIMIT) {
    return refused(refusal(413, 'payload_too_large', `The input's files are ${size} bytes; the lab reads inputs of at most 64 MB (64,000,000 bytes).`));
  }
  const digests = files.map((f) => ({ part: f.part, sha256: createHash('sha256').update(f.bytes).digest('hex'), bytes: f.bytes.byteLength }));
  const id = inputId(kind, digests);
  const existing = await deps.labInputs.owned(id, input.accountId);
  if (existing) return ok({ created: false, document: documentOf(existing) });
  // Copied for the thread: the form's parts are views into the request body.
  const summary = await deps.compute('read-input', { kind, files: files.map((f) => ({ part: f.part, filename: f.filename, bytes: new Uint8Array(f.bytes) })) });
  if (!summary.ok) return summary;
  await deps.labInputs.put(
    { id, kind, sha256: inputDigest(digests), size, files: JSON.stringify(digests), summary: JSON.stringify(summary.value) },
    files.map((f, i) => ({ sha256: digests[i]!.sha256, bytes: f.bytes })),
    input.accountId, deps.now(),
  );
  return ok({ created: true, document: documentOf((await deps.labInputs.owned(id, input.accountId))!) });
}

/** GET /inputs/{id}: an input the caller brought (another account's is not found). */
export async function readInput(deps: Pick<AppDeps, 'labInputs'>, input: { accountId: string; id: string }): Promise<Result<InputDocument>> {
  const row = await deps.labInputs.owned(input.id, input.accountId);
  return row ? ok(documentOf(row)) : refused(refusals.notFound(`No input ${input.id} for this key`));
}

/** What the read-input task is handed: the kind and its files. */
export interface ReadInputTaskInput {
  kind: InputKind;
  files: InputFile[];
}

/** Reads an input's files with its kind's reader; a file that does not read is a 422 naming what. */
async function readFiles(kind: InputKind, files: readonly InputFile[]): Promise<Result<unknown>> {
  const byPart: InputFiles = Object.fromEntries(files.map((f) => [f.part, f]));
  try {
    return ok(await (INPUT_READERS[kind] as { read(f: InputFiles): Promise<unknown> }).read(byPart));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return refused(refusals.invalidRequest(422, `The ${kind} input could not be read: ${why}`, [why]));
  }
}

/** Runs in a compute thread: the input read, answered as its summary. */
export async function readInputTask(input: ReadInputTaskInput): Promise<Result<Record<string, unknown>>> {
  const value = await readFiles(input.kind, input.files);
  if (!value.ok) return value;
  return ok((INPUT_READERS[input.kind] as { summary(v: unknown): Record<string, unknown> }).summary(value.value));
}

/** An input a run reads, with its files' bytes (the lab_run job hands it to the compute thread). */
export interface RunInput {
  id: string;
  kind: InputKind;
  sha256: string;
  files: InputFile[];
}

/**
 * The inputs a spec names (member → id), each the caller's own and of the kind the member takes: a
 * missing one is 404, one of another kind 422. With `bytes`, each file's bytes are loaded too.
 */
export async function loadRunInputs(
  deps: Pick<AppDeps, 'labInputs'>,
  accountId: string,
  named: Readonly<Record<string, { id: string; kind: InputKind }>>,
  bytes: boolean,
): Promise<Result<Record<string, RunInput>>> {
  const out: Record<string, RunInput> = {};
  for (const [member, { id, kind }] of Object.entries(named)) {
    const row = await deps.labInputs.owned(id, accountId);
    if (!row) return refused(refusals.notFound(`No input ${id} for this key (spec member ${member})`));
    if (row.kind !== kind) return refused(refusals.invalidRequest(422, `The run spec is not acceptable: ${member} names ${id}, a ${row.kind} input; it takes a ${kind} input.`, [`${member} must name a ${kind} input`]));
    const files: InputFile[] = [];
    if (bytes) {
      for (const f of JSON.parse(row.files) as StoredInputFile[]) {
        const data = await deps.labInputs.file(f.sha256);
        if (!data) return refused(refusal(404, 'not_found', `The files of input ${id} are no longer held; send it again.`));
        files.push({ part: f.part, filename: undefined, bytes: data });
      }
    }
    out[member] = { id, kind: row.kind as InputKind, sha256: row.sha256, files };
  }
  return ok(out);
}

/** In a compute thread: each run input read by its kind's reader, as a lane is handed them. */
export async function readRunInputs(inputs: Readonly<Record<string, RunInput>>): Promise<Result<Record<string, UserInput>>> {
  const out: Record<string, UserInput> = {};
  for (const [member, input] of Object.entries(inputs)) {
    const value = await readFiles(input.kind, input.files);
    if (!value.ok) return value;
    out[member] = { id: input.id, kind: input.kind, sha256: input.sha256, value: value.value as never };
  }
  return ok(out);
}
