// catrisk structure OBJECT_ID: cut a structure from an object (the object's own terms, or the
// blocks a terms file varies); catrisk backtest STRUCTURE_ID: replay it over pinned history.
import { answered, clientsOf, keyOf, request, urlOf, usageFailure } from '../client.js';
import { jsonFile } from '../json-file.js';
import { print, type Command } from '../command.js';
import { backtestCsv, followJob } from './jobs.js';

export const structure: Command = {
  name: ['structure'],
  args: 'OBJECT_ID',
  summary: 'Cut a structure from an object (POST /objects/{id}/structures); it answers at once.',
  help: [
    '  --terms FILE       JSON varying trigger, financial_structure and/or period (default: the object\'s own terms)',
    '',
    'Prints the structure; its id (--format id prints it alone) is what catrisk backtest takes.',
  ],
  options: { terms: { type: 'string' } },
  positionals: 1,
  refuses: ({ format }) => (format === 'csv' ? 'A structure is not served as CSV: use --format json or table.' : undefined),
  async run(context) {
    const key = keyOf(context.endpoint);
    const terms = context.values.terms === undefined ? undefined : await jsonFile(context.values.terms as string);
    const objectId = encodeURIComponent(context.positionals[0]!);
    print(context, (await request('POST', urlOf(context.endpoint.api, `/objects/${objectId}/structures`), { key, body: terms })).json);
  },
};

const year = (flag: string, value: string | boolean | undefined): number | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d{4}$/.test(value)) throw usageFailure(`${flag} is a year (four digits), not ${String(value)}.`);
  return Number(value);
};

export const backtest: Command = {
  name: ['backtest'],
  args: 'STRUCTURE_ID',
  summary: 'Replay a structure against pinned history (POST /structures/{id}/backtest).',
  help: [
    '  --from-year YEAR   first year of the window (default: the start of the record)',
    '  --to-year YEAR     last year of the window (default: the end of the record)',
    '  --table TABLE      with --format csv: years (default) or burning_cost',
    '',
    'Prints the job; with --wait, the finished job with the backtest artifact as its result',
    '(--format table: a line per year; --format csv: the artifact\'s table as the API serves it).',
  ],
  options: { 'from-year': { type: 'string' }, 'to-year': { type: 'string' }, table: { type: 'string' } },
  positionals: 1,
  waits: true,
  refuses: ({ format, wait }) => (format === 'csv' && !wait ? 'A backtest is served as CSV once it has run: add --wait.' : undefined),
  async run(context) {
    const key = keyOf(context.endpoint);
    const from = year('--from-year', context.values['from-year']);
    const to = year('--to-year', context.values['to-year']);
    const window = { ...(from !== undefined ? { from_year: from } : {}), ...(to !== undefined ? { to_year: to } : {}) };
    const body = Object.keys(window).length > 0 ? { window } : undefined;
    const { answer } = await answered(clientsOf(context.endpoint, key).api.POST('/structures/{id}/backtest', { params: { path: { id: context.positionals[0]! } }, body }));
    await followJob(context, answer, backtestCsv(context));
  },
};
