// The README walk: every ```sh block of README.md, in order, run as one bash script against a
// service started as its own process, the way a reader pastes them into a terminal on a fresh
// clone. The examples run on the default embedded store (SQLite), as a user's first run does, so
// this file starts one service on SQLite only; the routes themselves are tested on both stores in
// test/http/.
//
// What the walk is given is what the README says a reader needs: the service on its defaults
// (ephemeral ports, its own state folder) with CATRISK_EXPOSURE_CODING and CATRISK_GEOCODING on,
// as the coding and geocoding examples say; the feeds are the repository's feeds/. The script runs
// in an empty working folder with HOME an empty folder too (the command line keeps its login under
// ~/.config/catrisk), and the README's addresses (http://127.0.0.1:8080 … 8084) are replaced by
// the started service's.
//
// A shell function `curl` wraps the real one and writes, for every request, the status, method and
// URL to stderr (curl's --write-out '%{stderr}…'), leaving stdout as the examples expect it (they
// pipe it into node). Every answer must be below 400, except on a line whose own trailing comment
// says which refusal it answers (`# answers 409 job_finished: …`): that line must answer exactly
// that status. A shell function `catrisk` runs the service's command line (the program the tests
// run) pointed at the started service through CATRISK_URL and CATRISK_LAB_URL; a refusal ends it
// with exit 1, which ends the script (set -e).
//
// A block marked in README.md by the comment right before it is not run:
//   <!-- readme-walk: skip: <reason> -->     it needs something outside this machine (at most two:
//                                            a provider's platform, a public https receiver);
//   <!-- readme-walk: harness: <reason> -->  it is what this test itself does (npm start, npm test).
// Once the script has ended, every job and lab run of the walk's account must end succeeded.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { mainArgs, spawnService, type ServiceProcess } from '../support/process.js';
import { call } from '../support/service.js';

const README = fileURLToPath(new URL('../../README.md', import.meta.url));
const REPOSITORY = dirname(README);

/** The blocks README.md may mark as not run, and the commands a harness block may hold. */
const MOST_SKIPPED = 2;
const HARNESS_COMMANDS = ['npm ci && npm start', 'npm test'];
/** The whole walk, the jobs it leaves running included; a loaded machine is slow. */
const WALK_TIMEOUT_MS = 12 * 60_000;

interface Block {
  /** The README line of the block's first command line (1-based). */
  line: number;
  lines: string[];
  mark?: { kind: 'skip' | 'harness'; reason: string };
}

/** Every ```sh block of the README in order, each with the readme-walk mark on the line before its fence. */
function readmeBlocks(text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== '```sh') continue;
    const fence = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i]!.trim() !== '```'; i++) body.push(lines[i]!);
    assert.ok(i < lines.length, `README.md:${fence + 1}: the sh block is never closed`);
    let before = fence - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const comment = before >= 0 ? /^<!--\s*readme-walk:\s*(.*?)\s*-->$/.exec(lines[before]!.trim()) : null;
    let mark: Block['mark'];
    if (comment) {
      const parsed = /^(skip|harness):\s*(\S.*)$/.exec(comment[1]!);
      assert.ok(parsed, `README.md:${before + 1}: a readme-walk mark is "skip: <reason>" or "harness: <reason>", not "${comment[1]}"`);
      mark = { kind: parsed[1] as 'skip' | 'harness', reason: parsed[2]! };
    }
    blocks.push({ line: fence + 2, lines: body, ...(mark ? { mark } : {}) });
  }
  return blocks;
}

