// An ingested object whose locations' chunks are stored while the schedule is still being read
// (StagedLocations, insertStaged) is stored byte for byte as the same document written whole at the
// end (insertParts); a staging that does not hold the locations' beginning is replaced by the whole
// write, and one discarded leaves no chunk behind. The schedule is the tests' generated one (hand-made, not real
// exposure), read here in this thread by the ingest's own task.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readScheduleTask, type ReadScheduleOutput } from '../../src/app/read-schedule.js';
import { unwrap } from '../../src/kernel/result.js';
import { openDatabase } from '../../src/store/database.js';
import { migrate } from '../../src/store/migrations.js';
import { CHUNK_BYTES } from '../../src/store/object-chunks.js';
import { ObjectStore, type StagedLocations } from '../../src/store/objects.js';
import { AccountStore } from '../../src/store/accounts.js';
import { eachDialect, type DialectName } from '../support/service.js';
import { createScratchDatabase } from '../support/postgres.js';
import { largeSchedule } from '../support/schedules.js';
import { FEEDS_DIR } from '../support/feeds.js';
import { FeedStore } from '../../src/feeds/store.js';
import { OED_REFERENCE_FEED } from '../../src/feeds/catalog.js';

// About 3.4 MB of text: its locations' JSON fills about a dozen 1 MB blocks.
const SCHEDULE = new TextEncoder().encode(largeSchedule(30_000));

// The pinned OED tables, as the ingest thread reads them.
const references = FeedStore.open(FEEDS_DIR, { feeds: [OED_REFERENCE_FEED] });

