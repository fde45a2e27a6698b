// feeds/LICENSES.md is what the manifests say (npm run feeds:licenses writes it), and the marks read
// the licence words as a reader would.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FeedStore } from '../../src/feeds/store.js';
import { isNonCommercial, licensesDocument } from '../../src/feeds/licenses.js';
import { FEEDS_DIR } from '../support/feeds.js';

test('feeds/LICENSES.md is written from the manifests: every snapshot, its licence and credit line', async () => {
  const store = await FeedStore.open(FEEDS_DIR);
  const manifests = store.list().map((s) => s.manifest);
  const written = readFileSync(join(FEEDS_DIR, 'LICENSES.md'), 'utf8');
  assert.equal(written, licensesDocument(manifests), 'out of date: run npm run feeds:licenses');
  for (const m of manifests) assert.ok(written.includes(`| ${m.feed_id}/${m.version} |`), m.feed_id);
  // The one pinned non-commercial licence (CC BY-NC-SA) is marked, and every manifest that forbids
  // serving rows is marked not servable.
  const row = (id: string) => written.split('\n').find((l) => l.startsWith(`| ${id}/`))!;
  const nc = manifests.filter((m) => /NC-SA/.test(m.license ?? ''));
  assert.equal(nc.length, 1);
  assert.match(row(nc[0]!.feed_id), /\*\*non-commercial\*\*/);
  for (const m of manifests.filter((x) => x.content_servable === false)) assert.match(row(m.feed_id), /\*\*not servable\*\*/);
  assert.match(row('noaa-nhc-hurdat2-atlantic'), /\| none \|/);
});

test('a non-commercial licence is told by its Creative Commons code or its words (hand-made strings)', () => {
  assert.equal(isNonCommercial('CC BY-NC-SA 4.0'), true);
  assert.equal(isNonCommercial('CC BY-NC 4.0'), true);
  assert.equal(isNonCommercial('free for non-commercial use only'), true);
  assert.equal(isNonCommercial('CC BY 4.0'), false);
  assert.equal(isNonCommercial('Public domain (U.S. Government work)'), false);
  assert.equal(isNonCommercial(undefined), false);
});

test('npm run feeds:check passes on the repository and names what an upstream folder holds beyond it', () => {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/feeds.ts', 'check', '--upstream', FEEDS_DIR], { encoding: 'utf8' });
  assert.match(out, /^\d+ snapshots in .* match their manifests, 0 refused$/m);
  assert.match(out, /^0 snapshot\(s\) in .* are not in /m);
});
