// Every environment variable the service reads, parsed and typed in one place.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface RateLimitPolicy {
  /** Requests allowed per window. */
  readonly limit: number;
  /** Window length in seconds. */
  readonly windowSeconds: number;
}

export interface Config {
  readonly host: string;
  readonly ports: {
    readonly api: number;
    readonly docs: number;
    readonly mcp: number;
    readonly data: number;
    readonly lab: number;
  };
  readonly stateDir: string;
  readonly databaseUrl: string | undefined;
  /** The pinned snapshots: CATRISK_FEEDS_DIR, else the repository's feeds/. */
  readonly feedsDir: string;
  /**
   * Where what a process verified of the feeds is recorded for the next process
   * (CATRISK_FEED_RECORD_DIR, default the state folder; `off`: every process hashes every file).
   */
  readonly feedRecordDir: string | null;
  /**
   * Product names of anonymous default-library agents, refused at the edge (lower case, compared
   * with each product token's name; see src/http/user-agents.ts).
   */
  readonly refusedAgents: readonly string[];
  /**
   * key: requests per key; address: requests per client address on routes without a key and on
   * refusals before a key is known; invalidKey: wrong keys per client address before the address
   * is refused without a lookup.
   */
  readonly rateLimit: { readonly key: RateLimitPolicy; readonly address: RateLimitPolicy; readonly invalidKey: RateLimitPolicy };
  /** How long a client may take over a request (connection to last body byte, and headers alone). */
  readonly timeouts: { readonly requestMs: number; readonly headersMs: number; readonly keepAliveMs: number };
  /** Units included in the sandbox plan before usage is billable overage. */
  readonly sandboxUnits: number;
  /** How long the answer to a request sent with an Idempotency-Key is kept and replayed. */
  readonly idempotencyTtlSeconds: number;
  readonly jobs: {
    /** Run workers inside the serving process. */
    readonly inProcessWorkers: boolean;
    readonly concurrency: number;
    readonly leaseMs: number;
    readonly pollMs: number;
    /**
     * Runs of a job that may end without an outcome (crash, lost lease, unexpected error) before
     * it fails with internal_error. Refusals fail at once; database outages and clean shutdowns
     * do not count.
     */
    readonly maxAttempts: number;
  };
  /** PostgreSQL link limits, so a dropped or stalled connection fails queries instead of hanging them. */
  readonly database: {
    /** Longest wait to open a connection or to get one from the pool. */
    readonly connectTimeoutMs: number;
    /** The server cancels a statement running longer; the client gives up on it a second later. */
    readonly statementTimeoutMs: number;
    /** An unused pooled connection is closed, and a transaction left idle is ended by the server, after this. */
    readonly idleTimeoutMs: number;
    /** TCP keep-alive probes start after this much silence on a connection. */
    readonly keepAliveMs: number;
  };
  /** SIGTERM ends the process within this, even when queries hang. */
  readonly shutdownTimeoutMs: number;
  readonly build: { readonly version: string; readonly commit: string };
  /** pino's level (CATRISK_LOG_LEVEL): at info, one access line per request and one line per job run. */
  readonly logLevel: string;
  /**
   * GET /metrics (Prometheus text format) on a listener of its own: CATRISK_METRICS_PORT (9464;
   * `off` or empty: no listener), on CATRISK_METRICS_HOST (loopback unless the operator opens it).
   */
  readonly metrics: { readonly port: number | undefined; readonly host: string };
  /**
   * The tool server: browser origins allowed to call {mcp_url}/mcp besides loopback ones
   * (CATRISK_MCP_ALLOWED_ORIGINS, comma-separated, e.g. https://agent.example). A request with any
   * other Origin is refused 403 (DNS rebinding); a request without one (a non-browser client) is served.
   */
  readonly mcp: { readonly allowedOrigins: readonly string[] };
  /** POST /exposure-codes and POST /multi-building-flags: one switch, one provider, one budget. */
  readonly exposureCoding: ExposureCodingConfig;
  /** GET /geocode: the switch and the geocoders asked, in order. */
  readonly geocoding: GeocodingConfig;
  /**
   * Calls to addresses users name (webhook receivers, exchange platforms). Production keeps all
   * three off: https only, public addresses only, the system's trusted authorities only.
   */
  readonly outbound: OutboundConfig;
  /** Monitoring: noticing newly pinned snapshots, and delivering webhooks. */
  readonly monitoring: MonitoringConfig;
  /** The keys that seal secrets at rest: exchange connector credentials and webhook signing secrets. */
  readonly sealing: SealingConfig;
  /** The model exchange: the lab's internal route, and how long a provider's run is waited for. */
  readonly exchange: ExchangeConfig;
}

