// The one reader of a manifest's coverage: every pinned manifest's box, point or basin is read, and
// no other module reads the coverage member's fields itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FEEDS_DIR, manifestOf } from '../support/feeds.js';
import { parseManifest } from '../../src/feeds/manifest.js';
import { coverageArea } from '../../src/domain/hazard/coverage-area.js';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const pinned = readdirSync(FEEDS_DIR, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

test('every pinned manifest: the area stated is read, from the JSON and from the parsed manifest alike', () => {
  for (const id of pinned) {
    const json = manifestOf(id);
    const c = json.coverage;
    const area = coverageArea(c);
    assert.deepEqual(coverageArea(parseManifest(json).coverage), area, `${id}: parsed and raw coverage read alike`);
    assert.equal(area.type, c.type, id);
    if (c.type === 'point') assert.deepEqual(area.point, { latitude: c.latitude, longitude: c.longitude }, id);
    if (c.type === 'box') assert.deepEqual(area.box, { min_latitude: c.min_latitude, max_latitude: c.max_latitude, min_longitude: c.min_longitude, max_longitude: c.max_longitude }, id);
    if (c.longitude_range_0_360) assert.deepEqual(area.longitude_range_0_360, c.longitude_range_0_360, id);
  }
});

test('hand-made coverage: none, a box with an edge missing, a point without numbers', () => {
  assert.deepEqual(coverageArea(undefined), { type: 'none', box: null, longitude_range_0_360: null, point: null });
  assert.equal(coverageArea({ type: 'box', min_latitude: 1, max_latitude: 2, min_longitude: 3 }).box, null);
  assert.equal(coverageArea({ type: 'point', latitude: '1', longitude: 2 }).point, null);
});

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? sources(path) : e.name.endsWith('.ts') ? [path] : [];
  });
}

test('no other module reads the fields of a manifest\'s coverage', () => {
  // GET /feeds and the data room publish the coverage object as stated; they read none of its fields.
  const readers = sources(SRC).filter((file) => {
    const rel = relative(SRC, file).split('\\').join('/');
    if (rel === 'domain/hazard/coverage-area.ts' || rel.startsWith('domain/lab/')) return false;
    const text = readFileSync(file, 'utf8');
    return /\.coverage\??\.raw\b(?!\s*\?\?\s*null)|manifest\.coverage\??\.(?!raw\b)\w+|coverage\s+as\s+Record|\bc\.(longitude_range_0_360|min_latitude|latitude)\b/.test(text);
  }).map((f) => relative(SRC, f));
  assert.deepEqual(readers, []);
});
