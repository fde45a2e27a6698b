// Shared by the benchmarks: start the built service in its own process and read its URLs.
import pg from 'pg';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const USER_AGENT = 'catrisk-bench/1.0';

export interface BenchService {
  urls: Record<string, string>;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** `main`: the built entry to run (a build of earlier code, for before and after side by side). */
export async function startBuiltService(env: Record<string, string> = {}, main = 'dist/main.js'): Promise<BenchService> {
  const stateDir = mkdtempSync(join(tmpdir(), 'catrisk-bench-'));
  const child = spawn(process.execPath, [main, 'serve'], {
    env: {
      ...process.env,
      CATRISK_API_PORT: '0', CATRISK_DOCS_PORT: '0', CATRISK_MCP_PORT: '0', CATRISK_DATA_PORT: '0', CATRISK_LAB_PORT: '0',
      CATRISK_METRICS_PORT: '0',
      CATRISK_STATE_DIR: stateDir, CATRISK_LOG_LEVEL: 'warn',
      CATRISK_RATE_LIMIT: '100000000', CATRISK_ADDRESS_RATE_LIMIT: '100000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const urls: Record<string, string> = {};
  const lines = createInterface({ input: child.stdout! });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`service exited with ${code}`)));
    lines.on('line', (line) => {
      try {
        const { host, url } = JSON.parse(line) as { host: string; url: string };
        urls[host] = url;
        if (Object.keys(urls).length === 5) resolve();
      } catch { /* not a host line */ }
    });
  });
  return {
    urls, child,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** A bare Fastify hello-world in its own process: the baseline the service's figures are read against. */
export async function startHelloWorld(): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const script = `
    const app = require('fastify')();
    app.get('/', async () => ({ hello: 'world' }));
    app.listen({ host: '127.0.0.1', port: 0 }).then((address) => console.log(address));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`hello-world exited with ${code}`)));
    lines.once('line', (line) => resolve(line.trim()));
  });
  return {
    url, child,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/** Reads a job at `location` until it ends: its result, or an Error naming `what` and the job's error. */
export async function jobResult(api: string, headers: Record<string, string>, location: string, what: string, pollMs = 2): Promise<any> {
  for (;;) {
    const job = await (await fetch(`${api}${location}`, { headers })).json() as { status: string; result?: unknown; error?: unknown };
    if (job.status === 'failed') throw new Error(`${what} failed: ${JSON.stringify(job.error)}`);
    if (job.status === 'succeeded') return job.result;
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** A scratch PostgreSQL database for one bench (CATRISK_BENCH_PG, default the local server's `test`), dropped by drop(). */
export async function benchDatabase(): Promise<{ url: URL; admin: pg.Client; drop(): Promise<void> }> {
  const adminUrl = process.env.CATRISK_BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `catrisk_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url, admin,
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
