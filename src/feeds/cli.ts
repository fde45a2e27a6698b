// `catrisk feeds verify` and `catrisk feeds add <folder>`.
import type { Config } from '../config.js';
import { addSnapshot, verifyFeeds } from './store.js';

export async function feedsCommand(args: string[], config: Config): Promise<number> {
  const [verb, folder] = args;
  if (!config.feedsDir) {
    process.stderr.write('No feeds directory: set CATRISK_FEEDS_DIR.\n');
    return 2;
  }
  if (verb === 'verify') {
    const report = await verifyFeeds(config.feedsDir);
    for (const s of report.snapshots) process.stdout.write(JSON.stringify({ ok: s }) + '\n');
    for (const r of report.refused) process.stdout.write(JSON.stringify({ refused: r }) + '\n');
    process.stderr.write(`${report.snapshots.length} snapshots verified, ${report.refused.length} refused\n`);
    return report.ok ? 0 : 1;
  }
  if (verb === 'add' && folder) {
    try {
      const snapshot = await addSnapshot(config.feedsDir, folder);
      process.stdout.write(JSON.stringify({ added: { feed_id: snapshot.feed_id, version: snapshot.version, sha256: snapshot.sha256 } }) + '\n');
      return 0;
    } catch (error) {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
  }
  process.stderr.write('usage: catrisk feeds verify | catrisk feeds add <folder>\n');
  return 2;
}
