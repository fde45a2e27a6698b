// Risk objects of an account: create with provenance, read, page through locations, PATCH under a
// version precondition. A price is requested in price.ts.
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { riskObjectViolations } from '../schemas.js';
import { applyPatch } from '../domain/risk-object/patch.js';
import { LocationScanner, type LocationMark } from '../domain/risk-object/location-scan.js';
import { ObjectScanner } from '../domain/risk-object/object-scan.js';
import { ObjectBusy, type Change, type ObjectHead, type RiskObjectDocument } from '../store/objects.js';
import type { ScheduleLocation } from '../domain/exposure/types.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { refusal, refusals } from '../kernel/refusal.js';
import { LOCATION_PAGE_SCHEMA_VERSION, RISK_OBJECT_SCHEMA_VERSION } from '../kernel/versions.js';
import { requireActive } from './accounts.js';
import type { AppDeps } from './deps.js';

/** A strong validator: the bytes of one version of an object never change. */
export function entityTag(version: number): string {
  return `"${version}"`;
}

/** An object as written, with the version it was written at. */
export interface WrittenObject {
  object: Record<string, unknown>;
  version: number;
}

/**
 * POST /objects: a complete risk object, stored as a new draft of the caller's account and metered.
 * Its provenance only grows: the creation is appended to the runs it came with.
 */
export async function createObject(
  deps: Pick<AppDeps, 'accounts' | 'objects' | 'now'>,
  input: { accountId: string; body: unknown },
): Promise<Result<WrittenObject>> {
  const { accountId, body } = input;
  const active = await requireActive(deps, accountId);
  if (!active.ok) return active;
  if (body === null || body === undefined || typeof body !== 'object' || Array.isArray(body)) {
    return refused(refusal(422, 'invalid_risk_object', 'Send a complete canonical risk object as a JSON object.', ['body must be an object']));
  }
  const violations = riskObjectViolations(body);
  if (violations.length > 0) {
    return refused(refusal(422, 'invalid_risk_object', `The object fails the risk object schema: ${violations.length} violation${violations.length === 1 ? '' : 's'}.`, violations));
  }
  const given = body as Record<string, unknown>;
  const id = `obj_${createHash('sha256').update(randomUUID()).digest('hex').slice(0, 24)}`;
  const at = deps.now().toISOString();
  const provenance = (given.provenance ?? { source_files: [], runs: [] }) as { source_files: unknown[]; runs: unknown[] };
  // Server-set members are the server's: a copied object gets a new id, starts as a draft, and a
  // premium is only ever written by a price run here.
  const { technical_premium: _premium, ...rest } = given;
  const object = {
    ...rest,
    id,
    schema_version: RISK_OBJECT_SCHEMA_VERSION,
    status: 'draft',
    provenance: {
      ...provenance,
      runs: [...provenance.runs, { kind: 'create', via: 'POST /objects', recorded_at: at, ...(given.id ? { copied_from: given.id } : {}) }],
    },
  };
  await deps.objects.insert(accountId, object);
  await deps.accounts.recordUsage(accountId, 'object', id);
  return ok({ object, version: 1 });
}

/** The current version of an object: its size and its stored canonical bytes, read as they are asked for. */
export interface StoredObject {
  version: number;
  size: number;
  bytes(): AsyncIterable<Buffer>;
}

export async function readObject(deps: Pick<AppDeps, 'objects'>, input: { accountId: string; id: string }): Promise<Result<StoredObject>> {
  const head = await deps.objects.head(input.id, input.accountId);
  if (!head) return refused(refusals.notFound(`No object ${input.id} for this key`));
  return ok({ version: head.version, size: head.size, bytes: () => deps.objects.bytes(input.id, head) });
}

/** One page of an object's locations; `resume` is the token a previous page's next link carried. */
export async function locationsPage(
  deps: Pick<AppDeps, 'objects'>,
  input: { accountId: string; id: string; limit: number; offset: number; resume: string | undefined },
): Promise<Result<Record<string, unknown>>> {
  const { id, limit, offset } = input;
  const head = await deps.objects.head(id, input.accountId);
  if (!head) return refused(refusals.notFound(`No object ${id} for this key`));
  const mark = resumeMark(input.resume, id, head.version, offset);
  const scanner = new LocationScanner(offset, limit, mark);
  for await (const chunk of deps.objects.bytes(id, head, mark?.offset ?? 0)) {
    if (scanner.feed(chunk)) break;
  }
  const page = scanner.page();
  let next: string | null = null;
  if (page.next) {
    const params = new URLSearchParams({ limit: String(limit), offset: String(page.next.index), resume: resumeToken(id, head.version, page.next) });
    next = `/objects/${id}/locations?${params.toString()}`;
  }
  return ok({
    schema_version: LOCATION_PAGE_SCHEMA_VERSION,
    object_id: id,
    locations: page.items.map((bytes) => JSON.parse(bytes.toString('utf8')) as unknown),
    page: { limit, offset, next },
    links: { self: `/objects/${id}/locations?${new URLSearchParams({ limit: String(limit), offset: String(offset) }).toString()}`, object: `/objects/${id}`, map: `/objects/${id}/map.svg` },
  });
}

