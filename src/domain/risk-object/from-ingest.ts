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
 * The risk object as its two stored parts (domain/risk-object/stored-parts.ts) when its locations
 * are already canonical JSON bytes: the skeleton, the rest of the object written by `canonical`
 * with an empty locations array, and the locations' blocks, which go where that array is. "exposure"
 * sorts first among the object's members, and "locations" follows only "currency" (a three-letter
 * code) inside it, so the first '"locations":[]' is it.
 */
export function riskObjectParts(read: ScheduleRead<LocationsText>, p: IngestProvenance, canonical: (value: unknown) => string): { skeleton: { bytes: Uint8Array; slot: number }; locations: readonly Uint8Array[] } {
  const shell = riskObjectFromSchedule({ ...read, exposure: { ...read.exposure, locations: [] } }, p);
  const text = canonical(shell);
  const at = text.indexOf('"locations":[]');
  if (!text.startsWith('{"exposure":{') || at < 0) throw new Error('canonical risk object without its locations member');
  const bytes = new TextEncoder().encode(text);
  // The member names before the array are ASCII: its index in the text is its index in the bytes.
  return { skeleton: { bytes, slot: at + '"locations":'.length }, locations: read.exposure.locations.blocks };
}

/** The risk object's canonical JSON as UTF-8, in blocks to be written in order: the parts joined. */
export function riskObjectJsonBlocks(read: ScheduleRead<LocationsText>, p: IngestProvenance, canonical: (value: unknown) => string): Uint8Array[] {
  const { skeleton, locations } = riskObjectParts(read, p, canonical);
  return [skeleton.bytes.subarray(0, skeleton.slot), ...locations, skeleton.bytes.subarray(skeleton.slot + 2)];
}

/** The same, as one string. */
export function riskObjectJsonFromSchedule(read: ScheduleRead<LocationsText>, p: IngestProvenance, canonical: (value: unknown) => string): string {
  const blocks = riskObjectJsonBlocks(read, p, canonical);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  // Blocks may split a character: decode as one stream.
  return blocks.map((block, i) => decoder.decode(block, { stream: i < blocks.length - 1 })).join('');
}
