// Reads an uploaded schedule off the event loop and writes the risk object's canonical JSON there
// too, so the main thread never holds (or copies) the parsed object tree of a large schedule. The
// locations are kept as their canonical JSON text from the moment each is read (LocationJsonList),
// and the document goes back as UTF-8 bytes in shared memory, which the main thread reads in place
// (a string, or bytes in an ordinary buffer, would be copied into the message and out of it again).
import { LocationJsonList } from '../../domain/exposure/location-json.js';
import { readSchedule } from '../../domain/exposure/read-schedule.js';
import { riskObjectJsonPieces, type IngestProvenance } from '../../domain/risk-object/from-ingest.js';
import { oedReference } from '../../feeds/oed.js';
import { canonicalJson } from '../../kernel/canonical-json.js';
import { ApiError } from '../../kernel/refusal.js';

export interface ReadScheduleInput {
  bytes: Uint8Array;
  currency: string | null;
  feedsDir: string | undefined;
  provenance: IngestProvenance;
}

export interface ReadScheduleOutput { status: string; documentUtf8: Uint8Array; locations: number }

/** Pieces of text → one UTF-8 buffer in shared memory; each piece is let go once written. */
function utf8(pieces: string[]): Uint8Array {
  let size = 0;
  for (const piece of pieces) size += Buffer.byteLength(piece, 'utf8');
  const out = new Uint8Array(new SharedArrayBuffer(size));
  const encoder = new TextEncoder();
  let at = 0;
  for (let i = 0; i < pieces.length; i++) {
    at += encoder.encodeInto(pieces[i] as string, out.subarray(at)).written;
    pieces[i] = '';
  }
  return out;
}

export async function readScheduleTask(input: ReadScheduleInput): Promise<ReadScheduleOutput> {
  const oed = await oedReference(input.feedsDir);
  const read = readSchedule(input.bytes, {
    fileName: input.provenance.fileName, currency: input.currency ?? undefined, oed, locations: new LocationJsonList(),
  });
  if (!read.ok) throw new ApiError(read.status, read.code, read.message, read.details);
  const pieces = riskObjectJsonPieces(read, input.provenance, canonicalJson);
  const locations = read.exposure.locations.count;
  (read.exposure.locations.chunks as string[]).length = 0; // the pieces hold them now
  return { status: 'draft', documentUtf8: utf8(pieces), locations };
}
