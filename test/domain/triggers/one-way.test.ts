// Backtest and pricing are drivers over the trigger designs: they import triggers/, never the
// other way, type imports counted, so the designs can be read (and a design added) on their own.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const DOMAIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src/domain');

/** The folder under domain/ each relative import of a folder's modules reaches, type imports included. */
function reached(folder: string): { file: string; target: string }[] {
  const dir = join(DOMAIN, folder);
  return readdirSync(dir).filter((f) => f.endsWith('.ts')).flatMap((f) => {
    const text = readFileSync(join(dir, f), 'utf8');
    return [...text.matchAll(/(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"](\.[^'"]+)['"]|import\s*\(\s*['"](\.[^'"]+)['"]\s*\)/g)]
      .map((m) => relative(DOMAIN, resolve(dir, m[1] ?? m[2]!)).split(/[\\/]/)[0]!)
      .map((target) => ({ file: `${folder}/${f}`, target }));
  });
}

test('a trigger design imports nothing of backtest/ or pricing/', () => {
  assert.deepEqual(reached('triggers').filter((i) => i.target === 'backtest' || i.target === 'pricing'), []);
});

test('backtest/ imports nothing of pricing/: the price reads the backtest, one way', () => {
  assert.deepEqual(reached('backtest').filter((i) => i.target === 'pricing'), []);
});

test('the drivers reach the designs: backtest/ and pricing/ import triggers/', () => {
  assert.ok(reached('backtest').some((i) => i.target === 'triggers'));
  assert.ok(reached('pricing').some((i) => i.target === 'triggers'));
});
