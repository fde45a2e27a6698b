// npm run bench: prints figures for BENCHMARKS.md. Benchmarks, never timed tests.
import os from 'node:os';
import autocannon from 'autocannon';
import { startBuiltService, USER_AGENT } from './support.js';

async function cannon(title: string, url: string, headers: Record<string, string> = {}) {
  // Warm up, then measure.
  await autocannon({ url, connections: 32, duration: 2, headers: { 'user-agent': USER_AGENT, ...headers } });
  const r = await autocannon({ url, connections: 64, pipelining: 1, duration: 10, headers: { 'user-agent': USER_AGENT, ...headers } });
  const line = {
    bench: title,
    requests_per_s: Math.round(r.requests.average),
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    non_2xx: r.non2xx,
    errors: r.errors,
  };
  console.log(JSON.stringify(line));
  return line;
}

async function main() {
  const only = process.argv.slice(2);
  console.log(JSON.stringify({ machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, memory_gib: Math.round(os.totalmem() / 2 ** 30), node: process.version } }));
  if (only.length === 0 || only.includes('http')) {
    const svc = await startBuiltService();
    try {
      const signup = await fetch(`${svc.urls.api}/signup`, { method: 'POST', headers: { 'user-agent': USER_AGENT } });
      const key = ((await signup.json()) as { api_key: { secret: string } }).api_key.secret;
      await cannon('GET /health', `${svc.urls.api}/health`);
      await cannon('GET /account (authenticated)', `${svc.urls.api}/account`, { authorization: `Bearer ${key}` });
    } finally {
      await svc.stop();
    }
  }
}

await main();
