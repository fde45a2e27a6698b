// The ingest verb (SPEC Ingest rules): every fault knowable without reading the file is answered on
// the request; the job reads the uploaded schedule off the event loop, stores one risk object and
// meters it.
import { createHash } from 'node:crypto';
import type { MessagePort } from 'node:worker_threads';
import type { ReadScheduleInput } from './read-schedule.js';
import { contentAddress } from '../kernel/canonical-json.js';
import type { StagedLocations } from '../store/objects.js';
import type { OedPart } from '../domain/exposure/oed-set.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { refusal, refusals } from '../kernel/refusal.js';
import { INGEST_READER_VERSION } from '../kernel/versions.js';
import { requireActive } from './accounts.js';
import { queueJob, type QueuedJob } from './jobs.js';
import { counted, fractionOf, ProgressCount, recordingProgress, type Counted, type JobProgress } from './progress.js';
import type { AppDeps } from './deps.js';

/** SPEC Limits: 32 MB, in decimal megabytes (32,000,000 bytes). */
export const INGEST_FILE_LIMIT = 32_000_000;

/** Part types read and recorded as declared (SPEC Ingest rule 2). */
const RECORDED_TYPES = new Set([
  'application/json', 'application/x-ndjson', 'application/csv', 'application/jsonl', 'application/ndjson',
  'application/x-csv', 'application/x-jsonlines',
]);

export type DeclaredType = { read: true; recorded: string | undefined } | { read: false };

export function classifyPartType(contentType: string | undefined): DeclaredType {
  if (contentType === undefined) return { read: true, recorded: undefined };
  const bare = contentType.split(';')[0]!.trim().toLowerCase();
  if (bare === 'application/octet-stream' || bare === '') return { read: true, recorded: undefined };
  if (bare.startsWith('text/') || RECORDED_TYPES.has(bare)) return { read: true, recorded: bare };
  return { read: false };
}

/** One part of the upload form, as the edge read it. */
export interface UploadPart {
  name: string;
  filename: string | undefined;
  contentType: string | undefined;
  data: Buffer;
}

/** The OED set's files beside the location file (OED 5.0: account, reinsurance info and scope). */
const OED_PART_NAMES: readonly OedPart[] = ['account', 'ri_info', 'ri_scope'];
const PART_NAMES = ['file', 'currency', ...OED_PART_NAMES];

interface PickedParts {
  file: UploadPart;
  currency: string | undefined;
  oed: Partial<Record<OedPart, UploadPart>>;
}

/** The form's parts: one file, at most one currency, at most one of each OED part (ri_info and ri_scope together), nothing else. */
function pickParts(parts: readonly UploadPart[]): Result<PickedParts> {
  const unknown = parts.filter((p) => !PART_NAMES.includes(p.name)).map((p) => p.name);
  const faults: string[] = [];
  const named = (name: string) => parts.filter((p) => p.name === name);
  if (named('file').length === 0) faults.push('no part named file');
  for (const name of PART_NAMES) if (named(name).length > 1) faults.push(name === 'currency' ? 'more than one currency part' : `more than one part named ${name}`);
  if ((named('ri_info').length > 0) !== (named('ri_scope').length > 0)) faults.push('ri_info and ri_scope are sent together (a contract without its scope, or a scope without its contracts, cannot be read)');
  for (const name of unknown) faults.push(`unknown part "${name}" (parts read: ${PART_NAMES.join(', ')})`);
  if (faults.length > 0) {
    return refused(refusals.invalidRequest(422, `The form is not acceptable: ${faults.join('; ')}.`, faults));
  }
  const currency = named('currency')[0]?.data.toString('utf8').trim();
  const oed: Partial<Record<OedPart, UploadPart>> = {};
  for (const name of OED_PART_NAMES) {
    const part = named(name)[0];
    if (part) oed[name] = part;
  }
  return ok({ file: named('file')[0]!, currency, oed });
}

/** A file part that is read: its declared type, refused when unread, and its size within the limit. */
function checkFilePart(part: UploadPart, label: string): Result<DeclaredType & { read: true }> {
  const declared = classifyPartType(part.contentType);
  if (!declared.read) {
    return refused(refusal(415, 'unsupported_media_type',
      `The ${label} part's type ${part.contentType} is not read; send delimited text (text/csv, text/tab-separated-values, text/plain) or JSON Lines (application/x-ndjson).`));
  }
  if (part.data.byteLength > INGEST_FILE_LIMIT) {
    return refused(refusal(413, 'payload_too_large', `The ${label} part is ${part.data.byteLength} bytes; ingest reads files of at most 32 MB (32,000,000 bytes).`));
  }
  return ok(declared);
}

