// One migration set for SQLite and PostgreSQL, applied at start. Portable types only.
import { Kysely, Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import type { Dialect } from './database.js';
import { ChunkCutter, writeObjectChunks } from './object-chunks.js';
import { backtestSummary, perilCode } from '../domain/list-summaries.js';
import { ObjectSummaryScanner } from '../domain/risk-object/summary-scan.js';
import { ObjectScanner } from '../domain/risk-object/object-scan.js';
import { DigestScanner } from '../domain/accumulation/digest.js';
import { seal, type SealKey } from '../domain/sealing.js';

export interface MigrateOptions {
  /**
   * The environment's sealing keys (the first seals): 0019 seals with it the webhook signing
   * secrets stored before as issued. Needed only when there are some.
   */
  readonly sealingKeys?: readonly SealKey[];
}

/** What a migration is handed besides the database: the dialect its DDL is written for, and the start's options. */
export interface MigrationContext {
  readonly dialect: Dialect;
  readonly options: MigrateOptions;
}

/**
 * One migration: its version, the name Kysely records in its migration table when it is applied
 * (so a released name never changes: a renamed migration would run again), and its change.
 */
export interface MigrationRecord {
  readonly version: number;
  readonly name: string;
  up(db: Kysely<any>, context: MigrationContext): Promise<void>;
}

/**
 * Versions no migration carries: no migration numbered 0011 or 0016 was ever written (the history
 * of this module holds none). Numbers 0011 to 0018 were handed out ahead of time to features built
 * side by side (0013 and 0014 were written on branches that held only 0001 to 0010), and the
 * features holding 0011 and 0016 released no migration. A gap is never filled afterwards: Kysely
 * applies migrations in name order and refuses one that sorts before the last applied, so a new
 * migration takes the number after the last.
 */
export const SKIPPED_VERSIONS: readonly number[] = [11, 16];

/** Every migration, in order. */
export const MIGRATIONS: readonly MigrationRecord[] = [
  {
    version: 1, name: '0001_foundation',
    async up(db: Kysely<any>) {
      await db.schema.createTable('accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('plan', 'text', (c) => c.notNull())
        .addColumn('label', 'text')
        .addColumn('email', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('cancelled_at', 'text')
        .execute();
      await db.schema.createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('secret_digest', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createTable('jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('verb', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('input', 'text', (c) => c.notNull())
        .addColumn('result', 'text')
        .addColumn('error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_expires_at', 'bigint')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('jobs_claimable').on('jobs').columns(['status', 'created_at']).execute();
      await db.schema.createTable('usage')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('unit', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'text', (c) => c.notNull())
        .addColumn('recorded_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('usage_account').on('usage').column('account_id').execute();
      await db.schema.createTable('rate_counters')
        .addColumn('bucket', 'text', (c) => c.notNull())
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('rate_counters_pk', ['bucket', 'window_start'])
        .execute();
    },
  },
  {
    version: 2, name: '0002_uploads_and_objects',
    async up(db: Kysely<any>, { dialect }: MigrationContext) {
      // Uploaded bytes live in the database so a worker on another machine can read them.
      await db.schema.createTable('uploads')
        .addColumn('sha256', 'text', (c) => c.primaryKey())
        .addColumn('bytes', dialect === 'postgres' ? sql`bytea` : sql`blob`, (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createTable('objects')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('document', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('objects_account').on('objects').column('account_id').execute();
    },
  },
  {
    version: 3, name: '0003_structures_and_backtests',
    async up(db: Kysely<any>) {
      await db.schema.createTable('structures')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('object_id', 'text', (c) => c.notNull())
        .addColumn('document', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('structures_account').on('structures').column('account_id').execute();
      // A backtest's id is the content address of its inputs, so two accounts running the same
      // backtest share an id; each keeps its own copy of the (identical) bytes.
      await db.schema.createTable('backtests')
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('document', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('backtests_pk', ['id', 'account_id'])
        .execute();
    },
  },
  {
    version: 4, name: '0004_lab_runs',
    async up(db: Kysely<any>) {
      // A finished run, stored once under its content address and read back by every submission
      // of an equivalent spec.
      await db.schema.createTable('lab_runs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('document', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      // Who submitted a run, and the job that computed it for them (null when it was already stored).
      await db.schema.createTable('lab_run_owners')
        .addColumn('run_id', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('job_id', 'text')
        .addColumn('spec', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('lab_run_owners_pk', ['run_id', 'account_id'])
        .execute();
    },
  },
  {
    version: 5, name: '0005_object_versions_chunks_and_usage_keys',
    async up(db: Kysely<any>, { dialect }: MigrationContext) {
      // Every write of an object is a compare-and-set on its version (lost updates were possible).
      await db.schema.alterTable('objects').addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
      await db.schema.alterTable('objects').addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      // The canonical bytes in chunks, kept per version, so a large object is served a chunk at a
      // time and a read streaming one version is not torn by a write of the next.
      await db.schema.createTable('object_chunks')
        .addColumn('object_id', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('bytes', dialect === 'postgres' ? sql`bytea` : sql`blob`, (c) => c.notNull())
        .addPrimaryKeyConstraint('object_chunks_pk', ['object_id', 'version', 'seq'])
        .execute();
      // Stored documents move into chunks one object at a time (a large one is never held twice over).
      for (let after = ''; ;) {
        const row = await db.selectFrom('objects').select(['id', 'document']).where('id', '>', after).orderBy('id').limit(1).executeTakeFirst();
        if (!row) break;
        const bytes = Buffer.from(row.document as string, 'utf8');
        await writeObjectChunks(db, row.id, 1, bytes);
        await db.updateTable('objects').set({ size: bytes.byteLength }).where('id', '=', row.id).execute();
        after = row.id;
      }
      await db.schema.alterTable('objects').dropColumn('document').execute();
      // A metered unit is recorded once per account, unit and subject (a re-run records nothing).
      await sql`delete from usage where exists (select 1 from usage earlier where earlier.account_id = usage.account_id
        and earlier.unit = usage.unit and earlier.subject_id = usage.subject_id
        and (earlier.recorded_at < usage.recorded_at or (earlier.recorded_at = usage.recorded_at and earlier.id < usage.id)))`.execute(db);
      await db.schema.createIndex('usage_once').on('usage').columns(['account_id', 'unit', 'subject_id']).unique().execute();
    },
  },
  {
    version: 6, name: '0006_api_keys_by_account',
    async up(db: Kysely<any>) {
      // GET /account reads an account's keys in creation order; without this every read scanned
      // every key of every account (2.7 ms at 10,000 accounts on SQLite, 19 us with it).
      await db.schema.createIndex('api_keys_account').on('api_keys').columns(['account_id', 'created_at', 'id']).execute();
    },
  },
  {
    version: 7, name: '0007_job_times',
    async up(db: Kysely<any>) {
      // When a job first started and when it ended; jobs from before stay null (never guessed).
      await db.schema.alterTable('jobs').addColumn('started_at', 'text').execute();
      await db.schema.alterTable('jobs').addColumn('finished_at', 'text').execute();
    },
  },
  {
    version: 8, name: '0008_list_summaries_and_indexes',
    async up(db: Kysely<any>) {
      // Lists show a few members of each document without reading it: kept in columns, written
      // with the document, and filled here for documents stored before (each read once, one at a time).
      for (const column of ['peril', 'source']) await db.schema.alterTable('objects').addColumn(column, 'text').execute();
      await db.schema.alterTable('objects').addColumn('locations', 'integer').execute();
      await db.schema.alterTable('structures').addColumn('peril', 'text').execute();
      for (const column of ['peril', 'feed_id', 'feed_version']) await db.schema.alterTable('backtests').addColumn(column, 'text').execute();
      for (const column of ['from_year', 'to_year']) await db.schema.alterTable('backtests').addColumn(column, 'integer').execute();
      await db.schema.alterTable('lab_run_owners').addColumn('model', 'text').execute();

      // An object's bytes are scanned a chunk at a time: a large one is never held or parsed whole.
      for (const { id, version } of await db.selectFrom('objects').select(['id', 'version']).execute()) {
        const scanner = new ObjectSummaryScanner();
        for (let seq = 0; ; seq += 1) {
          const chunk = await db.selectFrom('object_chunks').select('bytes')
            .where('object_id', '=', id).where('version', '=', version).where('seq', '=', seq).executeTakeFirst();
          if (!chunk) break;
          scanner.feed(chunk.bytes as Uint8Array);
        }
        await db.updateTable('objects').set(scanner.summary()).where('id', '=', id).execute();
      }
      for (const { id } of await db.selectFrom('structures').select('id').execute()) {
        const row = await db.selectFrom('structures').select('document').where('id', '=', id).executeTakeFirstOrThrow();
        await db.updateTable('structures').set({ peril: perilCode(JSON.parse(row.document)) }).where('id', '=', id).execute();
      }
      for (const { id, account_id } of await db.selectFrom('backtests').select(['id', 'account_id']).execute()) {
        const row = await db.selectFrom('backtests').select('document').where('id', '=', id).where('account_id', '=', account_id).executeTakeFirstOrThrow();
        await db.updateTable('backtests').set(backtestSummary(JSON.parse(row.document))).where('id', '=', id).where('account_id', '=', account_id).execute();
      }
      for (const row of await db.selectFrom('lab_run_owners').select(['run_id', 'account_id', 'spec']).execute()) {
        const model = (JSON.parse(row.spec) as { model?: unknown }).model;
        await db.updateTable('lab_run_owners').set({ model: typeof model === 'string' ? model : null })
          .where('run_id', '=', row.run_id).where('account_id', '=', row.account_id).execute();
      }

      // Every list reads one account's rows newest first, keyset-paged on (created_at, id).
      await db.schema.createIndex('objects_list').on('objects').columns(['account_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('jobs_list').on('jobs').columns(['account_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('structures_list').on('structures').columns(['account_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('backtests_list').on('backtests').columns(['account_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('lab_run_owners_list').on('lab_run_owners').columns(['account_id', 'created_at', 'run_id']).execute();
    },
  },
  {
    version: 9, name: '0009_job_progress_and_cancellation',
    async up(db: Kysely<any>) {
      // How far a running job has got (JSON: fraction and sentence), and a cancel asked for: the
      // error body the job ends with, stored on the row so a worker in any process sees it.
      await db.schema.alterTable('jobs').addColumn('progress', 'text').execute();
      await db.schema.alterTable('jobs').addColumn('cancellation', 'text').execute();
    },
  },
  {
    version: 10, name: '0010_idempotency_keys',
    async up(db: Kysely<any>, { dialect }: MigrationContext) {
      // An Idempotency-Key of an account: the request it was first sent with (a digest) and, once
      // answered, the answer replayed to every repeat until the key expires.
      await db.schema.createTable('idempotency_keys')
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('idempotency_key', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('response_status', 'integer')
        .addColumn('response_headers', 'text')
        .addColumn('response_body', dialect === 'postgres' ? sql`bytea` : sql`blob`)
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'idempotency_key'])
        .execute();
      // Expired keys are swept by their expiry.
      await db.schema.createIndex('idempotency_keys_expiry').on('idempotency_keys').column('expires_at').execute();
    },
  },
  {
    version: 12, name: '0012_packages',
    async up(db: Kysely<any>) {
      // A submission pack, stored once per account under the content address of what it was
      // built from (object version, price run, backtest, documents), as the canonical JSON served.
      await db.schema.createTable('packages')
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('object_id', 'text', (c) => c.notNull())
        .addColumn('document', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('packages_pk', ['id', 'account_id'])
        .execute();
    },
  },
  {
    version: 13, name: '0013_models',
    async up(db: Kysely<any>) {
      // The registry's composed models: immutable documents addressed by their composition, each
      // belonging to the account that composed it; a name's versions are unique within the account.
      await db.schema.createTable('models')
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('document', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('models_pk', ['account_id', 'id'])
        .addUniqueConstraint('models_name_version', ['account_id', 'name', 'version'])
        .execute();
    },
  },
  {
    version: 14, name: '0014_coding_budget',
    async up(db: Kysely<any>) {
      // The daily row budget of exposure coding: rows each account has sent on each UTC day.
      await db.schema.createTable('coding_budget')
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('rows', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('coding_budget_pk', ['account_id', 'day'])
        .execute();
    },
  },
  {
    version: 15, name: '0015_monitoring',
    async up(db: Kysely<any>) {
      // A structure recorded as in force (an assertion about a transaction executed elsewhere), with
      // the last measurement stored so a newly pinned snapshot can be compared with it.
      await db.schema.createTable('monitoring_records')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('structure_id', 'text', (c) => c.notNull())
        .addColumn('feed_id', 'text', (c) => c.notNull())
        .addColumn('label', 'text')
        .addColumn('in_force_from', 'text', (c) => c.notNull())
        .addColumn('in_force_to', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('ended_at', 'text')
        // JSON text: what the last comparison read (feed version, status, index value, level).
        .addColumn('last_measurement', 'text')
        .execute();
      await db.schema.createIndex('monitoring_records_list').on('monitoring_records').columns(['account_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('monitoring_records_feed').on('monitoring_records').columns(['feed_id']).execute();
      // A receiver of a record's deliveries; the secret is kept as issued (it must sign every delivery).
      await db.schema.createTable('monitoring_webhooks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('record_id', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('monitoring_webhooks_record').on('monitoring_webhooks').columns(['record_id', 'created_at', 'id']).execute();
      // One message to one webhook (its webhook-id and exact body, sent again as they are on every retry).
      await db.schema.createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('webhook_id', 'text', (c) => c.notNull())
        .addColumn('record_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('next_attempt_at', 'text')
        .execute();
      await db.schema.createIndex('webhook_deliveries_webhook').on('webhook_deliveries').columns(['webhook_id', 'created_at', 'id']).execute();
      await db.schema.createTable('webhook_attempts')
        .addColumn('delivery_id', 'text', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('http_status', 'integer')
        .addColumn('error', 'text')
        .addPrimaryKeyConstraint('webhook_attempts_pk', ['delivery_id', 'attempt'])
        .execute();
      // A job may wait until a time before it is claimed (a webhook delivery's retry backoff).
      await db.schema.alterTable('jobs').addColumn('not_before', 'bigint').execute();
    },
  },
  {
    version: 17, name: '0017_exchange',
    async up(db: Kysely<any>) {
      // Model-exchange listings: what the provider wrote (credentials apart) as canonical JSON, the
      // state, and the connector's credentials sealed (AES-256-GCM) with the id of the key that sealed them.
      await db.schema.createTable('exchange_models')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('terms', 'text', (c) => c.notNull())
        .addColumn('credentials_sealed', 'text')
        .addColumn('credentials_key_id', 'text')
        .addColumn('review_note', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      // GET /exchange/models reads listed ones in name order.
      await db.schema.createIndex('exchange_models_listed').on('exchange_models').columns(['state', 'name', 'id']).execute();
      // Who a provider has granted a listing to: only who and when, not why.
      await db.schema.createTable('exchange_grants')
        .addColumn('model_id', 'text', (c) => c.notNull().references('exchange_models.id'))
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('granted_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('exchange_grants_pk', ['model_id', 'account_id'])
        .execute();
    },
  },
  {
    version: 18, name: '0018_object_digests',
    async up(db: Kysely<any>, { dialect }: MigrationContext) {
      // Each object version's location digest for accumulation (coordinates, exact values, own
      // currencies in flat arrays; H3 cells once an accumulation has computed them), written with
      // the version so an accumulation never parses a location. Filled here for the current version
      // of every object stored before, its bytes scanned a chunk at a time (one object's digest held
      // at a time), without cells: start-up stays fast, the first accumulation adds them.
      await db.schema.createTable('object_digests')
        .addColumn('object_id', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('bytes', dialect === 'postgres' ? sql`bytea` : sql`blob`, (c) => c.notNull())
        .addPrimaryKeyConstraint('object_digests_pk', ['object_id', 'version'])
        .execute();
      for (const { id, version } of await db.selectFrom('objects').select(['id', 'version']).orderBy('id').execute()) {
        const scanner = new DigestScanner();
        for (let seq = 0; ; seq += 1) {
          const chunk = await db.selectFrom('object_chunks').select('bytes')
            .where('object_id', '=', id).where('version', '=', version).where('seq', '=', seq).executeTakeFirst();
          if (!chunk) break;
          scanner.feed(chunk.bytes as Uint8Array);
        }
        let bytes: Uint8Array;
        try {
          bytes = scanner.finish();
        } catch {
          // Bytes that do not read as a document: left without a digest (an accumulation of it
          // reads its bytes, and fails, as it did before), never a service that cannot start.
          continue;
        }
        await db.insertInto('object_digests').values({ object_id: id, version, bytes }).execute();
      }
    },
  },
  {
    version: 19, name: '0019_webhook_secrets_sealed',
    async up(db: Kysely<any>, { options }: MigrationContext) {
      // Webhook signing secrets were kept as issued; they are sealed as exchange credentials are
      // (domain/sealing.ts: AES-256-GCM, the webhook's id as additional data, the key's id beside).
      // The secrets stored before are sealed here under the environment's sealing key, so no
      // plaintext is left behind. Without a key and with secrets to seal, nothing is changed and
      // the process stops, saying what to set (SQLite's DDL is not undone by the migrator).
      const count = Number((await db.selectFrom('monitoring_webhooks').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      const keys = options.sealingKeys ?? [];
      if (count > 0 && keys.length === 0) {
        throw new Error(`${count} webhook signing secret(s) are stored as issued, and migration 0019 seals them at rest: `
          + 'set CATRISK_SEALING_KEY=<key id>:<base64 of 32 bytes> (or CATRISK_EXCHANGE_KEY) and start again. Nothing was changed.');
      }
      await db.schema.alterTable('monitoring_webhooks').addColumn('secret_sealed', 'text').execute();
      await db.schema.alterTable('monitoring_webhooks').addColumn('secret_key_id', 'text').execute();
      for (const { id, secret } of await db.selectFrom('monitoring_webhooks').select(['id', 'secret']).orderBy('id').execute()) {
        const sealed = seal(secret as string, id as string, keys)!;
        await db.updateTable('monitoring_webhooks').set({ secret_sealed: sealed.sealed, secret_key_id: sealed.keyId }).where('id', '=', id).execute();
      }
      await db.schema.alterTable('monitoring_webhooks').dropColumn('secret').execute();
    },
  },
  {
    version: 20, name: '0020_job_origin',
    async up(db: Kysely<any>) {
      // Where a job came from: the request id its logs name, and the trace its outbound calls pass on.
      await db.schema.alterTable('jobs').addColumn('request_id', 'text').execute();
      await db.schema.alterTable('jobs').addColumn('traceparent', 'text').execute();
      await db.schema.alterTable('jobs').addColumn('tracestate', 'text').execute();
    },
  },
  {
    version: 21, name: '0021_lab_inputs',
    async up(db: Kysely<any>, { dialect }: MigrationContext) {
      // Inputs users bring to the lab: content-addressed (the same kind and bytes are one input),
      // owned per account as lab runs are; each file's bytes stored once by its digest.
      await db.schema.createTable('lab_input_files')
        .addColumn('sha256', 'text', (c) => c.primaryKey())
        .addColumn('bytes', dialect === 'postgres' ? sql`bytea` : sql`blob`, (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createTable('lab_inputs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('files', 'text', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createTable('lab_input_owners')
        .addColumn('input_id', 'text', (c) => c.notNull().references('lab_inputs.id'))
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('lab_input_owners_pk', ['input_id', 'account_id'])
        .execute();
      await db.schema.createIndex('lab_input_owners_list').on('lab_input_owners').columns(['account_id', 'created_at', 'input_id']).execute();
    },
  },
  {
    version: 22, name: '0022_object_locations_apart',
    async up(db: Kysely<any>, { dialect }: MigrationContext) {
      // An object's terms and its locations stored apart: a skeleton per version (the document with
      // exposure.locations written []), and the locations array once per object (exposure is
      // read-only, so every version holds the same), so a write of terms never reads or rewrites
      // the locations. Each object's current version is cut here from its chunks, scanned a chunk
      // at a time (the locations' chunks written as they are found, never held whole); the version
      // before it was kept only for reads streaming at a write, and none is under way at start.
      const blob = dialect === 'postgres' ? sql`bytea` : sql`blob`;
      await db.schema.createTable('object_skeletons')
        .addColumn('object_id', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('bytes', blob, (c) => c.notNull())
        .addColumn('slot', 'bigint', (c) => c.notNull())
        .addColumn('digest_version', 'integer')
        .addPrimaryKeyConstraint('object_skeletons_pk', ['object_id', 'version'])
        .execute();
      await db.schema.createTable('object_locations')
        .addColumn('object_id', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('bytes', blob, (c) => c.notNull())
        .addPrimaryKeyConstraint('object_locations_pk', ['object_id', 'seq'])
        .execute();
      for (const { id, version } of await db.selectFrom('objects').select(['id', 'version']).orderBy('id').execute()) {
        const cutter = new ChunkCutter();
        const pending: Uint8Array[] = [];
        // The locations' stored bytes are the array with its brackets; the scanner hands what lies between.
        let opened = false;
        const open = () => {
          if (!opened) pending.push(...cutter.push(Buffer.from('[')));
          opened = true;
        };
        const scanner = new ObjectScanner(undefined, (bytes) => {
          open();
          pending.push(...cutter.push(bytes));
        });
        let seq = 0;
        const flush = async () => {
          for (const piece of pending.splice(0)) {
            await db.insertInto('object_locations').values({ object_id: id, seq, bytes: piece }).execute();
            seq += 1;
          }
        };
        let found = false;
        for (let s = 0; ; s += 1) {
          const chunk = await db.selectFrom('object_chunks').select('bytes')
            .where('object_id', '=', id).where('version', '=', version).where('seq', '=', s).executeTakeFirst();
          if (!chunk) break;
          found = true;
          const bytes = chunk.bytes as Uint8Array;
          scanner.feed(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
          await flush();
        }
        if (!found) continue;
        const skeleton = scanner.skeletonBytes();
        if (skeleton.slot >= 0) {
          open();
          pending.push(...cutter.push(Buffer.from(']')), ...cutter.end());
          await flush();
        }
        const digest = await db.selectFrom('object_digests').select('version').where('object_id', '=', id).where('version', '=', version).executeTakeFirst();
        await db.insertInto('object_skeletons').values({ object_id: id, version, bytes: skeleton.bytes, slot: skeleton.slot, digest_version: digest ? version : null }).execute();
      }
      await db.deleteFrom('object_digests').where((eb) => eb.not(eb.exists(eb.selectFrom('object_skeletons').select('object_skeletons.version')
        .whereRef('object_skeletons.object_id', '=', 'object_digests.object_id').whereRef('object_skeletons.digest_version', '=', 'object_digests.version')))).execute();
      await db.schema.dropTable('object_chunks').execute();
    },
  },
];

/** The migrations as Kysely's provider hands them over, by name, each given the context. */
function migrationsFor(dialect: Dialect, options: MigrateOptions): Record<string, Migration> {
  const context: MigrationContext = { dialect, options };
  return Object.fromEntries(MIGRATIONS.map((m): [string, Migration] => [m.name, { up: (db) => m.up(db, context) }]));
}

/** Applies every migration, or those up to `target` (tests build an older database that way). */
export async function migrate(db: Kysely<any>, dialect: Dialect, target?: string, options: MigrateOptions = {}): Promise<string[]> {
  const migrations = migrationsFor(dialect, options);
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const migrator = new Migrator({ db, provider });
  const { error, results } = target === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(target);
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).map((r) => r.migrationName);
}

/** The migrations this code holds that the database has not applied, in order; none when it is current. */
export async function pendingMigrations(db: Kysely<any>, dialect: Dialect): Promise<string[]> {
  const applied = new Set((await db.selectFrom('kysely_migration').select('name').execute()).map((r: { name: string }) => r.name));
  return Object.keys(migrationsFor(dialect, {})).filter((name) => !applied.has(name)).sort();
}