/** A refusal a README line answers on purpose, from its trailing comment: `# answers 409 job_finished: …`. */
const ANSWERS = /#\s*answers (\d{3}) ([a-z_]+)\b/;
/** Where a command that may carry such a comment starts: a curl, or a variable set from one. */
const COMMAND_START = /^(\s*[A-Z_][A-Z0-9_]*=\$\()?\s*curl\s/;

interface Expectation { line: number; status: number; code: string }

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The README's addresses, as the service the test started answers them. */
function withServiceUrls(line: string, urls: Record<string, string>): string {
  const hosts: Record<string, string> = { 8080: 'api', 8081: 'docs', 8082: 'mcp', 8083: 'data', 8084: 'lab' };
  return line.replace(/http:\/\/127\.0\.0\.1:(808[0-4])/g, (_, port: string) => urls[hosts[port]!]!);
}

/** The node arguments that run the command line from any working folder (absolute paths). */
function cliArgs(): string[] {
  return mainArgs().map((arg) => {
    if (arg === 'tsx') return import.meta.resolve('tsx');
    if (arg === 'src/main.ts') return join(REPOSITORY, 'src/main.ts');
    return arg;
  });
}

/**
 * The bash script of the blocks to run: the two wrapping functions, then each block's lines with
 * the service's addresses, `WALK_AT` naming the block before it and `WALK_EXPECT` set around each
 * line that answers a refusal on purpose.
 */
function walkScript(blocks: Block[], urls: Record<string, string>): { script: string; expectations: Expectation[] } {
  const expectations: Expectation[] = [];
  const out = [
    'set -euo pipefail',
    'WALK_AT=0',
    'WALK_EXPECT=-',
    // Every request: "walk-request <block line> <expected status@line or -> <status> <method> <url>" on stderr.
    `curl() { command curl --write-out "%{stderr}walk-request $WALK_AT $WALK_EXPECT %{http_code} %{method} %{url_effective}\\n" "$@"; }`,
    `catrisk() { CATRISK_URL=${quote(urls.api!)} CATRISK_LAB_URL=${quote(urls.lab!)} ${[process.execPath, ...cliArgs()].map(quote).join(' ')} "$@"; }`,
  ];
  for (const block of blocks) {
    if (block.mark) continue;
    out.push(`WALK_AT=${block.line}`);
    const starts = new Map<number, string>();
    const ends = new Set<number>();
    block.lines.forEach((text, k) => {
      assert.doesNotMatch(text, /(^|\s)(-w|--write-out)\s/, `README.md:${block.line + k}: the walk records requests with curl's --write-out; an example cannot use its own`);
      const answers = ANSWERS.exec(text);
      if (!answers) return;
      let start = k;
      while (start > 0 && block.lines[start - 1]!.trimEnd().endsWith('\\')) start--;
      assert.match(block.lines[start]!, COMMAND_START, `README.md:${block.line + k}: "# answers" follows a curl command (its first line: README.md:${block.line + start})`);
      const line = block.line + k;
      expectations.push({ line, status: Number(answers[1]), code: answers[2]! });
      starts.set(start, `WALK_EXPECT=${answers[1]}@${line}`);
      ends.add(k);
    });
    block.lines.forEach((text, k) => {
      if (starts.has(k)) out.push(starts.get(k)!);
      out.push(withServiceUrls(text, urls));
      if (ends.has(k)) out.push('WALK_EXPECT=-');
    });
  }
  // The account the walk signed up with, for the check of its jobs once the script has ended.
  out.push('printf "walk-key %s\\n" "$KEY" >&2');
  return { script: out.join('\n') + '\n', expectations };
}

interface Recorded { at: number; expect: { status: number; line: number } | undefined; status: number; method: string; url: string; text: string }

function recorded(stderr: string): Recorded[] {
  return stderr.split('\n').filter((l) => l.startsWith('walk-request ')).map((text) => {
    const [, at, expect, status, method, url] = text.split(' ');
    const [expectStatus, expectLine] = expect === '-' ? [] : expect!.split('@');
    return {
      at: Number(at), status: Number(status), method: method!, url: url!, text,
      expect: expectStatus === undefined ? undefined : { status: Number(expectStatus), line: Number(expectLine) },
    };
  });
}

interface Ran { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; ms: number }

function runBash(scriptPath: string, cwd: string, env: Record<string, string>, timeoutMs: number): Promise<Ran> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [scriptPath], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      stderr += `\n(the walk did not end within ${timeoutMs / 1000} s and was stopped)\n`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => { clearTimeout(timer); reject(error); });
    child.on('close', (code, signal) => { clearTimeout(timer); resolve({ code, signal, stdout, stderr, ms: Date.now() - started }); });
  });
}

/** Every item of a list of the account's, following page.next. */
async function listAll(base: string, key: string, path: string, member: string): Promise<any[]> {
  const items: any[] = [];
  for (let next: string | null = path; next !== null;) {
    const page = await call(base, 'GET', next, { key });
    assert.equal(page.status, 200, `GET ${next}: ${page.text}`);
    items.push(...page.body[member]);
    next = page.body.page.next;
  }
  return items;
}