/**
 * Every location of one version of an object, at most `size` at a time, as the stored bytes are
 * read (one pass, bounded memory whatever the object's size): the OED export, the map, analyse and
 * accumulation read them so. The locations of each chunk are parsed together (object-scan.ts).
 */
export async function* locationBatches(deps: Pick<AppDeps, 'objects'>, id: string, head: ObjectHead, size: number): AsyncGenerator<ScheduleLocation[]> {
  const ready: ScheduleLocation[][] = [];
  const scanner = new ObjectScanner((locations) => { ready.push(locations as ScheduleLocation[]); });
  let yielded = false;
  for await (const chunk of deps.objects.bytes(id, head)) {
    scanner.feed(chunk);
    for (const run of ready.splice(0)) {
      for (let at = 0; at < run.length; at += size) {
        yield at === 0 && run.length <= size ? run : run.slice(at, at + size);
        yielded = true;
      }
    }
  }
  if (!yielded) yield [];
}

/**
 * One version of an object without its locations (peril, region, currency, source fidelity...): its
 * stored skeleton, read without touching the locations. Throws when that version was superseded
 * twice since its head was read, as reading its bytes would.
 */
export async function objectSkeleton(deps: Pick<AppDeps, 'objects'>, id: string, head: ObjectHead): Promise<{ document: Record<string, unknown> }> {
  const document = await deps.objects.versionSkeleton(id, head.version);
  if (!document) throw new Error(`object ${id} version ${head.version} was superseded while being read`);
  return { document };
}

/**
 * PATCH /objects/{id}: applied to the stored object's skeleton under compare-and-set, so a
 * concurrent write makes it read and apply again and no PATCH answered is lost; the locations are
 * never read or written (the blocks a PATCH writes are checked against their own schemas, none of
 * which names a location). With `ifMatch` (entity tags, '*' for any), the version the patch is
 * applied to must be one named: else 412. The answer is the version written (or read, when nothing
 * moved): its canonical bytes, streamed from the store as GET /objects/{id} serves them.
 */
export async function patchObject(
  deps: Pick<AppDeps, 'objects' | 'now'>,
  input: { accountId: string; id: string; patch: unknown; ifMatch: readonly string[] | undefined },
): Promise<Result<StoredObject>> {
  const { id, ifMatch } = input;
  const at = deps.now().toISOString();
  const written = await updateObject(deps, id, input.accountId, (object, version): Change<Result<RiskObjectDocument>> => {
    if (ifMatch !== undefined && !ifMatch.some((tag) => tag === '*' || tag === entityTag(version))) {
      return { value: refused(refusal(412, 'precondition_failed',
        `If-Match names ${ifMatch.join(', ')}; the object is now at ${entityTag(version)} (it changed since it was read). GET it, re-apply the change and send again.`)) };
    }
    const patched = applyPatch(object, input.patch, at, riskObjectViolations);
    if (!patched.ok) return { value: patched };
    return { write: patched.value.changed.length > 0 ? patched.value.object : undefined, value: ok(patched.value.object) };
  });
  if (!written.ok) return written;
  if (!written.value) return refused(refusals.notFound(`No object ${id} for this key`));
  if (!written.value.value.ok) return written.value.value;
  const head = { version: written.value.version, size: written.value.size };
  return ok({ ...head, bytes: () => deps.objects.bytes(id, head) });
}

/** ObjectStore.update, with a store too busy to write answered as a retryable 503. */
async function updateObject<T>(deps: Pick<AppDeps, 'objects'>, id: string, accountId: string, change: (object: RiskObjectDocument, version: number) => Change<T>) {
  try {
    return ok(await deps.objects.update(id, accountId, change));
  } catch (error) {
    if (error instanceof ObjectBusy) {
      return refused<never>(refusal(503, 'server_error', `Object ${id} is being changed by many writers at once; send again.`, undefined, { 'retry-after': '1' }));
    }
    throw error;
  }
}

// A next link carries where its first location starts in the stored bytes, signed so that only a
// hint this process wrote is trusted; any other (another process, an older version, edited) is
// ignored and the page is found by counting from the start, with the same answer.
const RESUME_KEY = randomBytes(32);

function resumeSignature(id: string, version: number, mark: LocationMark): string {
  return createHmac('sha256', RESUME_KEY).update(`${id}.${version}.${mark.index}.${mark.offset}`).digest('base64url').slice(0, 22);
}

function resumeToken(id: string, version: number, mark: LocationMark): string {
  return `${version}.${mark.offset}.${resumeSignature(id, version, mark)}`;
}

function resumeMark(token: string | undefined, id: string, version: number, offset: number): LocationMark | undefined {
  const match = token === undefined ? null : /^(\d{1,15})\.(\d{1,15})\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!match || Number(match[1]) !== version) return undefined;
  const mark = { index: offset, offset: Number(match[2]) };
  return match[3] === resumeSignature(id, version, mark) ? mark : undefined;
}
