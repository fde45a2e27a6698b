// Assembles the canonical risk object a successful ingest stores (SPEC: Canonical risk object).
import type { ScheduleRead } from '../exposure/types.js';

export const RISK_OBJECT_SCHEMA_VERSION = '0.1.0';

export interface IngestProvenance {
  objectId: string;
  fileName: string;
  sha256: string;
  runId: string;
  jobId: string;
  recordedAt: string;
}

export function riskObjectFromSchedule(read: ScheduleRead, p: IngestProvenance): Record<string, unknown> & { id: string; status: string } {
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