/**
 * POST /ingest: the upload is kept by its digest and an ingest job queued. `parts` reads the form
 * (or refuses it as unreadable); it is called only once the account is known to be active.
 */
export async function acceptUpload(
  deps: Pick<AppDeps, 'accounts' | 'objects' | 'jobs' | 'wakeWorker'>,
  input: { accountId: string; parts: () => Result<readonly UploadPart[]> },
): Promise<Result<QueuedJob>> {
  const active = await requireActive(deps, input.accountId);
  if (!active.ok) return active;
  const read = input.parts();
  if (!read.ok) return read;
  const picked = pickParts(read.value);
  if (!picked.ok) return picked;
  const { file, currency, oed } = picked.value;
  const declared = classifyPartType(file.contentType);
  if (!declared.read) {
    return refused(refusal(415, 'unsupported_media_type',
      `The file part's type ${file.contentType} is not read; send delimited text (text/csv, text/tab-separated-values, text/plain) or JSON Lines (application/x-ndjson).`));
  }
  if (currency !== undefined && !/^[A-Za-z]{3}$/.test(currency)) {
    return refused(refusals.invalidRequest(422, `The currency part must be a three-letter ISO 4217 code; got "${currency.slice(0, 40)}".`));
  }
  if (file.data.byteLength > INGEST_FILE_LIMIT) {
    return refused(refusal(413, 'payload_too_large', `The file is ${file.data.byteLength} bytes; ingest reads files of at most 32 MB (32,000,000 bytes).`));
  }
  const oedParts: IngestJobInput['oed_parts'] = {};
  for (const name of OED_PART_NAMES) {
    const part = oed[name];
    if (!part) continue;
    const checked = checkFilePart(part, name);
    if (!checked.ok) return checked;
    oedParts[name] = { upload_sha256: createHash('sha256').update(part.data).digest('hex'), file_name: part.filename || name, media_type: checked.value.recorded ?? null };
  }
  const sha256 = createHash('sha256').update(file.data).digest('hex');
  await deps.objects.putUpload(sha256, file.data);
  for (const name of OED_PART_NAMES) if (oed[name]) await deps.objects.putUpload(oedParts[name]!.upload_sha256, oed[name].data);
  const subject: Record<string, unknown> = { source: file.filename || 'file' };
  if (currency !== undefined) subject.declared_currency = currency;
  if (declared.recorded !== undefined) subject.media_type = declared.recorded;
  const jobInput: IngestJobInput = { upload_sha256: sha256, file_name: file.filename || 'file', currency: currency?.toUpperCase() ?? null };
  if (Object.keys(oedParts).length > 0) {
    jobInput.oed_parts = oedParts;
    subject.oed_parts = Object.fromEntries(Object.entries(oedParts).map(([k, v]) => [k, v.file_name]));
  }
  return ok(await queueJob(deps, {
    accountId: input.accountId,
    verb: 'ingest',
    subject,
    input: jobInput as unknown as Record<string, unknown>,
  }));
}

/** What an ingest job is queued with. */
export interface IngestJobInput {
  upload_sha256: string;
  file_name: string;
  currency: string | null;
  /** The OED set's other files, each kept by its digest like the schedule. */
  oed_parts?: Partial<Record<OedPart, { upload_sha256: string; file_name: string; media_type: string | null }>>;
}

