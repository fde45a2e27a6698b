// The ingest verb: read the uploaded schedule off the event loop, store one risk object, meter it.
import { createHash } from 'node:crypto';
import type { Services } from '../services.js';
import type { ReadScheduleInput, ReadScheduleOutput } from '../jobs/threads/read-schedule.js';
import { contentAddress } from '../kernel/canonical-json.js';
import { ApiError } from '../kernel/refusal.js';
import { INGEST_READER_VERSION } from '../kernel/versions.js';
import { runTask } from '../jobs/threads.js';
import type { JobHandler } from '../jobs/worker.js';


export function ingestHandler(services: Services): JobHandler {
  return async (job) => {
    const { upload_sha256: sha256, file_name: fileName, currency } = job.input as {
      upload_sha256: string; file_name: string; currency: string | null;
    };
    let stored = await services.objects.upload(sha256);
    if (!stored) throw new ApiError(404, 'not_found', 'The uploaded file is no longer held; send it again.');
    const runId = contentAddress({ kind: 'ingest', file_sha256: sha256, currency, reader: INGEST_READER_VERSION });
    // Derived from the job, so a job taken over after a lost lease writes the same object once.
    const objectId = `obj_${createHash('sha256').update(`ingest:${job.id}:0`).digest('hex').slice(0, 24)}`;
    // The upload's memory moves to the thread instead of being cloned; copied first only when it
    // is a view into memory it does not own whole (moving that would take the rest with it).
    const bytes = ownsItsMemory(stored) ? stored : new Uint8Array(stored);
    const input: ReadScheduleInput = {
      bytes, currency, feedsDir: services.config.feedsDir,
      provenance: { objectId, fileName, sha256, runId, jobId: job.id, recordedAt: new Date().toISOString() },
    };
    stored = undefined;
    const read = await runTask<ReadScheduleOutput>('read-schedule', input, [bytes.buffer as ArrayBuffer]);
    // The thread wrote the document into shared memory; the store takes those blocks as they are.
    await services.objects.insertJson(job.accountId, objectId, read.status, read.document);
    // Idempotent, so a job re-run after a crash between the two writes still records the object once.
    await services.accounts.recordUsage(job.accountId, 'object', objectId);
    return { objects: [{ id: objectId, links: { self: `/objects/${objectId}` } }], run_id: runId };
  };
}

function ownsItsMemory(bytes: Uint8Array): boolean {
  return bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
}
