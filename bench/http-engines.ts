// `npm run bench -- http-engines`: GET /health and GET /account on both storage engines against a
// bare Fastify hello-world, all three processes up at once and measured in alternating rounds, so
// the machine's load moves every figure alike. The service keeps its default rate limiting
// (counters leased in blocks on PostgreSQL, in memory on SQLite), its limits raised so that the
// load itself is never refused.
import autocannon from 'autocannon';
import { benchDatabase, startBuiltService, startHelloWorld, USER_AGENT } from './support.js';

const ROUNDS = 3;

interface Figures { perSecond: number; p50: number; p99: number; non2xx: number }

async function load(url: string, headers: Record<string, string>): Promise<Figures> {
  const r = await autocannon({ url, connections: 64, duration: 8, headers: { 'user-agent': USER_AGENT, ...headers } });
  return { perSecond: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function signup(api: string): Promise<string> {
  const answer = await fetch(`${api}/signup`, { method: 'POST', headers: { 'user-agent': USER_AGENT } });
  return ((await answer.json()) as { api_key: { secret: string } }).api_key.secret;
}

export async function httpEnginesBench(): Promise<void> {
  const scratch = await benchDatabase();
  const hello = await startHelloWorld();
  const sqlite = await startBuiltService();
  const postgres = await startBuiltService({ DATABASE_URL: scratch.url.toString() });
  try {
    const targets: Array<{ label: string; url: string; headers: Record<string, string> }> = [{ label: 'bare Fastify hello-world', url: hello.url, headers: {} }];
    for (const [engine, svc] of [['SQLite', sqlite], ['PostgreSQL', postgres]] as const) {
      const key = await signup(svc.urls.api!);
      targets.push({ label: `GET /health, ${engine}`, url: `${svc.urls.api}/health`, headers: {} });
      targets.push({ label: `GET /account, ${engine}`, url: `${svc.urls.api}/account`, headers: { authorization: `Bearer ${key}` } });
    }
    for (const t of targets) await autocannon({ url: t.url, connections: 32, duration: 2, headers: { 'user-agent': USER_AGENT, ...t.headers } });
    const seen = new Map<string, Figures[]>(targets.map((t) => [t.label, []]));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const t of targets) seen.get(t.label)!.push(await load(t.url, t.headers));
    }
    const base = median(seen.get(targets[0]!.label)!.map((f) => f.perSecond));
    for (const t of targets) {
      const f = seen.get(t.label)!;
      const perSecond = median(f.map((x) => x.perSecond));
      console.log(JSON.stringify({
        bench: t.label, rounds: ROUNDS, requests_per_s_median: Math.round(perSecond), percent_of_hello_world: Math.round((100 * perSecond) / base),
        p50_ms_median: median(f.map((x) => x.p50)), p99_ms_median: median(f.map((x) => x.p99)), non_2xx: f.reduce((s, x) => s + x.non2xx, 0),
      }));
    }
  } finally {
    await Promise.all([hello.stop(), sqlite.stop(), postgres.stop()]);
    await scratch.drop();
  }
}
