// catrisk lab run SPEC.json: a model lab run (POST {lab}/runs). The run's job lives on the API host
// and carries the progress; the finished run is read back from the lab.
import { readFile } from 'node:fs/promises';
import { keyOf, refusedFailure, request, urlOf, usageFailure } from '../client.js';
import { print, type Command } from '../command.js';
import { isEnded, waitFor } from '../progress.js';
import { csvAt } from './jobs.js';

export const labRun: Command = {
  name: ['lab', 'run'],
  args: 'SPEC.json',
  summary: 'Submit a model lab run (POST /runs on the lab host); the same spec is the same run.',
  help: [
    '  --table TABLE      with --format csv: the ORD table ept (default), elt, plt or alt',
    '  --perspective P    with --format csv: gul (default), il or ri',
    '  --idempotency-key KEY  send again without a second submission',
    '',
    'Prints the run; with --wait, the finished run (--format table: average annual loss and the',
    'exceedance curve; --format csv: an ORD table as the lab serves it).',
  ],
  options: { table: { type: 'string' }, perspective: { type: 'string' }, 'idempotency-key': { type: 'string' } },
  positionals: 1,
  waits: true,
  refuses: ({ format, wait }) => (format === 'csv' && !wait ? 'A lab run is served as CSV once it has run: add --wait.' : undefined),
  async run(context) {
    const key = keyOf(context.endpoint);
    const path = context.positionals[0]!;
    let spec: unknown;
    try {
      spec = JSON.parse(await readFile(path, 'utf8'));
    } catch (error) {
      throw usageFailure(`cannot read ${path} as JSON: ${(error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error))}`);
    }
    const submitted = await request('POST', urlOf(context.endpoint.lab, '/runs'), {
      key, body: spec, idempotencyKey: context.values['idempotency-key'] as string | undefined,
    });
    let run = submitted.json;
    const runUrl = urlOf(context.endpoint.lab, run.links.self);
    if (context.wait && !isEnded(run.status)) {
      // The job says how far the run has got; the run is read once it has ended.
      await waitFor(run.links.job ? urlOf(context.endpoint.api, run.links.job) : runUrl, key, context.err, undefined, context.timeoutS);
      run = (await request('GET', runUrl, { key })).json;
    }
    if (context.wait && run.status === 'failed') throw refusedFailure(run.error ?? { status: 500, code: 'failed', message: 'the run failed' });
    if (!context.wait) context.err.write(`run ${run.id} ${run.status}: catrisk get ${run.links.self} --lab reads it\n`);
    if (context.format === 'csv') {
      const query = new URLSearchParams({ format: 'csv' });
      if (context.values.table !== undefined) query.set('table', context.values.table as string);
      if (context.values.perspective !== undefined) query.set('perspective', context.values.perspective as string);
      context.out(await csvAt(`${runUrl}?${query}`, key));
      return;
    }
    print(context, run);
  },
};
