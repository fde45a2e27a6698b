// The Job resource as SPEC shows it.
import type { JobRow } from '../store/jobs.js';
import { JOB_SCHEMA_VERSION } from '../kernel/versions.js';

export function jobView(row: JobRow): Record<string, unknown> {
  const subject = JSON.parse(row.subject) as Record<string, unknown>;
  const view: Record<string, unknown> = {
    schema_version: JOB_SCHEMA_VERSION,
    id: row.id,
    verb: row.verb,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
    // How many runs the job took so far, when the first began and when the job ended (null until then).
    attempts: row.attempts,
    started_at: row.started_at,
    finished_at: row.finished_at,
    links: { self: `/jobs/${row.id}` },
  };
  if (Object.keys(subject).length > 0) view.subject = subject;
  if (row.status === 'succeeded' && row.result !== null) view.result = JSON.parse(row.result);
  if (row.status === 'failed' && row.error !== null) view.error = JSON.parse(row.error);
  return view;
}
