// Reads an uploaded schedule off the event loop and writes the risk object's canonical JSON there
// too, so the main thread never holds (or copies) the parsed object tree of a large schedule. Each
// location is written as canonical JSON straight into UTF-8 blocks of shared memory the moment it
// is read (LocationJsonList), and the main thread stores those blocks in place: no string of the
// whole document is ever made, and nothing large is copied into the message or out of it.
import type { MessagePort } from 'node:worker_threads';
import { DigestingSink } from '../domain/accumulation/digest.js';
import { LocationJsonList } from '../domain/exposure/location-json.js';
import { decodeSchedule } from '../domain/exposure/decode.js';
import { readDecodedSchedule } from '../domain/exposure/read-schedule.js';
import { OED_PARTS, oedVersionOf, readOedTable, type OedPart } from '../domain/exposure/oed-set.js';
import type { OedReference } from '../domain/exposure/oed-reference.js';
import type { OedFields, ScheduleRead, SourceFidelity } from '../domain/exposure/types.js';
import type { LocationsText } from '../domain/exposure/location-json.js';
import type { BlockAllocator } from '../domain/exposure/utf8-blocks.js';
import { riskObjectParts, type IngestProvenance } from '../domain/risk-object/from-ingest.js';
import { oedReference } from '../feeds/oed.js';
import type { FeedStore } from '../feeds/store.js';
import { canonicalJson } from '../kernel/canonical-json.js';
import { ok, type Result } from '../kernel/result.js';
import { ProgressCount } from './progress.js';

export interface ReadScheduleInput {
  /** The upload; let go of once decoded. */
  bytes: Uint8Array;
  currency: string | null;
  feedsDir: string | undefined;
  provenance: IngestProvenance;
  /** Where the read counts characters read, of all, and rows (a ProgressCount's buffer). */
  progress?: SharedArrayBuffer;
  /**
   * Where each block of the locations' JSON is posted as it is sealed, in order, so the main thread
   * stores it while the read goes on; nothing more is posted once a location is pending.
   */
  blocks?: MessagePort;
  /** The OED set's other files, when sent: the account file, ri_info and ri_scope. */
  oedParts?: Partial<Record<OedPart, Uint8Array>>;
}

export interface ReadScheduleOutput {
  status: string;
  /** The document's skeleton (domain/risk-object/stored-parts.ts): its canonical JSON without the locations, and where they go. */
  skeleton: { bytes: Uint8Array; slot: number };
  /** The locations array's canonical JSON, UTF-8, in blocks to be written in order (in shared memory). */
  locationBlocks: readonly Uint8Array[];
  /** The object's location digest (domain/accumulation/digest.ts). */
  digest: Uint8Array;
  locations: number;
  /**
   * How many blocks posted to `blocks` are the first of locationBlocks, unchanged: all posted when
   * no location was pending, else none.
   */
  streamed: number;
  /** peril.code of the object, when the schedule named one. */
  peril: string | null;
}

/** Shared memory is handed to the main thread as it is, where an ordinary buffer would be cloned. */
const sharedBlocks: BlockAllocator = (size) => new Uint8Array(new SharedArrayBuffer(size));

/** `store` is the thread's verified feed store: the OED tables are read through it, digest-checked. */
export async function readScheduleTask(input: ReadScheduleInput, store: FeedStore | undefined): Promise<Result<ReadScheduleOutput>> {
  const oed = await oedReference(store);
  const decoded = decodeSchedule(input.bytes);
  // The text holds the schedule now; the upload's bytes need not stay for the whole read.
  input.bytes = new Uint8Array(0);
  const count = input.progress ? new ProgressCount(input.progress) : undefined;
  // The location digest for accumulation is written as the locations are read.
  let posted = 0;
  const port = input.blocks;
  const list: LocationJsonList = new LocationJsonList(sharedBlocks, undefined, port && ((block) => {
    if (list.pending) return;
    port.postMessage(block);
    posted += 1;
  }));
  const locations = new DigestingSink(list);
  const read = readDecodedSchedule(decoded, {
    fileName: input.provenance.fileName, currency: input.currency ?? undefined, oed, locations,
    ...(count ? { onProgress: (done: number, of: number, rows: number) => count.set(done, of, rows) } : {}),
  });
  port?.close();
  if (!read.ok) return read;
  const withSet = withOedSet(read.value, input.oedParts ?? {}, oed);
  if (!withSet.ok) return withSet;
  const parts = riskObjectParts(withSet.value, input.provenance, canonicalJson);
  // The digest's object members from the skeleton's own text: all but the locations.
  const members = JSON.parse(new TextDecoder().decode(parts.skeleton.bytes)) as Record<string, unknown>;
  return ok({
    status: 'draft', skeleton: parts.skeleton, locationBlocks: parts.locations, digest: locations.writer.finish(members),
    streamed: list.pending ? 0 : posted, locations: read.value.exposure.locations.count, peril: read.value.peril?.code ?? null,
  });
}

/**
 * The schedule with the OED set's other files read into its oed member (present when the schedule
 * is an OED location file or one of them was sent), their faults added to the exposure's fidelity.
 */
function withOedSet(read: ScheduleRead<LocationsText>, parts: Partial<Record<OedPart, Uint8Array>>, oed: OedReference): Result<ScheduleRead<LocationsText>> {
  const sent = OED_PARTS.filter((p) => parts[p] !== undefined);
  if (sent.length === 0 && read.oedLocations === undefined) return ok(read);
  const tables: Record<OedPart, OedFields[]> = { account: [], ri_info: [], ri_scope: [] };
  const fidelity: SourceFidelity = { ...read.exposure.source_fidelity, unmapped_columns: [...read.exposure.source_fidelity.unmapped_columns], notes: [...(read.exposure.source_fidelity.notes ?? [])] };
  for (const part of sent) {
    const table = readOedTable(parts[part]!, part, oed);
    if (!table.ok) return table;
    tables[part] = table.value.rows;
    fidelity.unmapped_columns.push(...table.value.fidelity.unmapped_columns);
    fidelity.notes!.push(...(table.value.fidelity.notes ?? []));
  }
  const version = read.oedLocations?.version ?? oedVersionOf(tables.account, tables.ri_info, tables.ri_scope);
  return ok({ ...read, exposure: { ...read.exposure, source_fidelity: fidelity }, oed: { version, accounts: tables.account, ri_info: tables.ri_info, ri_scope: tables.ri_scope } });
}