export interface MonitoringConfig {
  /** CATRISK_FEEDS_RESCAN_SECONDS: how often the feeds directory is looked at for new snapshot versions (0: never; SIGHUP still does). */
  readonly rescanSeconds: number;
  /**
   * CATRISK_WEBHOOK_RETRY_SECONDS: the waits before each retry of a delivery, comma-separated
   * seconds (default 5, 300, 1800, 7200, 18000, 36000, 86400: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
   * 24 h); each is jittered by ±20%. Its length is the number of retries.
   */
  readonly retrySeconds: readonly number[];
  /** CATRISK_WEBHOOK_TIMEOUT_MS: one attempt, connection to last byte. */
  readonly deliveryTimeoutMs: number;
}

/** The documented retry schedule of a webhook delivery, in seconds. */
export const WEBHOOK_RETRY_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 86400] as const;

function secondsList(env: Env, name: string, fallback: readonly number[]): readonly number[] {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const values = raw.split(',').map((v) => Number(v.trim()));
  if (values.some((v) => !Number.isFinite(v) || v < 0)) throw new Error(`${name} must be comma-separated seconds (numbers of at least 0), got "${raw}"`);
  return values;
}

/** One key that seals secrets at rest (AES-256-GCM); its id is stored beside each sealed value. */
export interface SealingKey {
  readonly id: string;
  /** 32 bytes. Never logged. */
  readonly key: Buffer;
}

export interface SealingConfig {
  /**
   * Every key held, the one that seals first, each `<key id>:<base64 of 32 bytes>` in its setting:
   * CATRISK_SEALING_KEY (one key, the one that seals), then CATRISK_SEALING_KEYS_PREVIOUS
   * (comma-separated, keys that only open: rotation keeps the old key there until `catrisk keys
   * reseal` has sealed everything again under the new one), then every key of CATRISK_EXCHANGE_KEY.
   * CATRISK_EXCHANGE_KEY is the older name: when CATRISK_SEALING_KEY is unset, its first key seals
   * and the rest open, as before. Empty: nothing can be sealed (webhooks cannot be registered,
   * listings cannot take credentials).
   */
  readonly keys: readonly SealingKey[];
}

export interface ExchangeConfig {
  /**
   * CATRISK_INTERNAL_TOKEN: the environment's internal credential, carried by the lab to the
   * internal connector route. Unset: a random one per process (enough when one process serves
   * the API and runs the lab's jobs; set it when several processes share a database).
   */
  readonly internalToken: string;
  /** CATRISK_INTERNAL_API_URL: where the lab reaches the API host's internal route; unset: this process's API host on loopback. */
  readonly internalApiUrl: string | undefined;
  /** CATRISK_EXCHANGE_RUN_TIMEOUT_MS: how long a run on a provider's platform is waited for. */
  readonly runTimeoutMs: number;
}

/** One setting's `<key id>:<base64 of 32 bytes>[,...]` read; a malformed value stops the process, naming the fault but never the key. */
export function sealingKeyList(setting: string, raw: string | undefined): SealingKey[] {
  if (raw === undefined || raw.trim() === '') return [];
  const keys = raw.split(',').map((part, i) => {
    const at = part.indexOf(':');
    const id = at > 0 ? part.slice(0, at).trim() : '';
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(id)) throw new Error(`${setting} entry ${i + 1}: expected <key id>:<base64 of 32 bytes>, with a key id of 1 to 64 letters, digits, _ . or -`);
    const key = Buffer.from(part.slice(at + 1).trim(), 'base64');
    if (key.length !== 32) throw new Error(`${setting} key ${id}: must be 32 bytes in base64, got ${key.length}`);
    return { id, key };
  });
  if (new Set(keys.map((k) => k.id)).size !== keys.length) throw new Error(`${setting}: a key id is used twice`);
  return keys;
}

