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
}

export function riskObjectFromSchedule<L>(read: ScheduleRead<L>, p: IngestProvenance): Record<string, unknown> & { id: string; status: string } {
  const object: Record<string, unknown> & { id: string; status: string } = {
    id: p.objectId,
    schema_version: RISK_OBJECT_SCHEMA_VERSION,
    status: 'draft',
    exposure: read.exposure,
    provenance: {
      source_files: [{ name: p.fileName, sha256: p.sha256, media_type: read.mediaTypeRead }],
      runs: [{ kind: 'ingest', run_id: p.runId, job_id: p.jobId, recorded_at: p.recordedAt }],
    },
  };
  if (read.peril) object.peril = { code: read.peril.code };
  return object;
}

/**
 * The risk object's canonical JSON, in pieces to be written in order, when its locations are
 * already canonical JSON text: the rest of the object is written by `canonical` with an empty
 * locations array, and the locations' text goes where that array is. "exposure" sorts first among
 * the object's members, and "locations" follows only "currency" (a three-letter code) inside it,
 * so the first '"locations":[]' is it.
 */
export function riskObjectJsonPieces(read: ScheduleRead<LocationsText>, p: IngestProvenance, canonical: (value: unknown) => string): string[] {
  const shell = riskObjectFromSchedule({ ...read, exposure: { ...read.exposure, locations: [] } }, p);
  const text = canonical(shell);
  const at = text.indexOf('"locations":[]');
  if (!text.startsWith('{"exposure":{') || at < 0) throw new Error('canonical risk object without its locations member');
  const head = '"locations":';
  return [text.slice(0, at + head.length), ...read.exposure.locations.chunks, text.slice(at + head.length + 2)];
}

/** The same, as one string. */
export function riskObjectJsonFromSchedule(read: ScheduleRead<LocationsText>, p: IngestProvenance, canonical: (value: unknown) => string): string {
  return riskObjectJsonPieces(read, p, canonical).join('');
}
