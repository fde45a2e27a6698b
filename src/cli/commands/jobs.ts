// A verb's job, followed: printed as answered, or (--wait) read until it ends, a failed job
// reported as its error. catrisk job reads one job; catrisk get reads any path.
import { keyOf, refusedFailure, request, urlOf, usageFailure, type Answer } from '../client.js';
import { print, type Command, type Context } from '../command.js';
import { isEnded, waitFor } from '../progress.js';

/** The path of a job given as its id, its path (/jobs/<id>) or its full URL. */
export function jobPath(job: string): string {
  return /^https?:\/\//.test(job) || job.startsWith('/') ? job : `/jobs/${job}`;
}

/**
 * Prints a job the API answered, after waiting for it to end when --wait was given. A job that
 * failed ends the command as a refusal (exit 1). `csv` fetches the CSV of the finished job's result.
 */
export async function followJob(context: Context, answer: Answer, csv?: (job: any) => Promise<string>): Promise<void> {
  const key = keyOf(context.endpoint);
  let job = answer.json;
  if (context.wait && !isEnded(job?.status)) job = await waitFor(urlOf(context.endpoint.api, job.links.self), key, context.err, answer, context.timeoutS);
  if (context.wait && job.status === 'failed') throw refusedFailure(job.error ?? { status: 500, code: 'failed', message: 'the job failed' });
  if (!context.wait) context.err.write(`job ${job.id} ${job.status}: catrisk job ${job.id} --wait follows it\n`);
  if (context.format === 'csv') {
    if (!csv || job.status !== 'succeeded') throw usageFailure(`Job ${job.id} (${job.verb}, ${job.status}) is not served as CSV: only a finished backtest's table is.`);
    context.out(await csv(job));
    return;
  }
  print(context, job);
}

/** GET a CSV the API serves; an answer that is not CSV is refused rather than printed as if it were. */
export async function csvAt(url: string, key: string | undefined): Promise<string> {
  const answer = await request('GET', url, { key, accept: 'text/csv' });
  if (!(answer.headers.get('content-type') ?? '').startsWith('text/csv')) throw usageFailure(`${url} is not served as CSV.`);
  return answer.text;
}

/** The CSV of a finished backtest job's artifact (its year table unless --table says otherwise). */
export function backtestCsv(context: Context) {
  return (job: any) => {
    if (job.verb !== 'backtest') throw usageFailure(`Job ${job.id} (${job.verb}) is not served as CSV: only a finished backtest's table is.`);
    const table = (context.values.table as string | undefined) ?? 'years';
    return csvAt(urlOf(context.endpoint.api, `${job.result.links.self}?format=csv&table=${encodeURIComponent(table)}`), keyOf(context.endpoint));
  };
}

export const job: Command = {
  name: ['job'],
  args: 'JOB',
  summary: 'Read a job (its id, /jobs/<id> or its URL).',
  help: [
    '  --table TABLE      csv of a backtest job: years (default) or burning_cost',
    '',
    'Prints the job as GET /jobs/{id} answers it; --format table summarises it and its result.',
  ],
  options: { table: { type: 'string' } },
  positionals: 1,
  waits: true,
  async run(context) {
    const key = keyOf(context.endpoint);
    const answer = await request('GET', urlOf(context.endpoint.api, jobPath(context.positionals[0]!)), { key });
    await followJob(context, answer, backtestCsv(context));
  },
};

export const get: Command = {
  name: ['get'],
  args: 'PATH',
  summary: 'GET any path of the API (or of the lab with --lab), or a full URL.',
  help: [
    '  --lab              PATH is on the lab host',
    '',
    'Prints the answer. --format csv asks for text/csv (backtests, lab runs and event pages serve it);',
    'a resource that does not serve CSV is refused.',
  ],
  options: { lab: { type: 'boolean' } },
  positionals: 1,
  async run(context) {
    // A few paths answer without a key (GET /health): one is sent when there is one.
    const key = context.endpoint.key;
    const url = urlOf(context.values.lab ? context.endpoint.lab : context.endpoint.api, context.positionals[0]!);
    if (context.format === 'csv') {
      context.out(await csvAt(url, key));
      return;
    }
    const answer = await request('GET', url, { key });
    // Not JSON (an export asked for by its path): the bytes as they came.
    if (answer.json === undefined) context.out(answer.text);
    else print(context, answer.json);
  },
};
