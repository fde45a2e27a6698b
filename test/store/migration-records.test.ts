// The migrations are records, one per version: names never change once released (Kysely records
// them), versions are contiguous after the last skipped number, and each name carries its number.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MIGRATIONS, SKIPPED_VERSIONS } from '../../src/store/migrations.js';

test('the migrations keep the names existing databases recorded (later ones may follow)', () => {
  const released = [
    '0001_foundation', '0002_uploads_and_objects', '0003_structures_and_backtests', '0004_lab_runs',
    '0005_object_versions_chunks_and_usage_keys', '0006_api_keys_by_account', '0007_job_times',
    '0008_list_summaries_and_indexes', '0009_job_progress_and_cancellation', '0010_idempotency_keys',
    '0012_packages', '0013_models', '0014_coding_budget', '0015_monitoring', '0017_exchange',
    '0018_object_digests', '0019_webhook_secrets_sealed', '0020_job_origin',
  ];
  assert.deepEqual(MIGRATIONS.slice(0, released.length).map((m) => m.name), released);
});

test('each migration is named after its version, in order, and no skipped number is used', () => {
  for (const m of MIGRATIONS) {
    assert.match(m.name, /^\d{4}_[a-z0-9_]+$/, m.name);
    assert.equal(Number(m.name.slice(0, 4)), m.version, `${m.name} carries version ${m.version}`);
    assert.ok(!SKIPPED_VERSIONS.includes(m.version), `${m.name} uses a skipped number`);
  }
  const versions = MIGRATIONS.map((m) => m.version);
  assert.deepEqual(versions, [...versions].sort((a, b) => a - b));
  assert.equal(new Set(versions).size, versions.length);
  // Every number up to the last is either a migration or a skipped one.
  const last = versions[versions.length - 1]!;
  assert.deepEqual([...versions, ...SKIPPED_VERSIONS].sort((a, b) => a - b), Array.from({ length: last }, (_, i) => i + 1));
});

test('after the last skipped number the versions are contiguous', () => {
  const from = Math.max(...SKIPPED_VERSIONS) + 1;
  const after = MIGRATIONS.filter((m) => m.version >= from).map((m) => m.version);
  assert.deepEqual(after, Array.from({ length: after.length }, (_, i) => from + i));
});
