// Reading a service's GET /metrics as a scraper would: the Prometheus text format parsed by
// parse-prometheus-text-format. The parser keeps each family's type and help, but folds a
// histogram's labelled samples into one; so the samples are also read without the comment lines,
// each series (a histogram's _bucket, _sum and _count too) under its own name, as Prometheus
// stores them (the parser starts a new family at each change of name: they are gathered by name).
import assert from 'node:assert/strict';
import parsePrometheusTextFormat, { type PrometheusFamily, type PrometheusSample } from 'parse-prometheus-text-format';
import type { TestService } from './service.js';

export interface Scrape {
  readonly text: string;
  /** Each family with its type and help, as the parser reads the whole text. */
  readonly families: readonly PrometheusFamily[];
  /** Each series name's samples with their labels. */
  readonly series: ReadonlyMap<string, readonly PrometheusSample[]>;
}

export function parseScrape(text: string): Scrape {
  return {
    text,
    families: parsePrometheusTextFormat(text),
    series: bySeries(parsePrometheusTextFormat(text.split('\n').filter((line) => !line.startsWith('#')).join('\n'))),
  };
}

function bySeries(runs: readonly PrometheusFamily[]): Map<string, PrometheusSample[]> {
  const series = new Map<string, PrometheusSample[]>();
  for (const run of runs) series.set(run.name, [...(series.get(run.name) ?? []), ...run.metrics]);
  return series;
}

export async function scrape(svc: Pick<TestService, 'metrics'>): Promise<Scrape> {
  assert.ok(svc.metrics, 'the metrics listener is on');
  const response = await fetch(svc.metrics, { headers: { 'user-agent': 'catrisk-tests/1.0' } });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parseScrape(await response.text());
}

export function family(scraped: Scrape, name: string): PrometheusFamily | undefined {
  return scraped.families.find((f) => f.name === name);
}

/** The sample of the series `name` (a histogram's as name_count, name_sum, name_bucket) whose labels include `labels`. */
export function sampleOf(scraped: Scrape, name: string, labels: Record<string, string> = {}): PrometheusSample | undefined {
  return scraped.series.get(name)?.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
}

/** A series' value; 0 when the series is absent. */
export function valueOf(scraped: Scrape, name: string, labels: Record<string, string> = {}): number {
  return Number(sampleOf(scraped, name, labels)?.value ?? 0);
}
