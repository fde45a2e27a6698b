// The request histogram updated in place writes what prom-client's own Histogram writes for the
// same observations (every bucket, +Inf, sum and count of every series), and two services' registries
// keep apart.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Histogram, Registry } from 'prom-client';
import { ServiceMetrics, type MetricSources } from '../../src/telemetry/metrics.js';
import { parseScrape } from '../support/metrics.js';

const SOURCES: MetricSources = {
  build: { version: '0.0.0', commit: 'test' }, storage: 'sqlite', verbs: ['ingest'],
  queue: async () => [], feeds: () => ({ served: 1, refused: 0 }), pool: () => ({ idle: 1, inUse: 0, waiting: 0 }), compute: () => ({ threads: 0, queued: 0 }),
};

// Durations on, between and beyond the bounds.
const OBSERVED: Array<[string, string, number, number]> = [
  ['/account', 'GET', 200, 0.0004], ['/account', 'GET', 200, 0.001], ['/account', 'GET', 200, 0.0031],
  ['/objects/:id', 'GET', 404, 0.02], ['unmatched', 'BREW', 405, 0.5], ['/ingest', 'POST', 202, 200],
];

function samples(text: string, name: string): string[] {
  const scraped = parseScrape(text);
  return [`${name}_bucket`, `${name}_sum`, `${name}_count`].flatMap((series) =>
    (scraped.series.get(series) ?? []).map((s) => `${series}${JSON.stringify(Object.fromEntries(Object.entries(s.labels ?? {}).sort()))} ${Number(s.value)}`)).sort();
}

test('the in-place request histogram is exposed exactly as prom-client\'s Histogram would expose it', async () => {
  const metrics = new ServiceMetrics(SOURCES);
  const series = metrics.http('api');
  const reference = new Registry();
  const histogram = new Histogram({
    name: 'catrisk_http_request_duration_seconds', help: 'reference', labelNames: ['host', 'route', 'method', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120], registers: [reference],
  });
  for (const [route, method, status, seconds] of OBSERVED) {
    series.observe(route, method, status, seconds);
    histogram.observe({ host: 'api', route, method: method === 'BREW' ? 'other' : method, status: String(status) }, seconds);
  }
  const ours = samples(await metrics.exposition(), 'catrisk_http_request_duration_seconds');
  assert.equal(ours.length, 4 * (15 + 3), 'four series, each 15 bounds, +Inf, sum and count');
  assert.deepEqual(ours, samples(await reference.metrics(), 'catrisk_http_request_duration_seconds'));
  assert.match(await metrics.exposition(), /# TYPE catrisk_http_request_duration_seconds histogram/);
  // The JSON form has the same values.
  const json = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === 'catrisk_http_request_duration_seconds')!;
  assert.equal(json.values.filter((v) => (v as { metricName?: string }).metricName === 'catrisk_http_request_duration_seconds_count').length, 4);
});

test('each service its own registry', async () => {
  const one = new ServiceMetrics(SOURCES);
  const two = new ServiceMetrics(SOURCES);
  one.http('api').observe('/health', 'GET', 200, 0.001);
  one.jobRun('ingest', 'succeeded', 1.5);
  assert.match(await one.exposition(), /catrisk_http_request_duration_seconds_count\{host="api",route="\/health",method="GET",status="200"\} 1/);
  assert.doesNotMatch(await two.exposition(), /route="\/health"/);
  assert.doesNotMatch(await two.exposition(), /catrisk_job_duration_seconds_count\{kind="ingest"/);
});