/**
 * The sealing keys of the environment, the one that seals first (see SealingConfig). A key id given
 * in two settings must name the same key there (it is then held once); previous keys without one
 * that seals are refused, as is more than one key in CATRISK_SEALING_KEY.
 */
export function sealingConfig(env: Env): SealingConfig {
  const current = sealingKeyList('CATRISK_SEALING_KEY', env.CATRISK_SEALING_KEY);
  if (current.length > 1) {
    throw new Error('CATRISK_SEALING_KEY holds one key, the one that seals new secrets; give the keys that only open older ones in CATRISK_SEALING_KEYS_PREVIOUS');
  }
  const previous = sealingKeyList('CATRISK_SEALING_KEYS_PREVIOUS', env.CATRISK_SEALING_KEYS_PREVIOUS);
  const alias = sealingKeyList('CATRISK_EXCHANGE_KEY', env.CATRISK_EXCHANGE_KEY);
  if (current.length === 0 && alias.length === 0 && previous.length > 0) {
    throw new Error('CATRISK_SEALING_KEYS_PREVIOUS gives keys that open, but no key seals: set CATRISK_SEALING_KEY to the key that seals new secrets');
  }
  const named = [
    ...current.map((key) => ({ key, setting: 'CATRISK_SEALING_KEY' })),
    ...(current.length === 0 ? alias.slice(0, 1).map((key) => ({ key, setting: 'CATRISK_EXCHANGE_KEY' })) : []),
    ...previous.map((key) => ({ key, setting: 'CATRISK_SEALING_KEYS_PREVIOUS' })),
    ...alias.slice(current.length === 0 ? 1 : 0).map((key) => ({ key, setting: 'CATRISK_EXCHANGE_KEY' })),
  ];
  const held = new Map<string, { key: SealingKey; setting: string }>();
  for (const entry of named) {
    const seen = held.get(entry.key.id);
    if (!seen) held.set(entry.key.id, entry);
    else if (!seen.key.key.equals(entry.key.key)) {
      throw new Error(`The key id ${entry.key.id} names one key in ${seen.setting} and another in ${entry.setting}: a key id must always name the same key`);
    }
  }
  return { keys: [...held.values()].map((e) => e.key) };
}

export interface OutboundConfig {
  /** CATRISK_OUTBOUND_ALLOW_HTTP (tests): plain http targets accepted. */
  readonly allowHttp: boolean;
  /** CATRISK_OUTBOUND_ALLOW_LOOPBACK (tests): 127.0.0.0/8 and ::1 accepted, no other non-public range. */
  readonly allowLoopback: boolean;
  /** CATRISK_OUTBOUND_EXTRA_CA_FILE (tests): a PEM certificate trusted besides the system's, e.g. a local platform's self-signed one. */
  readonly extraCa: string | undefined;
}

export interface ExposureCodingConfig {
  /** CATRISK_EXPOSURE_CODING; off by default. */
  readonly enabled: boolean;
  /** embedded (no network) or chat-completions (an OpenAI-compatible API). */
  readonly provider: 'embedded' | 'chat-completions';
  /** Rows an account may send per UTC day, both routes together. */
  readonly dailyRows: number;
  /** A code's confidence must reach this for code to be set; below it code is null and proposed carries it. */
  readonly gate: number;
  /** A row is flagged at this probability or above, not flagged at 1 - gate or below, below_gate between. */
  readonly multiBuildingGate: number;
  readonly chat: {
    readonly baseUrl: string | undefined;
    readonly model: string | undefined;
    /** Never logged. */
    readonly apiKey: string | undefined;
    readonly timeoutMs: number;
  };
}

export type GeocoderKind = 'nominatim' | 'photon' | 'gazetteer';

export interface GeocoderConfig {
  readonly kind: GeocoderKind;
  /** Nominatim and Photon: the service's base URL. */
  readonly baseUrl: string | undefined;
  readonly timeoutMs: number;
}

