// Assembles the canonical risk object a successful ingest stores (SPEC: Canonical risk object).
import type { LocationsText } from '../exposure/location-json.js';
import type { ScheduleRead } from '../exposure/types.js';
import { RISK_OBJECT_SCHEMA_VERSION } from '../../kernel/versions.js';

export interface IngestProvenance {
  objectId: string;
  fileName: string;
  sha256: string;
  runId: string;
  jobId: string;
  recordedAt: string;
  /** The OED set's other files sent beside the schedule (account, ri_info, ri_scope), in that order. */
  otherFiles?: { name: string; sha256: string; media_type: string }[];
}

export function riskObjectFromSchedule<L>(read: ScheduleRead<L>, p: IngestProvenance): Record<string, unknown> & { id: string; status: string } {
  const object: Record<string, unknown> & { id: string; status: string } = {
    id: p.objectId,
    schema_version: RISK_OBJECT_SCHEMA_VERSION,
    status: 'draft',
    exposure: read.exposure,
    provenance: {
      source_files: [{ name: p.fileName, sha256: p.sha256, media_type: read.mediaTypeRead }, ...(p.otherFiles ?? [])],
      runs: [{ kind: 'ingest', run_id: p.runId, job_id: p.jobId, recorded_at: p.recordedAt }],
    },
  };
  if (read.peril) object.peril = { code: read.peril.code };
  if (read.oed) object.oed = read.oed;
  return object;
}

/**
 * The risk object's canonical JSON as UTF-8, in blocks to be written in order, when its locations
 * are already canonical JSON bytes: the rest of the object is written by `canonical` with an empty
 * locations array, and the locations' bytes go where that array is. "exposure" sorts first among
 * the object's members, and "locations" follows only "currency" (a three-letter code) inside it,
 * so the first '"locations":[]' is it.
 */
export function riskObjectJsonBlocks(read: ScheduleRead<LocationsText>, p: IngestProvenance, canonical: (value: unknown) => string): Uint8Array[] {
  const shell = riskObjectFromSchedule({ ...read, exposure: { ...read.exposure, locations: [] } }, p);
  const text = canonical(shell);
  const at = text.indexOf('"locations":[]');
  if (!text.startsWith('{"exposure":{') || at < 0) throw new Error('canonical risk object without its locations member');
  const head = '"locations":';
  const encoder = new TextEncoder();
  return [encoder.encode(text.slice(0, at + head.length)), ...read.exposure.locations.blocks, encoder.encode(text.slice(at + head.length + 2))];
}

/**
 * The first block riskObjectJsonBlocks writes when the exposure's currency is `currency` (the
 * declared one, as the reader normalises it): known before the schedule is read, so the bytes after
 * it can be stored as they are written. Only a guess: an exposure whose currency comes from the file
 * has another head, which the caller finds by comparing.
 */
export function riskObjectJsonHead(currency: string | null | undefined, canonical: (value: unknown) => string): Uint8Array {
  const code = currency?.trim().toUpperCase();
  const text = canonical({ exposure: { ...(code ? { currency: code } : {}), locations: [] } });
  return new TextEncoder().encode(text.slice(0, text.indexOf('"locations":[]') + '"locations":'.length));
}

/** The same, as one string. */
export function riskObjectJsonFromSchedule(read: ScheduleRead<LocationsText>, p: IngestProvenance, canonical: (value: unknown) => string): string {
  const blocks = riskObjectJsonBlocks(read, p, canonical);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  // Blocks may split a character: decode as one stream.
  return blocks.map((block, i) => decoder.decode(block, { stream: i < blocks.length - 1 })).join('');
}
