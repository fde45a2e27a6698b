// npm run feeds:check: every pinned snapshot's files against its manifest (the service's own
// verifier), feeds/LICENSES.md against the manifests, and the snapshots an upstream folder holds that
// feeds/ does not yet (`--upstream <dir>`, default ../shared/feeds when it exists; they are copied
// in byte for byte by the change that needs them).
// npm run feeds:licenses: writes feeds/LICENSES.md from the manifests.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig } from '../src/config.js';
import { FeedStore, verifyFeeds } from '../src/feeds/store.js';
import { licensesDocument } from '../src/feeds/licenses.js';

const [verb, ...rest] = process.argv.slice(2);
const dir = loadConfig().feedsDir;
const licensesPath = join(dir, 'LICENSES.md');

async function licenses(): Promise<string> {
  const store = await FeedStore.open(dir);
  return licensesDocument(store.list().map((s) => s.manifest));
}

/** feed_id/version folders under a feeds folder. */
function snapshotsIn(root: string): string[] {
  return readdirSync(root).filter((f) => statSync(join(root, f)).isDirectory())
    .flatMap((f) => readdirSync(join(root, f)).filter((v) => statSync(join(root, f, v)).isDirectory()).map((v) => `${f}/${v}`));
}

async function check(): Promise<number> {
  let failed = false;
  const report = await verifyFeeds(dir);
  for (const r of report.refused) process.stdout.write(`refused ${r.feed_id}/${r.version}: ${r.reason}\n`);
  process.stdout.write(`${report.snapshots.length} snapshots in ${dir} match their manifests, ${report.refused.length} refused\n`);
  failed ||= !report.ok;
  const current = existsSync(licensesPath) ? readFileSync(licensesPath, 'utf8') : '';
  if (current !== await licenses()) {
    process.stdout.write(`${licensesPath} is not what the manifests say: run npm run feeds:licenses\n`);
    failed = true;
  }
  const at = rest.indexOf('--upstream');
  const upstream = at >= 0 ? resolve(rest[at + 1] ?? '') : resolve(process.cwd(), '../shared/feeds');
  if (existsSync(upstream)) {
    const here = new Set(snapshotsIn(dir));
    const missing = snapshotsIn(upstream).filter((s) => !here.has(s));
    for (const s of missing) process.stdout.write(`not in feeds/ yet: ${s} (in ${upstream})\n`);
    process.stdout.write(`${missing.length} snapshot(s) in ${upstream} are not in ${dir}\n`);
  } else if (at >= 0) {
    process.stdout.write(`no upstream folder at ${upstream}\n`);
    failed = true;
  }
  return failed ? 1 : 0;
}

if (verb === 'check') {
  process.exitCode = await check();
} else if (verb === 'licenses') {
  writeFileSync(licensesPath, await licenses());
  process.stdout.write(`wrote ${licensesPath}\n`);
} else {
  process.stderr.write('usage: node --import tsx scripts/feeds.ts check [--upstream <dir>] | licenses\n');
  process.exitCode = 2;
}
