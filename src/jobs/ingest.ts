// The ingest verb: read the uploaded schedule off the event loop, store one risk object, meter it.
import { createHash } from 'node:crypto';
import type { Services } from '../services.js';
import type { ReadScheduleResult } from '../domain/exposure/types.js';
import { riskObjectFromSchedule } from '../domain/risk-object/from-ingest.js';
import { contentAddress } from '../http/canonical-json.js';
import { ApiError } from '../http/errors.js';
import { computePool } from './threads.js';
import type { JobHandler } from './worker.js';

/** Bumped when the reader changes what it makes of the same bytes. */
export const INGEST_READER_VERSION = '1';

export function ingestHandler(services: Services): JobHandler {
  return async (job) => {
    const { upload_sha256: sha256, file_name: fileName, currency } = job.input as {
      upload_sha256: string; file_name: string; currency: string | null;
    };
    const bytes = await services.objects.upload(sha256);
    if (!bytes) throw new ApiError(404, 'not_found', 'The uploaded file is no longer held; send it again.');
    const read = await computePool().run({
      task: 'read-schedule',
      input: { bytes, fileName, currency, feedsDir: services.config.feedsDir },
    }) as ReadScheduleResult;
    if (!read.ok) throw new ApiError(read.status, read.code, read.message, read.details);

    const runId = contentAddress({ kind: 'ingest', file_sha256: sha256, currency, reader: INGEST_READER_VERSION });
    // Derived from the job, so a job taken over after a lost lease writes the same object once.
    const objectId = `obj_${createHash('sha256').update(`ingest:${job.id}:0`).digest('hex').slice(0, 24)}`;
    const document = riskObjectFromSchedule(read, {
      objectId, fileName, sha256, runId, jobId: job.id, recordedAt: new Date().toISOString(),
    });
    if (await services.objects.insert(job.accountId, document)) {
      await services.accounts.recordUsage(job.accountId, 'object', objectId);
    }
    return { objects: [{ id: objectId, links: { self: `/objects/${objectId}` } }], run_id: runId };
  };
}
