// Row types of every table, as Kysely sees them. Times are ISO 8601 strings except leases and
// rate windows, which are epoch milliseconds because they are compared arithmetically.
export interface AccountsTable {
  id: string;
  created_at: string;
  plan: string;
  label: string | null;
  email: string | null;
  status: 'active' | 'cancelled';
  cancelled_at: string | null;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  secret_digest: string;
  created_at: string;
}

export interface JobsTable {
  id: string;
  account_id: string;
  verb: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  /** JSON text: what the job is about (shown on the job). */
  subject: string;
  /** JSON text: the handler's input (never shown). */
  input: string;
  result: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  lease_owner: string | null;
  lease_expires_at: number | null;
  /** Runs started, less those given back unfinished at a clean shutdown or a database outage. */
  attempts: number;
  /** When a worker first started the job (kept across retries); null while queued. */
  started_at: string | null;
  /** When the job succeeded or failed; null until then. */
  finished_at: string | null;
  /** JSON text: how far the running job has got ({fraction, sentence}); null until known. */
  progress: string | null;
  /** JSON text: the error body a cancel asked for (code cancelled); null unless cancelled. */
  cancellation: string | null;
  /** Epoch milliseconds before which the job is not claimed (a delivery's retry backoff); null: at once. */
  not_before: number | null;
  /** The X-Request-Id of the request that queued the job (or of the job that queued it); null when no request did. */
  request_id: string | null;
  /** The W3C traceparent of the work that queued the job, passed on by the job's outbound calls; null without one. */
  traceparent: string | null;
  /** The W3C tracestate beside that traceparent; null without one. */
  tracestate: string | null;
}

export interface UsageTable {
  id: string;
  account_id: string;
  unit: 'object' | 'model_run';
  subject_id: string;
  recorded_at: string;
}

export interface RateCountersTable {
  bucket: string;
  window_start: number;
  count: number;
}

export interface UploadsTable {
  sha256: string;
  bytes: Uint8Array;
  size: number;
  created_at: string;
}

export interface ObjectsTable {
  id: string;
  account_id: string;
  status: string;
  /** Bumped by every write; the compare-and-set token and the ETag. */
  version: number;
  /** Length in bytes of the current version's canonical JSON (its skeleton with its locations put in). */
  size: number;
  created_at: string;
  updated_at: string;
  /** What a list shows without reading the document: peril.code, the location count, the first source file's name. */
  peril: string | null;
  locations: number | null;
  source: string | null;
}

/**
 * One version of an object without its locations: canonical JSON of the document with
 * exposure.locations written [] (migration 0022).
 */
export interface ObjectSkeletonsTable {
  object_id: string;
  version: number;
  bytes: Uint8Array;
  /** Where the locations' [] stands in bytes (its '['); -1 when the document has no locations array. */
  slot: number;
  /** The version whose object_digests row is this version's (a write that moves no header member shares it); null: none made yet. */
  digest_version: number | null;
}

/** An object's locations array, canonical JSON with its brackets, in chunks: stored once, as exposure never changes. */
export interface ObjectLocationsTable {
  object_id: string;
  seq: number;
  bytes: Uint8Array;
}

/** An object version's location digest for accumulation (domain/accumulation/digest.ts), written with the version. */
export interface ObjectDigestsTable {
  object_id: string;
  version: number;
  bytes: Uint8Array;
}

export interface StructuresTable {
  id: string;
  account_id: string;
  object_id: string;
  document: string;
  created_at: string;
  /** peril.code, for lists. */
  peril: string | null;
}

export interface BacktestsTable {
  id: string;
  account_id: string;
  /** Canonical JSON of the artifact, served byte for byte. */
  document: string;
  created_at: string;
  /** What a list shows without reading the artifact. */
  peril: string | null;
  feed_id: string | null;
  feed_version: string | null;
  from_year: number | null;
  to_year: number | null;
}

export interface LabRunsTable {
  id: string;
  model: string;
  /** Canonical JSON of the finished run's result, served byte for byte. */
  document: string;
  created_at: string;
}

export interface LabRunOwnersTable {
  run_id: string;
  account_id: string;
  job_id: string | null;
  /** Canonical JSON of the spec after defaults were filled in. */
  spec: string;
  created_at: string;
  /** The spec's model, for lists. */
  model: string | null;
}

export interface LabInputFilesTable {
  sha256: string;
  bytes: Uint8Array;
  size: number;
}

export interface LabInputsTable {
  /** inp_ and 32 hex digits: the content address of the kind and the files' digests. */
  id: string;
  kind: string;
  /** The file's digest; for an input of several files, the digest of their digests by part (canonical JSON). */
  sha256: string;
  /** Bytes of every file together. */
  size: number;
  /** JSON: [{part, sha256, bytes}] in the kind's part order. */
  files: string;
  /** JSON: what the kind's reader summarised. */
  summary: string;
  created_at: string;
}

