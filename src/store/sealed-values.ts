// The sealed values of one table's column, for what reads them all: the start-up check of the
// sealing keys and `catrisk keys reseal`. Each value is read with the id of its row (the context it
// was sealed with) and the id of the key that sealed it; this store never sees a plaintext.
import type { Kysely } from 'kysely';

export interface SealedValue {
  /** The row's id: the additional data the value was sealed with. */
  readonly id: string;
  readonly keyId: string;
  readonly sealed: string;
}

export class SealedColumn {
  constructor(
    private readonly db: Kysely<any>,
    private readonly table: 'exchange_models' | 'monitoring_webhooks',
    private readonly sealedColumn: string,
    private readonly keyColumn: string,
  ) {}

  /** The values after `afterId` in id order, at most `limit` (keyset paging). */
  async page(afterId: string | null, limit: number): Promise<SealedValue[]> {
    let query = this.db.selectFrom(this.table)
      .select(['id', `${this.sealedColumn} as sealed`, `${this.keyColumn} as key_id`])
      .where(this.sealedColumn, 'is not', null).where(this.keyColumn, 'is not', null);
    if (afterId !== null) query = query.where('id', '>', afterId);
    const rows = await query.orderBy('id').limit(limit).execute();
    return rows.map((r) => ({ id: r.id as string, keyId: r.key_id as string, sealed: r.sealed as string }));
  }

  /** Each key id values are sealed under, with how many. */
  async keyIds(): Promise<Array<{ keyId: string; count: number }>> {
    const rows = await this.db.selectFrom(this.table).select([`${this.keyColumn} as key_id`, (eb) => eb.fn.countAll().as('n')])
      .where(this.sealedColumn, 'is not', null).where(this.keyColumn, 'is not', null)
      .groupBy(this.keyColumn).orderBy(this.keyColumn).execute();
    return rows.map((r) => ({ keyId: r.key_id as string, count: Number(r.n) }));
  }

  /** A few values sealed under a key (those of the highest ids: the same ones on every read). */
  async sample(keyId: string, limit: number): Promise<SealedValue[]> {
    const rows = await this.db.selectFrom(this.table).select(['id', `${this.sealedColumn} as sealed`])
      .where(this.keyColumn, '=', keyId).where(this.sealedColumn, 'is not', null).orderBy('id', 'desc').limit(limit).execute();
    return rows.map((r) => ({ id: r.id as string, keyId, sealed: r.sealed as string }));
  }

  /** Replaces a value only if it is still the one read (compare-and-set): false when it changed or went meanwhile. */
  async replace(before: SealedValue, next: { keyId: string; sealed: string }): Promise<boolean> {
    const result = await this.db.updateTable(this.table).set({ [this.sealedColumn]: next.sealed, [this.keyColumn]: next.keyId })
      .where('id', '=', before.id).where(this.sealedColumn, '=', before.sealed).where(this.keyColumn, '=', before.keyId).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
