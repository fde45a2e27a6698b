// npm run bench [http|feeds|ingest ...]: prints figures for BENCHMARKS.md. Benchmarks, never timed tests.
import os from 'node:os';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { startBuiltService, USER_AGENT } from './support.js';
import { largeSchedule } from '../test/support/schedules.js';

function print(line: Record<string, unknown>) {
  console.log(JSON.stringify(line));
}

async function cannon(title: string, url: string, headers: Record<string, string> = {}) {
  await autocannon({ url, connections: 32, duration: 2, headers: { 'user-agent': USER_AGENT, ...headers } });
  const r = await autocannon({ url, connections: 64, duration: 10, headers: { 'user-agent': USER_AGENT, ...headers } });
  print({ bench: title, requests_per_s: Math.round(r.requests.average), p50_ms: r.latency.p50, p99_ms: r.latency.p99, non_2xx: r.non2xx, errors: r.errors });
}

/** Sequential requests: the latency one caller sees, warm. */
async function latency(title: string, url: string, key: string, n = 200) {
  const headers = { 'user-agent': USER_AGENT, authorization: `Bearer ${key}` };
  for (let i = 0; i < 20; i += 1) await (await fetch(url, { headers })).arrayBuffer();
  const times: number[] = [];
  let status = 0;
  for (let i = 0; i < n; i += 1) {
    const t = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    times.push(performance.now() - t);
    status = response.status;
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => Number(times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(2));
  print({ bench: title, status, requests: n, p50_ms: q(0.5), p90_ms: q(0.9), p99_ms: q(0.99) });
}

async function signup(api: string): Promise<string> {
  const answer = await fetch(`${api}/signup`, { method: 'POST', headers: { 'user-agent': USER_AGENT } });
  return ((await answer.json()) as { api_key: { secret: string } }).api_key.secret;
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)![1]) / 1024);
}

async function httpBench() {
  const svc = await startBuiltService();
  try {
    const key = await signup(svc.urls.api!);
    await cannon('GET /health', `${svc.urls.api}/health`);
    await cannon('GET /account (authenticated)', `${svc.urls.api}/account`, { authorization: `Bearer ${key}` });
  } finally {
    await svc.stop();
  }
}

async function feedsBench() {
  const t0 = performance.now();
  const svc = await startBuiltService();
  print({ bench: 'start-up: process spawn to five hosts listening, every snapshot verified', ms: Math.round(performance.now() - t0) });
  try {
    const api = svc.urls.api!;
    const key = await signup(api);
    const headers = { 'user-agent': USER_AGENT, authorization: `Bearer ${key}` };
    // The largest catalog by rows.
    const feeds = (await (await fetch(`${api}/feeds`, { headers })).json()) as { feeds: Array<{ feed_id: string; kind: string; perils: string[] }> };
    let largest = { feed: '', peril: '', rows: 0 };
    for (const f of feeds.feeds.filter((x) => ['event_catalog', 'storm_report_set', 'fire_extract'].includes(x.kind))) {
      const peril = f.feed_id.startsWith('usgs-comcat') ? 'earthquake' : f.feed_id.startsWith('usgs-mtbs') ? 'wildfire' : 'severe_convective_storm';
      const page = (await (await fetch(`${api}/events/${peril}?feed=${f.feed_id}&limit=1`, { headers })).json()) as { counts: { events_in_snapshot: number } };
      if (page.counts.events_in_snapshot > largest.rows) largest = { feed: f.feed_id, peril, rows: page.counts.events_in_snapshot };
    }
    print({ largest_catalog: largest });
    await latency(`GET /events 1,000-event page (${largest.feed})`, `${api}/events/${largest.peril}?feed=${largest.feed}&limit=1000`, key);
    await latency('GET /hazard earthquake (Los Angeles)', `${api}/hazard?peril=earthquake&lat=34.05&lon=-118.25`, key);
    await latency('GET /hazard flood (Grand Rapids gauge)', `${api}/hazard?peril=flood&lat=42.96&lon=-85.67`, key);
    await latency('GET /hazard severe_convective_storm (Denver, three extracts)', `${api}/hazard?peril=severe_convective_storm&lat=39.74&lon=-104.99`, key);
    await latency('GET /hazard tropical_cyclone (Miami, HURDAT2 1851-2024)', `${api}/hazard?peril=tropical_cyclone&lat=25.76&lon=-80.19`, key, 50);
    await latency('GET /events/earthquake/{id}/footprint (Ridgecrest)', `${api}/events/earthquake/ci38443183/footprint`, key);
  } finally {
    await svc.stop();
  }
}

async function ingestBench() {
  const rows = 320_000; // about 32 MB with this generator
  const text = largeSchedule(rows);
  const bytes = Buffer.byteLength(text);
  const svc = await startBuiltService();
  try {
    const api = svc.urls.api!;
    const key = await signup(api);
    const headers = { 'user-agent': USER_AGENT, authorization: `Bearer ${key}` };
    const form = new FormData();
    form.append('file', new Blob([text], { type: 'text/csv' }), 'bench.csv');
    form.append('currency', 'USD');
    const t0 = performance.now();
    const accepted = await fetch(`${api}/ingest`, { method: 'POST', headers, body: form });
    const location = accepted.headers.get('location')!;
    const acceptedMs = performance.now() - t0;
    let job: { status: string; error?: unknown };
    do {
      await new Promise((r) => setTimeout(r, 50));
      job = (await (await fetch(`${api}${location}`, { headers })).json()) as typeof job;
    } while (job.status === 'queued' || job.status === 'running');
    const wall = (performance.now() - t0) / 1000;
    print({
      bench: 'ingest of a generated schedule', status: job.status, rows, megabytes: Number((bytes / 2 ** 20).toFixed(1)),
      accepted_ms: Math.round(acceptedMs), wall_s: Number(wall.toFixed(2)), rows_per_s: Math.round(rows / wall),
      service_peak_rss_mb: peakRssMb(svc.child.pid!),
    });
  } finally {
    await svc.stop();
  }
}

const benches: Record<string, () => Promise<void>> = { http: httpBench, feeds: feedsBench, ingest: ingestBench };
const chosen = process.argv.slice(2);
print({ machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, memory_gib: Math.round(os.totalmem() / 2 ** 30), node: process.version } });
for (const name of chosen.length > 0 ? chosen : Object.keys(benches)) await benches[name]!();
