// catrisk lab run SPEC.json: a model lab run (POST {lab}/runs). The run's job lives on the API host
// and carries the progress; the finished run is read back from the lab. catrisk lab input KIND FILE:
// an input brought to the lab (POST {lab}/inputs), its id to name in a spec.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { keyOf, refusedFailure, request, urlOf, usageFailure } from '../client.js';
import { print, type Command } from '../command.js';
import { jsonFile } from '../json-file.js';
import { isEnded, waitFor } from '../progress.js';
import { csvAt } from './jobs.js';

async function fileBytes(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    throw usageFailure(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

export const labInput: Command = {
  name: ['lab', 'input'],
  args: 'KIND FILE',
  summary: 'Bring an input to the lab (POST /inputs on the lab host): a CLIMADA hazard, exposures or impact functions, an OpenQuake exposure, vulnerability model or ground-motion fields; prints it with its id.',
  help: [
    `  KIND               ${['climada-hazard', 'climada-exposures', 'climada-impact-functions', 'oq-exposure'].join(', ')},`,
    `                     ${['oq-vulnerability', 'oq-gmfs'].join(' or ')} (the docs list every kind)`,
    '  --part NAME=FILE   another file part, for a kind of several files (oq-gmfs: --part sites=sites.csv)',
    '',
    'The same kind and bytes are the same input: its id names it in a run spec, for example',
    '{"model": "climada-impact", "hazard": "inp_…", "exposures": "inp_…", "impact_functions": "inp_…"}.',
  ],
  options: { part: { type: 'string', multiple: true } },
  positionals: 2,
  refuses: ({ format }) => (format === 'csv' ? 'An input is printed as JSON, a table or its id.' : undefined),
  async run(context) {
    const key = keyOf(context.endpoint);
    const [kind, path] = context.positionals as [string, string];
    const form = new FormData();
    form.append('kind', kind);
    form.append('file', new Blob([await fileBytes(path)]), basename(path));
    for (const spec of (context.values.part as string[] | undefined) ?? []) {
      const eq = spec.indexOf('=');
      if (eq <= 0) throw usageFailure(`--part takes NAME=FILE; got ${spec}`);
      const extra = spec.slice(eq + 1);
      form.append(spec.slice(0, eq), new Blob([await fileBytes(extra)]), basename(extra));
    }
    const answer = await request('POST', urlOf(context.endpoint.lab, '/inputs'), { key, form });
    print(context, answer.json);
  },
};

export const labRun: Command = {
  name: ['lab', 'run'],
  args: 'SPEC.json',
  summary: 'Submit a model lab run (POST /runs on the lab host); the same spec is the same run.',
  help: [
    '  --table TABLE      with --format csv: the ORD table ept (default), melt, mplt or alt, or ylt; a lane',
    '                     with tables of its own serves those (climada-impact: at_event, eai_exp, freq_curve, ...)',
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
    const spec = await jsonFile(path);
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

// The lab's tables and perspectives (GET {lab}/runs/{id}?format=csv): ORD's EPT, MELT, MPLT and ALT,
// and the year loss table (ylt, not ORD), of each lab-metrics/1 block the result holds; or the
// lane's own tables, which GET {lab}/models lists for each model (tables). The client imports nothing
// of the service, so the ORD names are written here as docs/exports.md states them.
const ORD_TABLES = ['ept', 'melt', 'mplt', 'alt', 'ylt'] as const;
const PERSPECTIVES = ['gul', 'il', 'ri'] as const;
const LAB_METRICS = 'lab-metrics/1';

/** The lab-metrics/1 block of a perspective in a run's result: gul's metrics, il's and ri's perspectives (the spec's terms or the object's OED terms). */
function metricsOf(result: any, perspective: (typeof PERSPECTIVES)[number]): any {
  const block = perspective === 'gul' ? result?.metrics : result?.perspectives?.[perspective];
  return block?.schema === LAB_METRICS ? block : undefined;
}

export const exportRun: Command = {
  name: ['export'],
  args: 'RUN',
  summary: 'Write every table of a finished lab run as CSV files into a folder (as oq engine --export-outputs does).',
  help: [
    '  --all DIR          the folder to write (made when missing): the lane\'s own tables as <table>.csv',
    '                     (GET {lab}/models lists them), else <table>_<perspective>.csv, each ORD table for',
    '                     each perspective the result holds (gul; il and ri with a spec\'s terms or an',
    '                     object\'s OED terms)',
    '',
    'Prints the files written, one a line. RUN is the run\'s id, /runs/<id> or its URL.',
  ],
  options: { all: { type: 'string' } },
  positionals: 1,
  refuses: ({ format }) => (format === 'csv' ? 'catrisk export writes CSV files; --format says how their list is printed (json, table or id).' : undefined),
  async run(context) {
    const key = keyOf(context.endpoint);
    const dir = context.values.all;
    if (typeof dir !== 'string' || dir === '') throw usageFailure('catrisk export needs --all DIR: the folder the tables are written into.');
    const given = context.positionals[0]!;
    const runUrl = /^https?:\/\//.test(given) ? given : urlOf(context.endpoint.lab, given.startsWith('/') ? given : `/runs/${encodeURIComponent(given)}`);
    const run = (await request('GET', runUrl, { key })).json;
    if (run?.status !== 'succeeded') throw refusedFailure({ status: 409, code: 'run_not_succeeded', message: `Run ${run?.id ?? given} is ${run?.status ?? 'not readable'}: its tables exist once it has succeeded.` });
    // The lane's own tables, as the lab lists them for the run's model; a lane with tables serves those instead of ORD's.
    const models = (await request('GET', urlOf(context.endpoint.lab, '/models'), { key })).json;
    const laneTables = Object.keys(models?.models?.find((m: any) => m.id === run.model?.id)?.tables ?? {});
    await mkdir(dir, { recursive: true });
    const files: Array<{ table: string; perspective: string | null; file: string; bytes: number }> = [];
    const write = async (table: string, perspective: string | null, query: Record<string, string>) => {
      const csv = await csvAt(`${runUrl}?${new URLSearchParams({ format: 'csv', table, ...query })}`, key);
      const file = join(dir, perspective === null ? `${table}.csv` : `${table}_${perspective}.csv`);
      await writeFile(file, csv);
      files.push({ table, perspective, file, bytes: Buffer.byteLength(csv) });
    };
    if (laneTables.length > 0) {
      for (const table of laneTables) await write(table, null, {});
    } else {
      for (const perspective of PERSPECTIVES) {
        const metrics = metricsOf(run.result, perspective);
        if (!metrics) continue;
        // A run kept before the lab kept its occurrences has no MPLT (the lab refuses it).
        for (const table of ORD_TABLES.filter((t) => t !== 'mplt' || Array.isArray(metrics.occurrences))) await write(table, perspective, { perspective });
      }
    }
    if (files.length === 0) throw refusedFailure({ status: 422, code: 'invalid_request', message: `Run ${run.id} has no tables: its lane gives its own figures, served as JSON (GET {lab}/runs/${run.id}).` });
    if (context.format === 'id') context.out(files.map((f) => f.file).join('\n') + '\n');
    else print(context, { run: run.id, files });
  },
};
