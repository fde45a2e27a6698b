// One client command: its usage, its own options beside the common ones, and what it does. The
// arguments are read by node:util's parseArgs (strict: an unknown option is a usage error).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { configDir, endpointOf, readLogin, usageFailure, type Endpoint } from './client.js';
import { FORMATS, idText, jsonText, tableText, type Format } from './output.js';
import type { ProgressSink } from './progress.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface Context {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  endpoint: Endpoint;
  configDir: string;
  format: Format;
  wait: boolean;
  /** --timeout: how long --wait waits, in seconds, before leaving the job running (none: until it ends). */
  timeoutS?: number;
  out: (text: string) => void;
  /** Where progress and notes go (stderr). */
  err: ProgressSink;
}

export interface Command {
  /** The words that name it: ['ingest'], ['lab', 'run']. */
  name: string[];
  /** The arguments after the name, as the usage line shows them. */
  args: string;
  summary: string;
  /** Lines of help below the usage line: the command's own options and what it prints. */
  help: string[];
  options?: Options;
  positionals: number;
  /** Removes the kept login rather than reading it (logout). */
  forgets?: boolean;
  /** Takes --wait (the verbs that run as jobs, and reading a job). */
  waits?: boolean;
  /** Formats the command cannot give, with what to do instead (refused before anything is sent). */
  refuses?: (context: Pick<Context, 'format' | 'wait'>) => string | undefined;
  run(context: Context): Promise<void>;
}

const COMMON: Options = {
  url: { type: 'string' },
  'lab-url': { type: 'string' },
  config: { type: 'string' },
  format: { type: 'string', default: 'json' },
  help: { type: 'boolean', short: 'h' },
};

export const COMMON_HELP = [
  '  --url URL          the API (default: $CATRISK_URL, else the URL stored at login, else http://127.0.0.1:8080)',
  '  --lab-url URL      the model lab (default: $CATRISK_LAB_URL, else stored, else http://127.0.0.1:8084)',
  '  --config DIR       where the login is kept (default: $XDG_CONFIG_HOME/catrisk, else ~/.config/catrisk)',
  '  --format FORMAT    json (default), table, csv, or id (the ids the answer names, one a line)',
];

export function usageOf(command: Command): string {
  // The command's help is its options, then a blank line and what it prints.
  const blank = command.help.indexOf('');
  const own = blank < 0 ? command.help : command.help.slice(0, blank);
  const notes = blank < 0 ? [] : command.help.slice(blank);
  const lines = [`usage: catrisk ${command.name.join(' ')}${command.args ? ` ${command.args}` : ''} [options]`, '', command.summary, '', ...own];
  if (command.waits) {
    lines.push('  --wait             wait for the job to end, showing its progress on stderr');
    lines.push('  --timeout SECONDS  with --wait: stop waiting after this long (exit 4; the job goes on)');
  }
  lines.push(...COMMON_HELP, '  --help             this help', ...notes);
  return lines.join('\n') + '\n';
}

/** Reads the arguments after the command's name; undefined when --help was asked (the usage is printed). */
export function contextOf(command: Command, argv: string[], io: { out: (t: string) => void; err: ProgressSink }): Context | undefined {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv, allowPositionals: true, strict: true,
      options: { ...COMMON, ...(command.waits ? { wait: { type: 'boolean' }, timeout: { type: 'string' } } : {}), ...command.options },
    });
  } catch (error) {
    throw usageFailure(`${error instanceof Error ? error.message : String(error)}\n${usageOf(command).trimEnd()}`);
  }
  const values = parsed.values as Context['values'];
  if (values.help) {
    io.out(usageOf(command));
    return undefined;
  }
  if (parsed.positionals.length !== command.positionals) {
    throw usageFailure(`catrisk ${command.name.join(' ')} takes ${command.args || 'no arguments'}.\n${usageOf(command).trimEnd()}`);
  }
  const format = values.format as string;
  if (!(FORMATS as readonly string[]).includes(format)) throw usageFailure(`--format is one of ${FORMATS.join(', ')}, not ${format}.`);
  const wait = values.wait === true;
  const timeoutS = timeoutOf(values.timeout as string | undefined, wait);
  const refusal = command.refuses?.({ format: format as Format, wait });
  if (refusal) throw usageFailure(refusal);
  const dir = configDir(values.config as string | undefined);
  // logout reads no login: it removes the file even when the file cannot be read.
  const login = command.forgets ? {} : readLogin(dir);
  return {
    values, positionals: parsed.positionals, configDir: dir, format: format as Format, wait, timeoutS, ...io,
    endpoint: endpointOf(values as { url?: string; 'lab-url'?: string }, login),
  };
}

/** --timeout's seconds: a positive decimal, and only beside --wait (alone it would mean nothing). */
function timeoutOf(text: string | undefined, wait: boolean): number | undefined {
  if (text === undefined) return undefined;
  if (!wait) throw usageFailure('--timeout is how long --wait waits: give it with --wait.');
  const seconds = /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
  if (!(seconds > 0)) throw usageFailure(`--timeout is a number of seconds above 0, not ${text}.`);
  return seconds;
}

/** Prints a JSON document as json or table; csv is the command's own to fetch. */
export function print(context: Context, document: unknown): void {
  if (context.format === 'id') {
    const ids = idText(document);
    if (ids === undefined) throw usageFailure('The answer names no id: use --format json or table.');
    context.out(ids);
    return;
  }
  context.out(context.format === 'table' ? tableText(document) : jsonText(document));
}
