// Reads an uploaded schedule off the event loop and writes the risk object's JSON text there too,
// so the main thread never holds (or copies) the parsed object tree of a large schedule.
import { readSchedule } from '../../domain/exposure/read-schedule.js';
import { riskObjectFromSchedule, type IngestProvenance } from '../../domain/risk-object/from-ingest.js';
import { oedReference } from '../../feeds/oed.js';
import { canonicalJson } from '../../http/canonical-json.js';
import { ApiError } from '../../http/errors.js';

export interface ReadScheduleInput {
  bytes: Uint8Array;
  currency: string | null;
  feedsDir: string | undefined;
  provenance: IngestProvenance;
}

export interface ReadScheduleOutput { status: string; documentJson: string; locations: number }

export async function readScheduleTask(input: ReadScheduleInput): Promise<ReadScheduleOutput> {
  const oed = await oedReference(input.feedsDir);
  const read = readSchedule(input.bytes, { fileName: input.provenance.fileName, currency: input.currency ?? undefined, oed });
  if (!read.ok) throw new ApiError(read.status, read.code, read.message, read.details);
  const document = riskObjectFromSchedule(read, input.provenance);
  return { status: document.status, documentJson: canonicalJson(document), locations: read.exposure.locations.length };
}
