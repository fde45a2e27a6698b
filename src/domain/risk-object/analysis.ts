// Recording an analyse run on its object: the run appended to provenance, which only grows.
import type { RiskObject } from './patch.js';

interface AnalysisRun {
  run_id: string;
  job_id: string;
  analyses: readonly string[];
  feeds: ReadonlyArray<{ feed_id: string; version: string; sha256: string }>;
  recorded_at: string;
}

const runsOf = (object: RiskObject) => ((object.provenance as { runs?: Array<Record<string, unknown>> } | undefined)?.runs ?? []);

/** True when this job already recorded this run (a job run again after a crash). */
export function analysisRecorded(object: RiskObject, runId: string, jobId: string): boolean {
  return runsOf(object).some((r) => r.kind === 'analyse' && r.run_id === runId && r.job_id === jobId);
}

export function appendAnalysis(object: RiskObject, run: AnalysisRun): RiskObject {
  const provenance = (object.provenance ?? { source_files: [], runs: [] }) as { source_files: unknown[]; runs: unknown[] };
  return { ...object, provenance: { ...provenance, runs: [...(provenance.runs ?? []), { kind: 'analyse', ...run, analyses: [...run.analyses], feeds: [...run.feeds] }] } };
}
