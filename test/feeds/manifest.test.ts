// Manifest loader: every real manifest loads with nothing lost; malformed ones are rejected.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FEEDS_DIR } from '../support/feeds.js';
import { coverageBox, isSafeFileName, loadManifest, parseManifest } from '../../src/feeds/manifest.js';

const FEEDS = FEEDS_DIR;
const manifests = readdirSync(FEEDS).filter((f) => statSync(join(FEEDS, f)).isDirectory())
  .flatMap((f) => readdirSync(join(FEEDS, f)).map((v) => join(FEEDS, f, v, 'MANIFEST.json')));

test('every pinned manifest loads; typed members mirror the JSON and raw keeps it whole', async () => {
  assert.ok(manifests.length > 0);
  for (const path of manifests) {
    const json = JSON.parse(readFileSync(path, 'utf8'));
    const m = await loadManifest(path);
    assert.deepEqual(m.raw, json, path);
    assert.equal(m.feed_id, json.feed_id);
    assert.equal(m.version, json.version);
    assert.equal(m.files.length, json.files.length);
    m.files.forEach((f, i) => {
      assert.equal(f.name, json.files[i].name);
      assert.equal(f.sha256, json.files[i].sha256);
      assert.equal(f.bytes, json.files[i].bytes);
      assert.equal(f.rows, json.files[i].rows ?? json.files[i].data_rows ?? null);
    });
    // notes is a string in some manifests, a list in others.
    assert.deepEqual(m.notes, json.notes === undefined ? [] : typeof json.notes === 'string' ? [json.notes] : json.notes);
    assert.deepEqual(m.years_missing, json.years_missing);
    assert.equal(m.row_count, json.row_count ?? null);
    assert.equal(m.coverage?.type, json.coverage.type);
    assert.equal(m.derivation, json.derivation);
    if (json.coverage.type === 'box') assert.equal(coverageBox(m)?.min_latitude, json.coverage.min_latitude);
  }
});

test('identity and files are required and checked', () => {
  const file = { name: 'a.csv', sha256: 'a'.repeat(64), bytes: 3 };
  assert.equal(parseManifest({ feed_id: 'f', version: '1', files: [file] }).feed_id, 'f');
  assert.throws(() => parseManifest({ version: '1', files: [file] }), /feed_id is required/);
  assert.throws(() => parseManifest({ feed_id: 'f', files: [file] }), /version is required/);
  assert.throws(() => parseManifest({ feed_id: 'f', version: '1', files: [] }), /files must be a non-empty list/);
  assert.throws(() => parseManifest({ feed_id: 'f', version: '1', files: [{ ...file, sha256: 'XYZ' }] }), /sha256 must be 64/);
  assert.throws(() => parseManifest({ feed_id: 'f', version: '1', files: [{ ...file, bytes: -1 }] }), /bytes must be/);
  assert.throws(() => parseManifest({ feed_id: 'f', version: '1', files: [{ ...file, name: '../x' }] }), /leaves the folder/);
  assert.throws(() => parseManifest({ feed_id: 'f', version: '1', files: [file, file] }), /twice/);
  assert.throws(() => parseManifest({ feed_id: 'f', version: '1', files: [file], perils: 'flood' }), /perils must be a list/);
  assert.throws(() => parseManifest({ feed_id: 'f', version: '1', files: [file], coverage: { type: 'box' } }), /coverage\.min_latitude/);
});

test('isSafeFileName keeps names inside the snapshot folder', () => {
  for (const ok of ['a.csv', 'bio1980/bio011980.txt']) assert.equal(isSafeFileName(ok), true, ok);
  for (const bad of ['', '/etc/passwd', '../a', 'a/../../b', 'a//b', 'a\\b', './a']) assert.equal(isSafeFileName(bad), false, bad);
});
