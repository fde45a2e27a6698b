// The service's metrics in the Prometheus text format (prom-client), one registry per Services so
// that several services in one process (the tests) keep apart. Counters and histograms move as
// requests and jobs end; gauges (the job queue, the feeds served, the database pool, the compute
// threads) are read from their sources when the registry is scraped. The process's own figures
// (CPU, memory, event-loop lag, garbage collection) are prom-client's default metrics, kept once
// per process. docs/operations.md lists every series.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type LabelValues, type MetricObjectWithValues, type MetricType, type MetricValueWithName } from 'prom-client';

/** What is waiting and running of one job verb, read at scrape time with one query. */
export interface QueueReading {
  readonly verb: string;
  /** Queued jobs a worker may take now (a delivery's retry before its time is not counted). */
  readonly queued: number;
  readonly running: number;
  /** When the oldest of those queued jobs was queued (epoch ms), or null when none is. */
  readonly oldestQueuedAt: number | null;
}

export interface PoolReading {
  readonly idle: number;
  readonly inUse: number;
  /** Queries waiting for a connection. */
  readonly waiting: number;
}

/** Where the gauges are read from when the registry is scraped. */
export interface MetricSources {
  readonly build: { readonly version: string; readonly commit: string };
  readonly storage: string;
  /** Every job verb this process knows, so each has its series even while its queue is empty. */
  readonly verbs: readonly string[];
  queue(nowMs: number): Promise<readonly QueueReading[]>;
  feeds(): { readonly served: number; readonly refused: number };
  pool(): PoolReading;
  compute(): { readonly threads: number; readonly queued: number };
}

export type JobOutcome = 'succeeded' | 'failed' | 'retried' | 'interrupted' | 'cancelled' | 'abandoned';

/** The route label of a request no route matched (404, 405); a route template always starts with "/". */
export const UNMATCHED_ROUTE = 'unmatched';
/** The route named in the access line of a request Node's parser refused before any route could be looked for. */
export const UNREADABLE_ROUTE = 'unreadable';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

// From a cached GET (about a millisecond) to a slow upload (the request timeout is two minutes).
const REQUEST_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];
// From a delivery attempt to a long lab run.
const JOB_SECONDS = [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];

/** A scrape does not wait longer than this for the job queue (Prometheus gives up on a scrape after 10 s by default). */
const QUEUE_READ_MS = 2_000;

let processRegistry: Registry | undefined;

/** CPU, memory, event-loop lag and GC of this process: collected once, whichever services it holds. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

type RequestLabel = 'host' | 'route' | 'method' | 'status';

/** One series of the request histogram: counts per bucket (not cumulative), the count and the sum. */
interface RequestCell {
  readonly labels: Readonly<Record<RequestLabel, string>>;
  readonly counts: Float64Array;
  count: number;
  sum: number;
}

/**
 * The request histogram. prom-client's observe builds a label object and a hash string per call;
 * here each series is a cell made once and updated in place, so a request costs no allocation, and
 * the series are written in prom-client's histogram shape when the registry is scraped.
 */
class RequestHistogram extends Histogram<RequestLabel> {
  private readonly cells: RequestCell[] = [];

  constructor(private readonly metricName: string, private readonly metricHelp: string, registers: Registry[]) {
    super({ name: metricName, help: metricHelp, labelNames: ['host', 'route', 'method', 'status'], buckets: REQUEST_SECONDS, registers });
  }

  cell(labels: Record<RequestLabel, string>): RequestCell {
    const cell = { labels, counts: new Float64Array(REQUEST_SECONDS.length), count: 0, sum: 0 };
    this.cells.push(cell);
    return cell;
  }

  override async get(): Promise<MetricObjectWithValues<MetricValueWithName<RequestLabel>>> {
    return this.exposed();
  }

  /** What the registry reads for the text format (prom-client calls it before get). */
  async getForPromString(): Promise<MetricObjectWithValues<MetricValueWithName<RequestLabel>>> {
    return this.exposed();
  }

