// The verified feed stores of one compute thread. Files the parent process verified (workerData,
// see shareVerifiedFeeds) are trusted while their identity on disk is unchanged; others are hashed.
import { workerData } from 'node:worker_threads';
import { FeedStore } from '../../feeds/store.js';
import { OED_REFERENCE_FEED } from '../../feeds/catalog.js';
import type { ComputeThreadData } from '../threads.js';

const verified = (workerData as ComputeThreadData | null)?.verifiedFeeds;

// Each thread keeps its own store and parse caches, opened on first use.
let stores: { dir: string; store: Promise<FeedStore> } | undefined;
export function threadStore(dir: string | undefined): Promise<FeedStore | undefined> {
  if (!dir) return Promise.resolve(undefined);
  if (stores?.dir !== dir) stores = { dir, store: FeedStore.open(dir, { verified }) };
  return stores.store;
}

// Reading a schedule needs only the OED reference tables: the thread's full store when it is open,
// else a store of just that snapshot, so a fresh thread does not open every pinned feed first.
let references: { dir: string; store: Promise<FeedStore> } | undefined;
export function referenceStore(dir: string | undefined): Promise<FeedStore | undefined> {
  if (!dir) return Promise.resolve(undefined);
  if (stores?.dir === dir) return stores.store;
  if (references?.dir !== dir) references = { dir, store: FeedStore.open(dir, { feeds: [OED_REFERENCE_FEED], verified }) };
  return references.store;
}
