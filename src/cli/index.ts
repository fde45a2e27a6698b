// The client commands of `catrisk`: each talks to a catrisk service over HTTP (see docs/cli.md).
import { CliFailure, EXIT, VERSION } from './client.js';
import { contextOf, type Command } from './command.js';
import { login, logout } from './commands/account.js';
import { ingest } from './commands/ingest.js';
import { backtest, structure } from './commands/structures.js';
import { price } from './commands/price.js';
import { exportRun, labInput, labRun } from './commands/lab.js';
import { terms } from './commands/objects.js';
import { get, job } from './commands/jobs.js';
import type { ProgressSink } from './progress.js';

export const COMMANDS: readonly Command[] = [login, logout, ingest, terms, structure, backtest, price, labInput, labRun, exportRun, job, get];

/** The first words of every client command, for main.ts to send them here. */
export const CLIENT_WORDS = new Set(COMMANDS.map((c) => c.name[0]!));

export function clientSummary(): string {
  const width = Math.max(...COMMANDS.map((c) => `${c.name.join(' ')} ${c.args}`.length));
  return COMMANDS.map((c) => `  catrisk ${`${c.name.join(' ')} ${c.args}`.padEnd(width)}  ${c.summary}`).join('\n') + '\n';
}

/** `catrisk --version`: the program's version, as its User-Agent names it. */
export function versionLine(): string {
  return `catrisk ${VERSION}\n`;
}

export interface ClientIo {
  out: (text: string) => void;
  err: ProgressSink;
}

const PROCESS_IO: ClientIo = {
  out: (text) => process.stdout.write(text),
  err: process.stderr,
};

/** Runs a client command and answers its exit code: 0, or 1 refused, 2 usage, 3 unreachable. */
export async function runClient(argv: string[], io: ClientIo = PROCESS_IO): Promise<number> {
  const command = COMMANDS.find((c) => c.name.every((word, i) => argv[i] === word));
  try {
    if (!command) {
      throw new CliFailure(EXIT.usage, [`usage: catrisk ${argv.slice(0, 2).join(' ')} is not a command; the client commands are:\n${clientSummary().trimEnd()}`]);
    }
    const context = contextOf(command, argv.slice(command.name.length), io);
    if (context) await command.run(context);
    return 0;
  } catch (error) {
    if (!(error instanceof CliFailure)) throw error;
    for (const line of error.lines) io.err.write(line + '\n');
    return error.exitCode;
  }
}