  private exposed(): MetricObjectWithValues<MetricValueWithName<RequestLabel>> {
    const values: Array<MetricValueWithName<RequestLabel>> = [];
    const bucket = `${this.metricName}_bucket`;
    for (const cell of this.cells) {
      let cumulative = 0;
      REQUEST_SECONDS.forEach((bound, i) => {
        cumulative += cell.counts[i]!;
        values.push({ labels: { ...cell.labels, le: bound } as LabelValues<RequestLabel>, value: cumulative, metricName: bucket });
      });
      values.push({ labels: { ...cell.labels, le: '+Inf' } as LabelValues<RequestLabel>, value: cell.count, metricName: bucket });
      values.push({ labels: cell.labels, value: cell.sum, metricName: `${this.metricName}_sum` });
      values.push({ labels: cell.labels, value: cell.count, metricName: `${this.metricName}_count` });
    }
    // prom-client's types name the type by an enum; its registry reads the text it writes, 'histogram'.
    return { name: this.metricName, help: this.metricHelp, type: 'histogram' as unknown as MetricType, aggregator: 'sum', collect: () => {}, values };
  }
}

/**
 * The request series of one host: the cell of each route, method and status is found by three map
 * lookups and updated in place.
 */
export class HttpSeries {
  private readonly byRoute = new Map<string, Map<string, Map<number, RequestCell>>>();

  constructor(private readonly histogram: RequestHistogram, private readonly host: string) {}

