// Runs the service as a separate OS process (serve or worker), as an operator would.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface ServiceProcess {
  child: ChildProcess;
  urls: Record<string, string>;
  /** The worker-only process prints its lease owner name. */
  workerOwner: string | undefined;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * The node arguments that run the service's command line with `args`: the transpiled entry point
 * when the tests themselves run transpiled (scripts/test.mjs), else the sources through tsx.
 */
export function mainArgs(...args: string[]): string[] {
  return import.meta.url.endsWith('.js')
    ? [fileURLToPath(new URL('../../src/main.js', import.meta.url)), ...args]
    : ['--import', 'tsx', 'src/main.ts', ...args];
}

export async function spawnService(command: 'serve' | 'worker', env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, mainArgs(command), {
    env: {
      ...process.env,
      CATRISK_API_PORT: '0', CATRISK_DOCS_PORT: '0', CATRISK_MCP_PORT: '0', CATRISK_DATA_PORT: '0', CATRISK_LAB_PORT: '0',
      CATRISK_METRICS_PORT: '0',
      CATRISK_LOG_LEVEL: process.env.CATRISK_TEST_LOG ?? 'error',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const urls: Record<string, string> = {};
  let workerOwner: string | undefined;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running: a live child would keep the test file from ever ending.
      child.kill('SIGKILL');
      reject(new Error(`${command} did not start`));
    }, 30_000);
    void exited.then((code) => { clearTimeout(timer); reject(new Error(`${command} exited with ${code}`)); });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let parsed: { host?: string; url?: string; worker?: string };
      try { parsed = JSON.parse(line); } catch { return; }
      if (parsed.host && parsed.url) urls[parsed.host] = parsed.url;
      if (parsed.worker) workerOwner = parsed.worker;
      if ((command === 'serve' && Object.keys(urls).length === 5) || (command === 'worker' && workerOwner)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return {
    child, urls, workerOwner,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
  };
}