/** The account's jobs and lab runs once none is queued or running any more. */
async function settledWork(urls: Record<string, string>, key: string, timeoutMs: number, report: () => string) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const jobs = await listAll(urls.api!, key, '/jobs?limit=500', 'jobs');
    const runs = await listAll(urls.lab!, key, '/runs?limit=500', 'runs');
    const open = [...jobs, ...runs].filter((x) => x.status === 'queued' || x.status === 'running');
    if (open.length === 0) return { jobs, runs };
    if (Date.now() > until) assert.fail(`still not ended ${timeoutMs / 1000} s after the walk: ${open.map((x) => `${x.id} ${x.status}`).join(', ')}\n${report()}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

const scratch = mkdtempSync(join(tmpdir(), 'catrisk-readme-walk-'));
let service: ServiceProcess | undefined;
after(async () => {
  await service?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

test('the README walk: every example, top to bottom, passes against a started service', { timeout: WALK_TIMEOUT_MS + 120_000 }, async (t) => {
  const blocks = readmeBlocks(readFileSync(README, 'utf8'));
  const skipped = blocks.filter((b) => b.mark?.kind === 'skip');
  const harness = blocks.filter((b) => b.mark?.kind === 'harness');
  for (const b of [...harness, ...skipped]) t.diagnostic(`README.md:${b.line} not run (${b.mark!.kind}): ${b.mark!.reason}`);
  assert.ok(skipped.length <= MOST_SKIPPED, `at most ${MOST_SKIPPED} README blocks may be skipped, not ${skipped.length}: ${skipped.map((b) => `README.md:${b.line}`).join(', ')}`);
  assert.deepEqual(harness.map((b) => b.lines.join('\n').trim()).sort(), [...HARNESS_COMMANDS].sort(),
    `the harness blocks are the README's ${HARNESS_COMMANDS.map((c) => `"${c}"`).join(' and ')}, which this test stands for`);

  const state = join(scratch, 'state');
  const work = join(scratch, 'work');
  const home = join(scratch, 'home');
  for (const dir of [state, work, home]) mkdirSync(dir);
  // A reader runs the examples from their clone, where feeds/ holds the pinned files an example may send.
  symlinkSync(join(REPOSITORY, 'feeds'), join(work, 'feeds'));
  service = await spawnService('serve', {
    CATRISK_STATE_DIR: state, CATRISK_EXPOSURE_CODING: 'true', CATRISK_GEOCODING: 'true',
    // SQLite, as a first run: a DATABASE_URL in the environment running the tests is not passed on.
    DATABASE_URL: '',
  });
  const urls = service.urls;

  const { script, expectations } = walkScript(blocks, urls);
  const scriptPath = join(scratch, 'readme-walk.sh');
  writeFileSync(scriptPath, script);
  // A reader's shell: their PATH (with this node first), an empty HOME, nothing of catrisk's.
  const env: Record<string, string> = { PATH: `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: home, TMPDIR: tmpdir() };
  for (const name of ['LANG', 'LC_ALL']) if (process.env[name]) env[name] = process.env[name]!;
  const ran = await runBash(scriptPath, work, env, WALK_TIMEOUT_MS);
  const requests = recorded(ran.stderr);
  const report = () => [
    `the script ended with ${ran.signal ?? ran.code} after ${(ran.ms / 1000).toFixed(1)} s (${scriptPath} is removed after the test)`,
    '--- stderr (requests: walk-request <README block line> <expected status@line> <status> <method> <url>)',
    ran.stderr.trim(),
    '--- the last of stdout',
    ran.stdout.slice(-2000),
  ].join('\n');

  assert.equal(ran.code, 0, report());
  const wrong = requests.filter((r) => r.expect ? r.status !== r.expect.status : !(r.status >= 100 && r.status < 400));
  assert.deepEqual(wrong.map((r) => r.text), [], `answers the README does not expect:\n${report()}`);
  for (const e of expectations) {
    assert.ok(requests.some((r) => r.expect?.line === e.line), `README.md:${e.line} says it answers ${e.status} ${e.code} but sent no request:\n${report()}`);
  }
  for (const block of blocks.filter((b) => !b.mark && b.lines.some((l) => /^\s*[^#]*\bcurl\s/.test(l)))) {
    assert.ok(requests.some((r) => r.at === block.line), `README.md:${block.line}: the block's curl examples sent no request:\n${report()}`);
  }

  // The jobs and lab runs the examples started (the walk does not wait for most) all succeed.
  const key = /^walk-key (\S+)$/m.exec(ran.stderr)?.[1];
  assert.ok(key, `the walk's KEY was not set:\n${report()}`);
  const { jobs, runs } = await settledWork(urls, key, 5 * 60_000, report);
  const failed = [
    ...await Promise.all(jobs.filter((j) => j.status !== 'succeeded').map(async (j) => (await call(urls.api!, 'GET', `/jobs/${j.id}`, { key })).text)),
    ...runs.filter((r) => r.status !== 'succeeded').map((r) => JSON.stringify(r)),
  ];
  assert.deepEqual(failed, [], `every job and lab run of the walk ends succeeded:\n${report()}`);
  t.diagnostic(`${requests.length} requests, ${jobs.length} jobs and ${runs.length} lab runs in ${(ran.ms / 1000).toFixed(1)} s; skipped: ${skipped.length}`);
});