  observe(route: string, method: string, status: number, seconds: number): void {
    let byMethod = this.byRoute.get(route);
    if (!byMethod) this.byRoute.set(route, byMethod = new Map());
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, byStatus = new Map());
    let cell = byStatus.get(status);
    if (!cell) {
      cell = this.histogram.cell({ host: this.host, route, method: METHODS.has(method) ? method : 'other', status: String(status) });
      byStatus.set(status, cell);
    }
    cell.count += 1;
    cell.sum += seconds;
    let i = 0;
    while (i < REQUEST_SECONDS.length && seconds > REQUEST_SECONDS[i]!) i += 1;
    if (i < REQUEST_SECONDS.length) cell.counts[i] = cell.counts[i]! + 1;
  }
}

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests: RequestHistogram;
  private readonly jobs: Histogram<'kind' | 'outcome'>;
  private readonly labRuns: Counter<'model' | 'outcome'>;
  private readonly deliveries: Counter<'outcome'>;
  private readonly queryFailures: Counter<'kind'>;
  private readonly unreadables: Counter<'host' | 'status'>;
  private readonly hosts = new Map<string, HttpSeries>();
  /** The scrape's one reading of the queue, shared by its three gauges. */
  private queueReading: Promise<readonly QueueReading[] | undefined> | undefined;

  constructor(private readonly sources: MetricSources) {
    const registers = [this.registry];
    new Gauge({
      name: 'catrisk_build_info', help: 'Always 1; the labels name the build and the storage this process runs.',
      labelNames: ['version', 'commit', 'storage'], registers,
    }).set({ version: sources.build.version, commit: sources.build.commit, storage: sources.storage }, 1);
    this.requests = new RequestHistogram('catrisk_http_request_duration_seconds',
      'Requests answered, by host, route template (unmatched: no route matched), method and status, from routing to the last byte written.', registers);
    this.unreadables = new Counter({
      name: 'catrisk_http_unreadable_requests_total',
      help: 'Requests Node\'s HTTP parser refused before any route (malformed, oversized headers, too slow to arrive), answered in the envelope and closed, by host and status; not timed.',
      labelNames: ['host', 'status'], registers,
    });
    this.jobs = new Histogram({
      name: 'catrisk_job_duration_seconds',
      help: 'Job runs by kind (verb) and outcome: succeeded, failed, retried (put back to run again), interrupted (by the database; put back), cancelled, abandoned (lease lost or shutdown).',
      labelNames: ['kind', 'outcome'], buckets: JOB_SECONDS, registers,
    });
    this.labRuns = new Counter({
      name: 'catrisk_lab_runs_total', help: 'Lab run job runs ended, by model (every exchange model counts as exchange) and outcome: succeeded, refused (the run failed with its refusal), error (the run may be tried again).',
      labelNames: ['model', 'outcome'], registers,
    });
    this.deliveries = new Counter({
      name: 'catrisk_webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome: delivered, retry_queued, given_up, and record_ended, webhook_removed, nothing_to_send when nothing was sent; error when the attempt could not be made.',
      labelNames: ['outcome'], registers,
    });
    this.queryFailures = new Counter({
      name: 'catrisk_db_query_failures_total', help: 'Database queries that failed: unavailable (the database did not answer or the connection was lost) or error (refused by the database).',
      labelNames: ['kind'], registers,
    });
    for (const kind of ['unavailable', 'error']) this.queryFailures.inc({ kind }, 0);

    const verbs = sources.verbs;
    const readQueue = (nowMs: number) => this.readQueue(nowMs);
    const queueGauge = (name: string, help: string, value: (r: QueueReading, nowMs: number) => number) => new Gauge({
      name, help, labelNames: ['kind'], registers,
      async collect() {
        const nowMs = Date.now();
        const readings = await readQueue(nowMs);
        // The database did not answer: the last reading stays (the failure is counted apart).
        if (!readings) return;
        for (const verb of verbs) this.set({ kind: verb }, 0);
        for (const r of readings) this.set({ kind: r.verb }, value(r, nowMs));
      },
    });
    queueGauge('catrisk_job_queue_depth', 'Queued jobs a worker may take now, by kind (retries waiting for their time are not counted).', (r) => r.queued);
    queueGauge('catrisk_job_queue_oldest_age_seconds', 'How long the oldest of those queued jobs has waited, by kind; 0 when none waits.',
      (r, nowMs) => (r.oldestQueuedAt === null ? 0 : Math.max(0, (nowMs - r.oldestQueuedAt) / 1000)));
    queueGauge('catrisk_jobs_running', 'Jobs running now in any process sharing the database, by kind.', (r) => r.running);
    new Gauge({
      name: 'catrisk_feed_snapshots', help: 'Pinned feed snapshots by state: served (verified) and refused (bytes that do not match their manifest).',
      labelNames: ['state'], registers,
      collect() {
        const feeds = sources.feeds();
        this.set({ state: 'served' }, feeds.served);
        this.set({ state: 'refused' }, feeds.refused);
      },
    });
    new Gauge({
      name: 'catrisk_db_pool_connections', help: 'Database connections by state (idle, in_use); SQLite is one connection, used on the event loop, so it reads idle between statements.',
      labelNames: ['state'], registers,
      collect() {
        const pool = sources.pool();
        this.set({ state: 'idle' }, pool.idle);
        this.set({ state: 'in_use' }, pool.inUse);
      },
    });
    new Gauge({
      name: 'catrisk_db_pool_waiting_queries', help: 'Queries waiting for a database connection (PostgreSQL; 0 on SQLite).', registers,
      collect() { this.set(sources.pool().waiting); },
    });
    new Gauge({
      name: 'catrisk_compute_threads', help: 'Compute threads started (they start on demand and stop when idle).', registers,
      collect() { this.set(sources.compute().threads); },
    });
    new Gauge({
      name: 'catrisk_compute_queue_depth', help: 'Compute tasks waiting for a free thread.', registers,
      collect() { this.set(sources.compute().queued); },
    });
  }

  /** The series a host observes its requests into. */
  http(host: string): HttpSeries {
    let series = this.hosts.get(host);
    if (!series) this.hosts.set(host, series = new HttpSeries(this.requests, host));
    return series;
  }

  /** A request the parser refused (http/unreadable-requests.ts): counted apart, as its start is not known. */
  unreadable(host: string, status: number): void {
    this.unreadables.inc({ host, status: String(status) });
  }

  jobRun(kind: string, outcome: JobOutcome, seconds: number): void {
    this.jobs.observe({ kind, outcome }, seconds);
  }

  labRun(model: string, outcome: 'succeeded' | 'refused' | 'error'): void {
    this.labRuns.inc({ model, outcome });
  }

  webhookDelivery(outcome: string): void {
    this.deliveries.inc({ outcome });
  }

  queryFailed(kind: 'unavailable' | 'error'): void {
    this.queryFailures.inc({ kind });
  }

  readonly contentType = Registry.PROMETHEUS_CONTENT_TYPE;

  /** The exposition: this service's series, then the process's. */
  async exposition(): Promise<string> {
    const [own, process] = await Promise.all([this.registry.metrics(), processMetrics().metrics()]);
    return own + process;
  }

  /** One query for the queue gauges of a scrape; undefined when the database fails or takes longer than QUEUE_READ_MS. */
  private readQueue(nowMs: number): Promise<readonly QueueReading[] | undefined> {
    this.queueReading ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<undefined>((resolve) => { timer = setTimeout(() => resolve(undefined), QUEUE_READ_MS); });
      try {
        return await Promise.race([this.sources.queue(nowMs).catch(() => undefined), late]);
      } finally {
        clearTimeout(timer);
        this.queueReading = undefined;
      }
    })();
    return this.queueReading;
  }
}
