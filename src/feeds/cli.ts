// `catrisk feeds verify` and `catrisk feeds add <folder>`.
import type { Config } from '../config.js';

export async function feedsCommand(args: string[], config: Config): Promise<number> {
  void args; void config;
  process.stderr.write('feeds commands arrive with the feed store\n');
  return 2;
}
