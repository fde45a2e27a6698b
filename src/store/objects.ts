// Uploaded schedules and risk objects: the only SQL about them.
import type { Kysely } from 'kysely';
import type { Tables } from './tables.js';
import { canonicalJson } from '../http/canonical-json.js';

export type RiskObjectDocument = Record<string, unknown> & { id: string; status: string };

export class ObjectStore {
  constructor(private readonly db: Kysely<Tables>) {}

  /** Stores bytes by their digest; the same bytes are stored once. */
  async putUpload(sha256: string, bytes: Uint8Array, now = new Date()): Promise<void> {
    await this.db.insertInto('uploads')
      .values({ sha256, bytes, size: bytes.byteLength, created_at: now.toISOString() })
      .onConflict((oc) => oc.column('sha256').doNothing())
      .execute();
  }

  async upload(sha256: string): Promise<Uint8Array | undefined> {
    const row = await this.db.selectFrom('uploads').select('bytes').where('sha256', '=', sha256).executeTakeFirst();
    return row?.bytes;
  }

  /** Inserts unless an object of that id exists (a re-run job writes the same ids); true if written. */
  insert(accountId: string, document: RiskObjectDocument, now = new Date()): Promise<boolean> {
    return this.insertJson(accountId, document.id, document.status, canonicalJson(document), now);
  }

  /** As insert, for a document already written as canonical JSON text (large objects are written off-thread). */
  async insertJson(accountId: string, id: string, status: string, json: string, now = new Date()): Promise<boolean> {
    const at = now.toISOString();
    const result = await this.db.insertInto('objects')
      .values({ id, account_id: accountId, status, document: json, created_at: at, updated_at: at })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  async get(id: string, accountId: string): Promise<RiskObjectDocument | undefined> {
    const row = await this.db.selectFrom('objects').select('document')
      .where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return row ? JSON.parse(row.document) as RiskObjectDocument : undefined;
  }

  /** The stored canonical JSON text, sent as is (a large object is never parsed to be read). */
  async getJson(id: string, accountId: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('objects').select('document')
      .where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return row?.document;
  }

  async replace(accountId: string, document: RiskObjectDocument, now = new Date()): Promise<void> {
    await this.db.updateTable('objects')
      .set({ status: document.status, document: canonicalJson(document), updated_at: now.toISOString() })
      .where('id', '=', document.id).where('account_id', '=', accountId).execute();
  }
}