async function withStore(dialect: DialectName, body: (objects: ObjectStore, chunkRows: (id: string) => Promise<number>, acct: string) => Promise<void>) {
  const stateDir = mkdtempSync(join(tmpdir(), 'catrisk-staged-'));
  const scratch = dialect === 'postgres' ? await createScratchDatabase() : undefined;
  const database = openDatabase({ stateDir, databaseUrl: scratch?.url });
  try {
    await migrate(database.db, database.dialect);
    const chunkRows = async (id: string) => (await database.db.selectFrom('object_locations').select('seq').where('object_id', '=', id).execute()).length;
    const { account } = await new AccountStore(database.db).signup({});
    await body(new ObjectStore(database.db), chunkRows, account.id);
  } finally {
    await database.close();
    await scratch?.drop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/** The ingest task run here, its blocks handed to `staged` as the job does (undefined: none posted). */
async function read(id: string, currency: string | null, staged?: StagedLocations): Promise<ReadScheduleOutput> {
  const channel = new MessageChannel();
  let closed = false;
  channel.port1.on('message', (block: Uint8Array) => staged?.add(block));
  channel.port1.on('close', () => { closed = true; });
  const task = readScheduleTask({
    bytes: SCHEDULE.slice(), currency, feedsDir: undefined,
    provenance: { objectId: id, fileName: 'schedule.csv', sha256: 'f'.repeat(64), runId: 'run', jobId: 'job', recordedAt: '2026-03-01T12:00:00.000Z' },
    ...(staged ? { blocks: channel.port2 } : {}),
  }, await references).finally(() => channel.port2.close());
  const out = unwrap(await task);
  while (staged && staged.pieces < out.streamed && !closed) await new Promise((r) => setTimeout(r, 5));
  channel.port1.close();
  return out;
}

async function storedBytes(objects: ObjectStore, id: string, accountId: string): Promise<Buffer> {
  const head = await objects.head(id, accountId);
  assert.ok(head, `${id} is stored`);
  const parts: Buffer[] = [];
  for await (const chunk of objects.bytes(id, head)) parts.push(chunk);
  const bytes = Buffer.concat(parts);
  assert.equal(bytes.byteLength, head.size);
  return bytes;
}

/** The document's bytes as the two parts make it: the skeleton with the locations put in its []. */
const documentBlocks = (out: ReadScheduleOutput) => [out.skeleton.bytes.subarray(0, out.skeleton.slot), ...out.locationBlocks, out.skeleton.bytes.subarray(out.skeleton.slot + 2)];
const arrayBytes = (out: ReadScheduleOutput) => out.locationBlocks.reduce((n, b) => n + b.byteLength, 0);
const summary = (out: ReadScheduleOutput) => ({ status: out.status, peril: out.peril, locations: out.locations, source: 'schedule.csv', digest: out.digest });
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

eachDialect('an object staged while its schedule is read is stored byte for byte as when written whole', async (dialect) => {
  await withStore(dialect, async (objects, chunkRows, acct) => {
    for (const [pass, currency] of (['USD', null] as const).entries()) {
      const wholeId = `obj_whole_${pass}`;
      const stagedId = `obj_stage_${pass}`;
      const whole = await read(wholeId, currency);
      assert.ok(await objects.insertParts(acct, wholeId, summary(whole), whole.skeleton, whole.locationBlocks));
      const expected = await storedBytes(objects, wholeId, acct);
      assert.ok(expected.byteLength > 10 * CHUNK_BYTES, `${expected.byteLength} bytes`);

      const staged = objects.stage(stagedId);
      const out = await read(stagedId, currency, staged);
      if (currency === null) {
        // Without a declared currency each location's is settled at the end: nothing is final
        // before then, so nothing counts as staged and the whole document is written.
        assert.equal(out.streamed, 0);
      } else {
        assert.ok(out.streamed > 5, `${out.streamed} blocks posted while reading`);
        assert.ok(await staged.holds(out.streamed), 'the staging holds the locations\' beginning');
      }
      assert.ok(await objects.insertStaged(acct, stagedId, summary(out), out.skeleton, out.locationBlocks, staged, out.streamed));
      const got = await storedBytes(objects, stagedId, acct);
      // The ids (of one length) are the only difference between the two documents.
      assert.equal(sha(Buffer.from(got.toString('utf8').replaceAll(stagedId, wholeId), 'utf8')), sha(expected), `currency ${currency}`);
      assert.equal(await chunkRows(stagedId), Math.ceil(arrayBytes(out) / CHUNK_BYTES));
      // A job run again after writing the object stages nothing and writes nothing.
      const again = objects.stage(stagedId);
      const rerun = await read(stagedId, currency, again);
      assert.equal(await objects.insertStaged(acct, stagedId, summary(rerun), rerun.skeleton, rerun.locationBlocks, again, rerun.streamed), false);
      assert.ok((await storedBytes(objects, stagedId, acct)).equals(got));
      assert.equal(await chunkRows(stagedId), Math.ceil(arrayBytes(out) / CHUNK_BYTES));
    }
  });
});

eachDialect('a staging that does not hold the locations\' beginning is replaced by the whole write; a discarded one leaves no chunk', async (dialect) => {
  await withStore(dialect, async (objects, chunkRows, acct) => {
    const whole = await read('obj_x', 'USD');
    const expected = Buffer.concat(documentBlocks(whole));
    // A staging handed a piece that is not of this document first: it holds not.
    const staged = objects.stage('obj_x');
    staged.add(new TextEncoder().encode('[{"ref":"stray"},'));
    const out = await read('obj_x', 'USD', staged);
    assert.ok(out.streamed > 5);
    assert.equal(await staged.holds(out.streamed), false);
    assert.ok(await objects.insertStaged(acct, 'obj_x', summary(out), out.skeleton, out.locationBlocks, staged, out.streamed));
    assert.equal(sha(await storedBytes(objects, 'obj_x', acct)), sha(expected));
    assert.equal(await chunkRows('obj_x'), Math.ceil(arrayBytes(out) / CHUNK_BYTES));

    const dropped = objects.stage('obj_y');
    await read('obj_y', 'USD', dropped);
    await dropped.discard();
    assert.equal(await chunkRows('obj_y'), 0);
    assert.equal(await objects.head('obj_y', acct), undefined);
  });
});
