// Reads an uploaded schedule off the event loop and writes the risk object's JSON text there too,
// so the main thread never holds (or copies) the parsed object tree of a large schedule.
import { readSchedule } from '../../domain/exposure/read-schedule.js';
import { riskObjectFromSchedule, type IngestProvenance } from '../../domain/risk-object/from-ingest.js';
import type { ScheduleRefused } from '../../domain/exposure/types.js';
import { oedReference } from '../../feeds/oed.js';
import { canonicalJson } from '../../http/canonical-json.js';

export interface ReadScheduleInput {
  bytes: Uint8Array;
  currency: string | null;
  feedsDir: string | undefined;
  provenance: IngestProvenance;
}

export type ReadScheduleOutput =
  | { ok: true; status: string; documentJson: string; locations: number }
  | ScheduleRefused;

export async function readScheduleTask(input: ReadScheduleInput): Promise<ReadScheduleOutput> {
  const oed = await oedReference(input.feedsDir);
  const read = readSchedule(input.bytes, { fileName: input.provenance.fileName, currency: input.currency ?? undefined, oed });
  if (!read.ok) return read;
  const document = riskObjectFromSchedule(read, input.provenance);
  return { ok: true, status: document.status, documentJson: canonicalJson(document), locations: read.exposure.locations.length };
}