export interface GeocodingConfig {
  /** CATRISK_GEOCODING; off by default. */
  readonly enabled: boolean;
  /** Asked in this order (CATRISK_GEOCODERS). */
  readonly geocoders: readonly GeocoderConfig[];
  /** Sent to the HTTP geocoders; their usage policies ask it to name the application and a contact. */
  readonly userAgent: string;
  /** Least time between two requests to one HTTP geocoder (their policies: one a second). */
  readonly minIntervalMs: number;
}

/**
 * The product names default HTTP libraries and command-line tools send when the caller names
 * nothing: Node's built-in fetch sends the bare token `node`, Python's aiohttp sends
 * `Python/3.x aiohttp/3.x`, Dart's `Dart/3.x (dart:io)`, and so on.
 */
export const DEFAULT_REFUSED_AGENTS = [
  'curl', 'wget', 'httpie', 'python-requests', 'python-urllib', 'python', 'aiohttp', 'python-httpx', 'httpx',
  'urllib3', 'go-http-client', 'node', 'node-fetch', 'undici', 'axios', 'got', 'deno', 'bun', 'okhttp',
  'java', 'java-http-client', 'apache-httpclient', 'libwww-perl', 'ruby', 'faraday', 'rest-client',
  'php', 'guzzlehttp', 'dart', 'reqwest', 'hyper', 'powershell', 'winhttp',
] as const;

