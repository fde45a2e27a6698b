// Monitoring records, their webhooks (signing secrets sealed; this store never sees a plaintext),
// and each webhook's deliveries with every attempt.
import type { Kysely } from 'kysely';
import type { MonitoringRecordsTable, MonitoringWebhooksTable, Tables, WebhookAttemptsTable, WebhookDeliveriesTable } from './tables.js';
import type { ListPosition } from './list-position.js';
import { SealedColumn } from './sealed-values.js';

export type MonitoringRecordRow = MonitoringRecordsTable;
export type WebhookRow = MonitoringWebhooksTable;
export type DeliveryRow = WebhookDeliveriesTable;
export type AttemptRow = WebhookAttemptsTable;

export class MonitoringStore {
  /** Every webhook's sealed signing secret, for the sealing keys' check and `catrisk keys reseal`. */
  readonly sealedSecrets: SealedColumn;

  constructor(private readonly db: Kysely<Tables>) {
    this.sealedSecrets = new SealedColumn(db as unknown as Kysely<any>, 'monitoring_webhooks', 'secret_sealed', 'secret_key_id');
  }

  async insertRecord(row: MonitoringRecordRow): Promise<void> {
    await this.db.insertInto('monitoring_records').values(row).execute();
  }

  async record(id: string, accountId: string): Promise<MonitoringRecordRow | undefined> {
    return this.db.selectFrom('monitoring_records').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  }

  /** A page of an account's records, newest first, from after `position`. */
  async listRecords(accountId: string, after: ListPosition | undefined, limit: number): Promise<MonitoringRecordRow[]> {
    let query = this.db.selectFrom('monitoring_records').selectAll().where('account_id', '=', accountId);
    if (after) query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.created_at, after.id)));
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  /** Every record not ended that reads one of these feeds (of every account). */
  async recordsOnFeeds(feedIds: readonly string[]): Promise<MonitoringRecordRow[]> {
    if (feedIds.length === 0) return [];
    return this.db.selectFrom('monitoring_records').selectAll()
      .where('feed_id', 'in', [...feedIds]).where('ended_at', 'is', null).orderBy('created_at').orderBy('id').execute();
  }

  /** Ends a record; false when it was already ended. */
  async endRecord(id: string, accountId: string, at: string): Promise<boolean> {
    const r = await this.db.updateTable('monitoring_records').set({ ended_at: at })
      .where('id', '=', id).where('account_id', '=', accountId).where('ended_at', 'is', null).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /**
   * Replaces the stored measurement only if it is still `expected` (compare-and-set), so of several
   * processes noticing the same snapshot exactly one queues the deliveries.
   */
  async swapMeasurement(id: string, expected: string | null, next: string): Promise<boolean> {
    let query = this.db.updateTable('monitoring_records').set({ last_measurement: next }).where('id', '=', id);
    query = expected === null ? query.where('last_measurement', 'is', null) : query.where('last_measurement', '=', expected);
    const r = await query.executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async insertWebhook(row: WebhookRow): Promise<void> {
    await this.db.insertInto('monitoring_webhooks').values(row).execute();
  }

  async webhook(id: string): Promise<WebhookRow | undefined> {
    return this.db.selectFrom('monitoring_webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** A record's webhooks, oldest first. */
  async webhooks(recordId: string): Promise<WebhookRow[]> {
    return this.db.selectFrom('monitoring_webhooks').selectAll().where('record_id', '=', recordId).orderBy('created_at').orderBy('id').execute();
  }

  /** Removes a webhook with its delivery log; false when the record has no such webhook. */
  async deleteWebhook(recordId: string, webhookId: string): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const r = await tx.deleteFrom('monitoring_webhooks').where('id', '=', webhookId).where('record_id', '=', recordId).executeTakeFirst();
      if (Number(r.numDeletedRows) === 0) return false;
      const deliveries = tx.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', webhookId);
      await tx.deleteFrom('webhook_attempts').where('delivery_id', 'in', deliveries).execute();
      await tx.deleteFrom('webhook_deliveries').where('webhook_id', '=', webhookId).execute();
      return true;
    });
  }

  async insertDelivery(row: DeliveryRow): Promise<void> {
    await this.db.insertInto('webhook_deliveries').values(row).execute();
  }

  async delivery(id: string): Promise<DeliveryRow | undefined> {
    return this.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** A webhook's deliveries, oldest first. */
  async deliveries(webhookIds: readonly string[]): Promise<DeliveryRow[]> {
    if (webhookIds.length === 0) return [];
    return this.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', 'in', [...webhookIds])
      .orderBy('created_at').orderBy('id').execute();
  }

  async attempts(deliveryIds: readonly string[]): Promise<AttemptRow[]> {
    if (deliveryIds.length === 0) return [];
    const rows = await this.db.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', [...deliveryIds])
      .orderBy('delivery_id').orderBy('attempt').execute();
    return rows.map((r) => ({ ...r, attempt: Number(r.attempt), duration_ms: Number(r.duration_ms), http_status: r.http_status === null ? null : Number(r.http_status) }));
  }

  /** Stops a delivery without another attempt (its record was ended). */
  async stopDelivery(id: string): Promise<void> {
    await this.db.updateTable('webhook_deliveries').set({ status: 'failed', next_attempt_at: null }).where('id', '=', id).where('status', '=', 'pending').execute();
  }

  /**
   * Logs an attempt and moves the delivery on (delivered, failed, or pending until the next time).
   * An attempt already logged under its number (a job run again after a crash) is kept as it was.
   */
  async recordAttempt(attempt: AttemptRow, delivery: { status: DeliveryRow['status']; next_attempt_at: string | null }): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.insertInto('webhook_attempts').values(attempt).onConflict((oc) => oc.columns(['delivery_id', 'attempt']).doNothing()).execute();
      await tx.updateTable('webhook_deliveries').set(delivery).where('id', '=', attempt.delivery_id).execute();
    });
  }
}
