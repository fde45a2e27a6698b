// What a lane's admission computed for a run, kept in this process until the run's job takes it.
// The synthetic cyclones' admission draws the sample years and builds every near track (about half
// of the run); the job run here hands them to the lane instead of building them again. Keyed by the
// run's id, the content address of its normalised spec, so a value found is exactly what the run
// would compute. A job run by another process finds nothing here and computes it itself.

/** Admissions kept at once: each may hold tens of megabytes of tracks. */
const KEPT = 2;
/** A job that has not started by then runs without it. */
const KEPT_MS = 10 * 60_000;

const kept = new Map<string, { value: unknown; until: number }>();

/** Keeps what a run's admission answered (nothing when it answered nothing). */
export function keepAdmission(runId: string, value: unknown, now = Date.now()): void {
  if (value === null || value === undefined) return;
  kept.delete(runId);
  kept.set(runId, { value, until: now + KEPT_MS });
  for (const key of kept.keys()) {
    if (kept.size <= KEPT) break;
    kept.delete(key);
  }
}

/** What the run's admission answered in this process, taken once; undefined when gone or never here. */
export function takeAdmission(runId: string, now = Date.now()): unknown {
  const entry = kept.get(runId);
  kept.delete(runId);
  return entry && entry.until >= now ? entry.value : undefined;
}
