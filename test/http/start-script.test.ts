// The documented way to run the service, `npm start` (and `npm run worker`), stops cleanly on
// SIGTERM: npm hands the signal to the service's node process, which shuts down and exits, and
// nothing it started is left running. npm runs a script through `sh -c`; a shell that does not
// pass the signal on would leave node running with the ports open.
//
// The scripts are run by npm exactly as package.json words them, from a scratch project whose
// dist/main.js loads the service's entry point (the transpiled one under scripts/test.mjs, else the
// sources through tsx), so no build of dist/ is needed.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const transpiled = import.meta.url.endsWith('.js');
const entry = fileURLToPath(new URL(transpiled ? '../../src/main.js' : '../../src/main.ts', import.meta.url));
const scripts = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** Every process descended from `pid`, with its command line (read from /proc). */
function descendants(pid: number): Array<{ pid: number; command: string }> {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try { stat = readFileSync(`/proc/${name}/stat`, 'utf8'); } catch { continue; }
    // pid (comm) state ppid ...: comm may hold spaces and parentheses; it ends at the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
  }
  const out: Array<{ pid: number; command: string }> = [];
  const walk = (parent: number) => {
    for (const child of parents.get(parent) ?? []) {
      let command = '';
      try { command = readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0').join(' ').trim(); } catch { continue; }
      out.push({ pid: child, command });
      walk(child);
    }
  };
  walk(pid);
  return out;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie has exited; only its parent has not read its status yet.
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => { socket.destroy(); resolve(false); });
    socket.once('error', () => resolve(true));
  });
}

for (const [script, command, ready] of [['start', 'serve', 5], ['worker', 'worker', 1]] as const) {
  test(`npm ${script === 'start' ? 'start' : 'run worker'} stops on SIGTERM: the service exits cleanly, no process is left and its ports close`, { timeout: 90_000 }, async () => {
    const project = mkdtempSync(join(tmpdir(), 'catrisk-npm-'));
    const state = join(project, 'var');
    mkdirSync(join(project, 'dist'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'catrisk-start-check', private: true, type: 'module', scripts: { [script]: scripts[script] } }));
    writeFileSync(join(project, 'dist', 'main.js'), `import ${JSON.stringify(pathToFileURL(entry).href)};\n`);
    assert.match(scripts[script]!, new RegExp(`\\bdist/main\\.js ${command}$`), `the ${script} script runs dist/main.js ${command}`);
    const npm = spawn('npm', script === 'start' ? ['start'] : ['run', script], {
      cwd: project,
      env: {
        ...process.env,
        ...(transpiled ? {} : { NODE_OPTIONS: `--import ${import.meta.resolve('tsx')}` }),
        CATRISK_STATE_DIR: state, CATRISK_LOG_LEVEL: 'error', CATRISK_SHUTDOWN_TIMEOUT_MS: '8000',
        CATRISK_API_PORT: '0', CATRISK_DOCS_PORT: '0', CATRISK_MCP_PORT: '0', CATRISK_DATA_PORT: '0', CATRISK_LAB_PORT: '0',
        npm_config_update_notifier: 'false', npm_config_fund: 'false',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    npm.stderr!.on('data', (d) => { stderr += d; });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => npm.once('exit', (code, signal) => resolve({ code, signal })));
    let started: Array<{ pid: number; command: string }> = [];
    try {
      const ports: number[] = [];
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`npm ${script} printed no ready line: ${stderr}`)), 60_000);
        void exited.then(({ code }) => { clearTimeout(timer); reject(new Error(`npm ${script} exited with ${code}: ${stderr}`)); });
        let lines = 0;
        createInterface({ input: npm.stdout! }).on('line', (line) => {
          let parsed: { url?: string; worker?: string };
          try { parsed = JSON.parse(line); } catch { return; }
          if (parsed.url) ports.push(Number(new URL(parsed.url).port));
          if (parsed.url || parsed.worker) lines += 1;
          if (lines === ready) { clearTimeout(timer); resolve(); }
        });
      });
      started = descendants(npm.pid!);
      const shell = (p: { command: string }) => /^(\/\S*\/)?(sh|dash|bash) /.test(p.command);
      assert.equal(started.filter((p) => !shell(p) && p.command.includes(`dist/main.js ${command}`)).length, 1, JSON.stringify(started));
      // The script's shell gave way to node (exec): npm's SIGTERM reaches the service itself.
      assert.deepEqual(started.filter(shell), [], 'a shell stands between npm and the service');

      npm.kill('SIGTERM');
      const end = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 20_000))]);
      assert.notEqual(end, 'hung', `npm ${script} did not end after SIGTERM`);
      assert.deepEqual(end, { code: 0, signal: null }, stderr);
      for (let i = 0; started.some((p) => running(p.pid)) && i < 50; i += 1) await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(started.filter((p) => running(p.pid)), [], 'processes left running after SIGTERM');
      for (const port of ports) assert.ok(await refused(port), `port ${port} still open`);
      assert.equal(ports.length, script === 'start' ? 5 : 0);
    } finally {
      if (npm.exitCode === null && npm.signalCode === null) npm.kill('SIGKILL');
      for (const p of started) if (running(p.pid)) process.kill(p.pid, 'SIGKILL');
      rmSync(project, { recursive: true, force: true });
    }
  });
}
