// The earthquake lanes' pinned inputs for domain tests, read once through the verified feed store.
import { FeedStore } from '../../src/feeds/store.js';
import { structuralVulnerability } from '../../src/feeds/readers.js';
import { shakeMap as readShakeMap } from '../../src/feeds/lab-inputs.js';
import type { ShakeMap } from '../../src/domain/lab/lanes/earthquake/shakemap.js';
import type { VulnerabilityFunction } from '../../src/domain/lab/lanes/earthquake/vulnerability.js';
import { FEEDS_DIR } from './feeds.js';

const VULNERABILITY = 'gem-vulnerability-europe';
const stores = new Map<string, Promise<FeedStore>>();
const storeOf = (feedId: string) => {
  let s = stores.get(feedId);
  if (!s) stores.set(feedId, (s = FeedStore.open(FEEDS_DIR, { feeds: [feedId] })));
  return s;
};

export async function structuralVulnerabilityOf(): Promise<ReadonlyMap<string, VulnerabilityFunction>> {
  const store = await storeOf(VULNERABILITY);
  return structuralVulnerability(store, store.get(VULNERABILITY)!);
}

export async function shakeMap(feedId: string): Promise<ShakeMap> {
  const store = await storeOf(feedId);
  return readShakeMap(store, store.get(feedId)!);
}