/** A configured agent entry in the older prefix form ("curl/") names the product "curl". */
function productName(entry: string): string {
  return entry.trim().toLowerCase().replace(/\/+$/, '');
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be an integer of at least ${min}, got "${raw}"`);
  }
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

/** How a start-up refusal names the feeds setting. */
export const FEEDS_SETTING = "set by CATRISK_FEEDS_DIR, default the repository's feeds/";

/** The repository's own feeds/ (beside src/ and dist/), so a clone serves its pinned data with no setting. */
export const BUNDLED_FEEDS_DIR = fileURLToPath(new URL('../feeds', import.meta.url));

function feedsDirOf(env: Env): string {
  return env.CATRISK_FEEDS_DIR ? resolve(env.CATRISK_FEEDS_DIR) : BUNDLED_FEEDS_DIR;
}

export function loadConfig(env: Env = process.env): Config {
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must be a postgres:// URL');
  }
  const refused = env.CATRISK_REFUSED_AGENTS;
  return {
    host: env.CATRISK_HOST || '127.0.0.1',
    ports: {
      api: integer(env, 'CATRISK_API_PORT', 8080),
      docs: integer(env, 'CATRISK_DOCS_PORT', 8081),
      mcp: integer(env, 'CATRISK_MCP_PORT', 8082),
      data: integer(env, 'CATRISK_DATA_PORT', 8083),
      lab: integer(env, 'CATRISK_LAB_PORT', 8084),
    },
    stateDir: resolve(env.CATRISK_STATE_DIR || './var'),
    databaseUrl,
    feedsDir: feedsDirOf(env),
    feedRecordDir: env.CATRISK_FEED_RECORD_DIR === 'off' ? null : resolve(env.CATRISK_FEED_RECORD_DIR || env.CATRISK_STATE_DIR || './var'),
    refusedAgents: refused !== undefined
      ? refused.split(',').map(productName).filter(Boolean)
      : DEFAULT_REFUSED_AGENTS,
    rateLimit: {
      key: {
        limit: integer(env, 'CATRISK_RATE_LIMIT', 600, 1),
        windowSeconds: integer(env, 'CATRISK_RATE_WINDOW_SECONDS', 60, 1),
      },
      address: {
        limit: integer(env, 'CATRISK_ADDRESS_RATE_LIMIT', 300, 1),
        windowSeconds: integer(env, 'CATRISK_RATE_WINDOW_SECONDS', 60, 1),
      },
      invalidKey: {
        limit: integer(env, 'CATRISK_INVALID_KEY_LIMIT', 20, 1),
        windowSeconds: integer(env, 'CATRISK_RATE_WINDOW_SECONDS', 60, 1),
      },
    },
    timeouts: {
      // Slow-body (and slow-header) connections are answered 408 and closed after these.
      requestMs: integer(env, 'CATRISK_REQUEST_TIMEOUT_MS', 120_000, 100),
      headersMs: integer(env, 'CATRISK_HEADERS_TIMEOUT_MS', 10_000, 100),
      keepAliveMs: integer(env, 'CATRISK_KEEP_ALIVE_TIMEOUT_MS', 5_000, 100),
    },
    sandboxUnits: integer(env, 'CATRISK_SANDBOX_UNITS', 1000),
    idempotencyTtlSeconds: integer(env, 'CATRISK_IDEMPOTENCY_TTL_SECONDS', 86_400, 1),
    jobs: {
      inProcessWorkers: flag(env, 'CATRISK_IN_PROCESS_WORKERS', true),
      concurrency: integer(env, 'CATRISK_WORKER_CONCURRENCY', 2, 1),
      leaseMs: integer(env, 'CATRISK_JOB_LEASE_MS', 30_000, 100),
      pollMs: integer(env, 'CATRISK_JOB_POLL_MS', 250, 5),
      maxAttempts: integer(env, 'CATRISK_JOB_MAX_ATTEMPTS', 3, 1),
    },
    database: {
      connectTimeoutMs: integer(env, 'CATRISK_DB_CONNECT_TIMEOUT_MS', 5_000, 100),
      statementTimeoutMs: integer(env, 'CATRISK_DB_STATEMENT_TIMEOUT_MS', 15_000, 100),
      idleTimeoutMs: integer(env, 'CATRISK_DB_IDLE_TIMEOUT_MS', 30_000, 100),
      keepAliveMs: integer(env, 'CATRISK_DB_KEEPALIVE_MS', 10_000, 1_000),
    },
    shutdownTimeoutMs: integer(env, 'CATRISK_SHUTDOWN_TIMEOUT_MS', 10_000, 100),
    build: {
      version: env.CATRISK_VERSION || readPackageVersion(),
      commit: env.CATRISK_COMMIT || 'unknown',
    },
    logLevel: env.CATRISK_LOG_LEVEL || 'info',
    metrics: {
      port: metricsPort(env),
      host: env.CATRISK_METRICS_HOST || '127.0.0.1',
    },
    mcp: {
      allowedOrigins: (env.CATRISK_MCP_ALLOWED_ORIGINS ?? '').split(',').map((o) => o.trim().toLowerCase().replace(/\/+$/, '')).filter(Boolean),
    },
    exposureCoding: exposureCodingConfig(env),
    geocoding: geocodingConfig(env),
    monitoring: {
      rescanSeconds: integer(env, 'CATRISK_FEEDS_RESCAN_SECONDS', 60, 0),
      retrySeconds: secondsList(env, 'CATRISK_WEBHOOK_RETRY_SECONDS', WEBHOOK_RETRY_SECONDS),
      deliveryTimeoutMs: integer(env, 'CATRISK_WEBHOOK_TIMEOUT_MS', 10_000, 100),
    },
    outbound: {
      allowHttp: flag(env, 'CATRISK_OUTBOUND_ALLOW_HTTP', false),
      allowLoopback: flag(env, 'CATRISK_OUTBOUND_ALLOW_LOOPBACK', false),
      extraCa: env.CATRISK_OUTBOUND_EXTRA_CA_FILE ? readFileSync(resolve(env.CATRISK_OUTBOUND_EXTRA_CA_FILE), 'utf8') : undefined,
    },
    sealing: sealingConfig(env),
    exchange: {
      internalToken: env.CATRISK_INTERNAL_TOKEN || randomBytes(32).toString('base64url'),
      internalApiUrl: env.CATRISK_INTERNAL_API_URL || undefined,
      runTimeoutMs: integer(env, 'CATRISK_EXCHANGE_RUN_TIMEOUT_MS', 15 * 60_000, 1000),
    },
  };
}

/** The metrics listener's port: 9464 (where OpenTelemetry's Prometheus exporter listens by default) unless set; `off` or an empty value switches it off. */
function metricsPort(env: Env): number | undefined {
  const raw = env.CATRISK_METRICS_PORT;
  if (raw === undefined) return 9464;
  if (raw.trim() === '' || /^off$/i.test(raw.trim())) return undefined;
  return integer(env, 'CATRISK_METRICS_PORT', 9464);
}

function share(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1) throw new Error(`${name} must be a number from 0 to 1, got "${raw}"`);
  return value;
}

function httpUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name}: "${raw}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name}: "${raw}" is not an http(s) URL`);
  return raw;
}