export interface LabInputOwnersTable {
  input_id: string;
  account_id: string;
  created_at: string;
}

export interface IdempotencyKeysTable {
  account_id: string;
  idempotency_key: string;
  /** Digest of the request first sent with the key: method, path and body. */
  fingerprint: string;
  /** The answer, once given; null while the first request is still being answered. */
  response_status: number | null;
  /** JSON text: the answer's headers that are replayed (Location, ETag, Retry-After, Content-Type). */
  response_headers: string | null;
  response_body: Uint8Array | null;
  created_at: string;
  /** Epoch milliseconds: the key may be reused (and is purged) from then on. */
  expires_at: number;
}

/** A composed model of the registry: immutable, one row per account and content address. */
export interface ModelsTable {
  id: string;
  account_id: string;
  name: string;
  version: string;
  /** Canonical JSON of the model document (composition, validation report, card). */
  document: string;
  created_at: string;
}

export interface PackagesTable {
  id: string;
  account_id: string;
  object_id: string;
  /** Canonical JSON of the pack, served byte for byte. */
  document: string;
  created_at: string;
}

/** Rows of exposure coding an account has sent on one UTC day (the daily row budget). */
export interface CodingBudgetTable {
  account_id: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  rows: number;
}

/** A structure recorded as in force. */
export interface MonitoringRecordsTable {
  id: string;
  account_id: string;
  structure_id: string;
  /** The feed the structure's trigger reads (its newest pinned version is measured). */
  feed_id: string;
  label: string | null;
  /** YYYY-MM-DD, both included. */
  in_force_from: string;
  in_force_to: string;
  created_at: string;
  /** Set by DELETE /monitoring/{id}: the record is ended and nothing more is delivered. */
  ended_at: string | null;
  /** JSON text: the last measurement compared (see domain/monitoring/measure.ts MeasurementMark). */
  last_measurement: string | null;
}

export interface MonitoringWebhooksTable {
  id: string;
  record_id: string;
  account_id: string;
  url: string;
  description: string | null;
  /**
   * The signing secret (whsec_ + base64 of the key bytes, shown once at registration) sealed:
   * base64 of nonce, tag and ciphertext (AES-256-GCM, domain/sealing.ts), the webhook's id as
   * additional data. Migration 0019 sealed the secrets stored before as issued.
   */
  secret_sealed: string;
  /** The id of the sealing key that sealed it. */
  secret_key_id: string;
  created_at: string;
}

export interface WebhookDeliveriesTable {
  /** The webhook-id header: the same on every attempt. */
  id: string;
  webhook_id: string;
  record_id: string;
  event_type: string;
  /** The exact JSON body sent on every attempt. */
  body: string;
  status: 'pending' | 'delivered' | 'failed';
  created_at: string;
  /** When the next attempt is due; null once delivered or given up. */
  next_attempt_at: string | null;
}

export interface WebhookAttemptsTable {
  delivery_id: string;
  attempt: number;
  at: string;
  duration_ms: number;
  /** The receiver's status, or null when no answer came (error says why). */
  http_status: number | null;
  error: string | null;
}

/** A model-exchange listing (terms as written, credentials sealed beside them). */
export interface ExchangeModelsTable {
  id: string;
  /** The provider's account. */
  account_id: string;
  name: string;
  /** draft, in_review, listed, rejected or withdrawn (domain/exchange/listing.ts). */
  state: string;
  /** Canonical JSON of the listing's terms, never the credentials. */
  terms: string;
  /** base64 of nonce, tag and ciphertext (AES-256-GCM); null when none are stored. */
  credentials_sealed: string | null;
  /** The id of the sealing key that sealed them. */
  credentials_key_id: string | null;
  /** The reason of the last rejection. */
  review_note: string | null;
  created_at: string;
  updated_at: string;
}

export interface ExchangeGrantsTable {
  model_id: string;
  account_id: string;
  granted_at: string;
}

export interface Tables {
  monitoring_records: MonitoringRecordsTable;
  monitoring_webhooks: MonitoringWebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  exchange_models: ExchangeModelsTable;
  exchange_grants: ExchangeGrantsTable;
  models: ModelsTable;
  packages: PackagesTable;
  coding_budget: CodingBudgetTable;
  idempotency_keys: IdempotencyKeysTable;
  lab_runs: LabRunsTable;
  lab_run_owners: LabRunOwnersTable;
  lab_inputs: LabInputsTable;
  lab_input_owners: LabInputOwnersTable;
  lab_input_files: LabInputFilesTable;
  structures: StructuresTable;
  backtests: BacktestsTable;
  uploads: UploadsTable;
  objects: ObjectsTable;
  object_skeletons: ObjectSkeletonsTable;
  object_locations: ObjectLocationsTable;
  object_digests: ObjectDigestsTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  jobs: JobsTable;
  usage: UsageTable;
  rate_counters: RateCountersTable;
}
