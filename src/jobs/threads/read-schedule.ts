// Reads an uploaded schedule off the event loop.
import { readSchedule } from '../../domain/exposure/read-schedule.js';
import type { ReadScheduleResult } from '../../domain/exposure/types.js';
import { oedReference } from '../../feeds/oed.js';

export interface ReadScheduleInput {
  bytes: Uint8Array;
  fileName: string;
  currency: string | null;
  feedsDir: string | undefined;
}

export async function readScheduleTask(input: ReadScheduleInput): Promise<ReadScheduleResult> {
  const oed = await oedReference(input.feedsDir);
  return readSchedule(input.bytes, { fileName: input.fileName, currency: input.currency ?? undefined, oed });
}
