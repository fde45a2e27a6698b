// Entry point of every compute thread: runs the named task with its input.
import { readScheduleTask } from './read-schedule.js';

const tasks = {
  'read-schedule': readScheduleTask,
} as const;

export type TaskName = keyof typeof tasks;

export default async function dispatch({ task, input }: { task: TaskName; input: unknown }): Promise<unknown> {
  const run = tasks[task] as (input: unknown) => unknown;
  if (!run) throw new Error(`unknown compute task ${String(task)}`);
  return run(input);
}
