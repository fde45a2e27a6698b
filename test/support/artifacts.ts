// Where tests keep what a person should look at: the pack's pages, the charts and the docs host's
// screenshots as PNG, under artifacts/ at the repository's root (git-ignored; CI keeps the folder
// as its artefacts). CATRISK_ARTIFACTS names another folder. Tests run from .test-build/ (see
// scripts/test.mjs), whose parent is the repository.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function repositoryRoot(): string {
  const root = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
  return basename(root) === '.test-build' ? dirname(root) : root;
}

/** The folder for one kind of artefact (`documents`, `charts`, `screenshots`), made when missing. */
export function artifactsDir(kind: string): string {
  const dir = join(process.env.CATRISK_ARTIFACTS ?? join(repositoryRoot(), 'artifacts'), kind);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Keeps one file under artifacts/<kind>/ and answers its path. */
export function keepArtifact(kind: string, name: string, bytes: Buffer | string): string {
  const path = join(artifactsDir(kind), name);
  writeFileSync(path, bytes);
  return path;
}

/**
 * Keeps a PDF and each of its pages as PNG (pdftoppm at `dpi`): `<name>.pdf`, `<name>-1.png`, ...
 * Pages of an earlier, longer rendering are removed first. Answers the PNGs' paths. Asynchronous:
 * the test's own service keeps answering meanwhile (a blocked loop lets kept-alive sockets lapse).
 */
export async function keepPdfPages(name: string, pdf: Buffer, dpi = 80): Promise<string[]> {
  const dir = artifactsDir('documents');
  for (const old of readdirSync(dir).filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png'))) rmSync(join(dir, old));
  const file = keepArtifact('documents', `${name}.pdf`, pdf);
  await promisify(execFile)('pdftoppm', ['-png', '-r', String(dpi), file, join(dir, name)]);
  return readdirSync(dir).filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png')).sort().map((f) => join(dir, f));
}
