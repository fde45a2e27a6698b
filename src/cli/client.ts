// The command line's side of the wire: where it talks to (flags, environment, the file `catrisk
// login` writes, defaults), the key it sends, and one request function that turns every failure
// into the exit code it ends with. It speaks HTTP only: nothing here reads the service's modules.
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The default hosts: the service as `catrisk serve` starts it on this machine. */
export const DEFAULT_URL = 'http://127.0.0.1:8080';
export const DEFAULT_LAB_URL = 'http://127.0.0.1:8084';

/** Exit codes: a refusal by the service, a command used wrongly, a service that cannot be reached. */
export const EXIT = { refused: 1, usage: 2, unreachable: 3, stillRunning: 4 } as const;

/** A failure that ends the command with its exit code; `lines` go to stderr as they are. */
export class CliFailure extends Error {
  constructor(readonly exitCode: number, readonly lines: string[]) {
    super(lines[0]);
  }
}

export const usageFailure = (message: string) => new CliFailure(EXIT.usage, [message]);

/** The error envelope (or a failed job's error) as one line per fact: `error <status> <code>: <message>`. */
export function refusedFailure(error: { status?: unknown; code?: unknown; message?: unknown; details?: unknown }): CliFailure {
  const lines = [`error ${String(error.status)} ${String(error.code)}: ${String(error.message)}`];
  if (Array.isArray(error.details)) for (const d of error.details) lines.push(`  - ${String(d)}`);
  return new CliFailure(EXIT.refused, lines);
}

export const VERSION: string = (() => {
  try {
    // src/cli/client.ts and dist/cli/client.js both sit two levels below package.json.
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
})();

/** The edge refuses anonymous agents: the command line names itself. */
export const USER_AGENT = `catrisk-cli/${VERSION}`;

/** What `catrisk login` keeps: the key, and the hosts it was given for. */
export interface StoredLogin {
  url?: string;
  lab_url?: string;
  key?: string;
  account_id?: string;
}

/** The folder the login is kept in: --config, else $XDG_CONFIG_HOME/catrisk, else ~/.config/catrisk. */
export function configDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag) return flag;
  const base = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.startsWith('/') ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(base, 'catrisk');
}

export const configFile = (dir: string) => join(dir, 'config.json');

export function readLogin(dir: string): StoredLogin {
  let text: string;
  try {
    text = readFileSync(configFile(dir), 'utf8');
  } catch {
    return {};
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed as StoredLogin : {};
  } catch {
    throw usageFailure(`${configFile(dir)} is not JSON: run catrisk login again (or remove the file).`);
  }
}

/** Writes the login readable by its owner only (0600), replacing the file whole so no reader sees half of it. */
export function writeLogin(dir: string, login: StoredLogin): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = configFile(dir);
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify(login, null, 2) + '\n', { mode: 0o600 });
  chmodSync(partial, 0o600);
  renameSync(partial, file);
  return file;
}

export function removeLogin(dir: string): void {
  rmSync(configFile(dir), { force: true });
}

/** Where a command talks to, and with which key. */
export interface Endpoint {
  api: string;
  lab: string;
  key: string | undefined;
}

/**
 * The hosts and key, each taken from the first that names it: the flag (--url, --lab-url), the
 * environment (CATRISK_URL, CATRISK_LAB_URL, CATRISK_KEY), the stored login, the default.
 */
export function endpointOf(flags: { url?: string; 'lab-url'?: string }, login: StoredLogin, env: NodeJS.ProcessEnv = process.env): Endpoint {
  const pick = (...values: (string | undefined)[]) => values.find((v) => v !== undefined && v !== '');
  return {
    api: trimSlash(pick(flags.url, env.CATRISK_URL, login.url, DEFAULT_URL)!),
    lab: trimSlash(pick(flags['lab-url'], env.CATRISK_LAB_URL, login.lab_url, DEFAULT_LAB_URL)!),
    key: pick(env.CATRISK_KEY, login.key),
  };
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** A path on a host, or an absolute URL as the service links it (a lab run links its job on the API host). */
export function urlOf(base: string, path: string): string {
  if (/^https?:\/\//.test(path)) return path;
  return base + (path.startsWith('/') ? path : `/${path}`);
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body when it is JSON. */
  json: any;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  form?: FormData;
  accept?: string;
  idempotencyKey?: string;
  /** An entity tag the write is conditional on (If-Match). */
  ifMatch?: string;
}

/** Longest wait for one answer; a job is waited for by polling, never by one long request. */
const REQUEST_TIMEOUT_MS = 120_000;

/**
 * Sends one request. An answer of 400 or more throws the envelope as a refusal (exit 1); a service
 * that does not answer throws exit 3. Other answers are returned.
 */
export async function request(method: string, url: string, options: RequestOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: options.accept ?? 'application/json' };
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
  if (options.ifMatch !== undefined) headers['if-match'] = options.ifMatch;
  let body: string | FormData | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  } else if (options.form !== undefined) {
    body = options.form;
  }
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    text = await response.text();
  } catch (error) {
    throw new CliFailure(EXIT.unreachable, [`error: cannot reach ${url}: ${causeOf(error)}`]);
  }
  let json: unknown;
  try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
  if (response.status >= 400) {
    const envelope = (json as { error?: Record<string, unknown> } | undefined)?.error;
    if (envelope && typeof envelope === 'object') throw refusedFailure(envelope);
    // Not the service's envelope (a proxy in the way): the status and the first words of the body.
    throw new CliFailure(EXIT.refused, [`error ${response.status} ${response.statusText || 'http_error'}: ${text.trim().split('\n')[0]?.slice(0, 200) ?? ''}`]);
  }
  return { status: response.status, headers: response.headers, text, json };
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code) return cause.code;
  if (cause?.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** The key a command needs, or a usage failure saying how to get one. */
export function keyOf(endpoint: Endpoint): string {
  if (endpoint.key === undefined) throw usageFailure('No key: run catrisk login (or set CATRISK_KEY).');
  return endpoint.key;
}
