// Inputs users bring to the lab: each input by its content address (kind and files' digests), the
// accounts that brought it, and each file's bytes once by their digest.
import type { Kysely } from 'kysely';
import type { LabInputsTable, Tables } from './tables.js';
import type { ListPosition } from './list-position.js';

/** One file of an input as stored: its part, digest and size. */
export interface StoredInputFile {
  part: string;
  sha256: string;
  bytes: number;
}

/** An input as an account sees it: the input, and when this account first brought it. */
export interface OwnedInputRow extends LabInputsTable {
  owned_at: string;
}

export class LabInputStore {
  constructor(private readonly db: Kysely<Tables>) {}

  /**
   * Stores an input's files and row (once: the same content address writes nothing again) and
   * records the account as one that brought it; true when the account had not brought it before.
   */
  async put(input: Omit<LabInputsTable, 'created_at'>, files: readonly { sha256: string; bytes: Uint8Array }[], accountId: string, now = new Date()): Promise<boolean> {
    const at = now.toISOString();
    return this.db.transaction().execute(async (tx) => {
      for (const f of files) {
        await tx.insertInto('lab_input_files').values({ sha256: f.sha256, bytes: f.bytes, size: f.bytes.byteLength })
          .onConflict((oc) => oc.column('sha256').doNothing()).execute();
      }
      await tx.insertInto('lab_inputs').values({ ...input, created_at: at })
        .onConflict((oc) => oc.column('id').doNothing()).execute();
      const r = await tx.insertInto('lab_input_owners').values({ input_id: input.id, account_id: accountId, created_at: at })
        .onConflict((oc) => oc.columns(['input_id', 'account_id']).doNothing()).executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
    });
  }

  /** An input the account brought, or undefined (another account's input is not found). */
  async owned(id: string, accountId: string): Promise<OwnedInputRow | undefined> {
    return this.db.selectFrom('lab_input_owners')
      .innerJoin('lab_inputs', 'lab_inputs.id', 'lab_input_owners.input_id')
      .selectAll('lab_inputs')
      .select('lab_input_owners.created_at as owned_at')
      .where('lab_input_owners.input_id', '=', id).where('lab_input_owners.account_id', '=', accountId)
      .executeTakeFirst();
  }

  /** A file's bytes by digest. */
  async file(sha256: string): Promise<Uint8Array | undefined> {
    const row = await this.db.selectFrom('lab_input_files').select('bytes').where('sha256', '=', sha256).executeTakeFirst();
    return row?.bytes;
  }

  /** A page of the inputs an account brought, newest first (by when it first brought each), from after `position`. */
  async list(accountId: string, filter: { kind?: string }, after: ListPosition | undefined, limit: number): Promise<(OwnedInputRow & { created_at: string })[]> {
    let query = this.db.selectFrom('lab_input_owners')
      .innerJoin('lab_inputs', 'lab_inputs.id', 'lab_input_owners.input_id')
      .selectAll('lab_inputs')
      .select(['lab_input_owners.created_at as owned_at'])
      .where('lab_input_owners.account_id', '=', accountId);
    if (filter.kind !== undefined) query = query.where('lab_inputs.kind', '=', filter.kind);
    if (after) query = query.where((eb) => eb(eb.refTuple('lab_input_owners.created_at', 'lab_input_owners.input_id'), '<', eb.tuple(after.created_at, after.id)));
    return query.orderBy('lab_input_owners.created_at', 'desc').orderBy('lab_input_owners.input_id', 'desc').limit(limit).execute();
  }
}