function multiBuildingGate(env: Env): number {
  const gate = share(env, 'CATRISK_MULTI_BUILDING_GATE', 0.7);
  if (gate < 0.5) throw new Error('CATRISK_MULTI_BUILDING_GATE must be at least 0.5 (a row is flagged at the gate and not flagged at 1 - gate)');
  return gate;
}

function exposureCodingConfig(env: Env): ExposureCodingConfig {
  const provider = env.CATRISK_CODING_PROVIDER || 'embedded';
  if (provider !== 'embedded' && provider !== 'chat-completions') {
    throw new Error(`CATRISK_CODING_PROVIDER must be embedded or chat-completions, got "${provider}"`);
  }
  const enabled = flag(env, 'CATRISK_EXPOSURE_CODING', false);
  const baseUrl = env.CATRISK_CODING_BASE_URL ? httpUrl('CATRISK_CODING_BASE_URL', env.CATRISK_CODING_BASE_URL) : undefined;
  const model = env.CATRISK_CODING_MODEL || undefined;
  if (enabled && provider === 'chat-completions' && (!baseUrl || !model)) {
    throw new Error('CATRISK_CODING_PROVIDER=chat-completions needs CATRISK_CODING_BASE_URL and CATRISK_CODING_MODEL');
  }
  return {
    enabled,
    provider,
    dailyRows: integer(env, 'CATRISK_CODING_DAILY_ROWS', 2000),
    gate: share(env, 'CATRISK_CODING_GATE', 0.7),
    multiBuildingGate: multiBuildingGate(env),
    chat: { baseUrl, model, apiKey: env.CATRISK_CODING_API_KEY || undefined, timeoutMs: integer(env, 'CATRISK_CODING_TIMEOUT_MS', 30_000, 100) },
  };
}

/**
 * CATRISK_GEOCODERS: geocoders in the order asked, separated by commas, each "kind [base URL]
 * [timeout ms]": "nominatim https://nominatim.openstreetmap.org 4000, gazetteer". The gazetteer
 * takes no URL. Default: the offline gazetteer alone.
 */
function geocodingConfig(env: Env): GeocodingConfig {
  const defaultTimeout = integer(env, 'CATRISK_GEOCODER_TIMEOUT_MS', 5_000, 100);
  const geocoders = (env.CATRISK_GEOCODERS || 'gazetteer').split(',').map((s) => s.trim()).filter(Boolean).map((entry): GeocoderConfig => {
    const [kind, ...rest] = entry.split(/\s+/);
    if (kind !== 'nominatim' && kind !== 'photon' && kind !== 'gazetteer') {
      throw new Error(`CATRISK_GEOCODERS: "${kind}" is not nominatim, photon or gazetteer`);
    }
    const url = rest.find((r) => !/^\d+$/.test(r));
    const ms = rest.find((r) => /^\d+$/.test(r));
    if (kind !== 'gazetteer' && !url) throw new Error(`CATRISK_GEOCODERS: ${kind} needs its base URL ("${kind} https://...")`);
    if (kind === 'gazetteer' && url) throw new Error('CATRISK_GEOCODERS: the gazetteer is offline and takes no URL');
    const timeoutMs = ms === undefined ? defaultTimeout : Number(ms);
    if (timeoutMs < 100) throw new Error(`CATRISK_GEOCODERS: ${kind}'s timeout must be at least 100 ms`);
    return { kind, baseUrl: url ? httpUrl('CATRISK_GEOCODERS', url) : undefined, timeoutMs };
  });
  return {
    enabled: flag(env, 'CATRISK_GEOCODING', false),
    geocoders,
    userAgent: env.CATRISK_GEOCODER_USER_AGENT || `catrisk/${env.CATRISK_VERSION || readPackageVersion()}`,
    minIntervalMs: integer(env, 'CATRISK_GEOCODER_INTERVAL_MS', 1_000),
  };
}

function readPackageVersion(): string {
  // src/config.ts and dist/config.js both sit one level below package.json.
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