/** The ingest job: the schedule read in a compute thread, stored as one risk object, metered once. */
export async function ingestJob(
  deps: Pick<AppDeps, 'objects' | 'accounts' | 'jobs' | 'compute' | 'config' | 'now'>,
  job: { id: string; accountId: string; input: IngestJobInput },
): Promise<Result<unknown>> {
  const { upload_sha256: sha256, file_name: fileName, currency } = job.input;
  let stored = await deps.objects.upload(sha256);
  if (!stored) return refused(refusal(404, 'not_found', 'The uploaded file is no longer held; send it again.'));
  const parts = await oedPartsOf(deps, job.input.oed_parts);
  if (!parts.ok) return parts;
  const partDigests = Object.fromEntries(Object.entries(job.input.oed_parts ?? {}).map(([k, v]) => [k, v.upload_sha256]));
  const runId = contentAddress({ kind: 'ingest', file_sha256: sha256, currency, reader: INGEST_READER_VERSION, ...(Object.keys(partDigests).length > 0 ? { oed_parts: partDigests } : {}) });
  // Derived from the job, so a job taken over after a lost lease writes the same object once.
  const objectId = `obj_${createHash('sha256').update(`ingest:${job.id}:0`).digest('hex').slice(0, 24)}`;
  // The upload's memory moves to the thread instead of being cloned; copied first only when it
  // is a view into memory it does not own whole (moving that would take the rest with it).
  const bytes = ownsItsMemory(stored) ? stored : new Uint8Array(stored);
  const count = new ProgressCount();
  // The thread posts each finished block of the locations' JSON; it is stored while the read goes
  // on, and the object's row is written with the rest at the end (insertStaged).
  const staged = deps.objects.stage(objectId);
  const channel = new MessageChannel();
  const arrived = blocksArriving(channel.port1, staged);
  const input: ReadScheduleInput = {
    bytes, currency, feedsDir: deps.config.feedsDir,
    provenance: { objectId, fileName, sha256, runId, jobId: job.id, recordedAt: deps.now().toISOString(), ...(parts.value.files.length > 0 ? { otherFiles: parts.value.files } : {}) },
    progress: count.buffer,
    blocks: channel.port2,
    ...(parts.value.files.length > 0 ? { oedParts: parts.value.bytes } : {}),
  };
  stored = undefined;
  let written = false;
  try {
    const read = await recordingProgress(deps, job.id, count, rowsRead,
      () => deps.compute('read-schedule', input, [bytes.buffer as ArrayBuffer, channel.port2]));
    if (!read.ok) return read;
    // The posts cross on a port of their own: the last may come after the task's answer.
    await arrived(read.value.streamed);
    // The thread wrote the locations into shared memory; the store takes those blocks as they are.
    const { status, peril, locations, digest } = read.value;
    await deps.objects.insertStaged(job.accountId, objectId, { status, peril, locations, source: fileName, digest }, read.value.skeleton, read.value.locationBlocks, staged, read.value.streamed);
    written = true;
  } finally {
    channel.port1.close();
    // A read refused, failed or cancelled leaves no chunk behind.
    if (!written) await staged.discard();
  }
  // Idempotent, so a job re-run after a crash between the two writes still records the object once.
  await deps.accounts.recordUsage(job.accountId, 'object', objectId);
  return ok({ objects: [{ id: objectId, links: { self: `/objects/${objectId}` } }], run_id: runId });
}

/** The OED set's other files of a job, read back from the uploads they were kept as. */
async function oedPartsOf(
  deps: Pick<AppDeps, 'objects'>,
  parts: IngestJobInput['oed_parts'],
): Promise<Result<{ bytes: Partial<Record<OedPart, Uint8Array>>; files: { name: string; sha256: string; media_type: string }[] }>> {
  const bytes: Partial<Record<OedPart, Uint8Array>> = {};
  const files: { name: string; sha256: string; media_type: string }[] = [];
  for (const name of OED_PART_NAMES) {
    const part = parts?.[name];
    if (!part) continue;
    const stored = await deps.objects.upload(part.upload_sha256);
    if (!stored) return refused(refusal(404, 'not_found', `The uploaded ${name} file is no longer held; send it again.`));
    bytes[name] = new Uint8Array(stored);
    files.push({ name: part.file_name, sha256: part.upload_sha256, media_type: part.media_type ?? 'text/csv' });
  }
  return ok({ bytes, files });
}

/** Hands each block posted on `port` to `staged`; the function answers once `n` have come (or the port closed). */
function blocksArriving(port: MessagePort, staged: StagedLocations): (n: number) => Promise<void> {
  let closed = false;
  let wake = (): void => {};
  port.on('message', (block: Uint8Array) => {
    staged.add(block);
    wake();
  });
  port.on('close', () => {
    closed = true;
    wake();
  });
  return async (n) => {
    while (staged.pieces < n && !closed) await new Promise<void>((resolve) => { wake = resolve; });
  };
}

/** An ingest's progress: the rows read and how much of the file that is. */
function rowsRead(c: Counted): JobProgress {
  const fraction = fractionOf(c);
  return { fraction, sentence: `Read ${counted(c.items)} row${c.items === 1 ? '' : 's'} of the file (${Math.floor(fraction * 100)}% of its text).` };
}

function ownsItsMemory(bytes: Uint8Array): boolean {
  return bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
}
