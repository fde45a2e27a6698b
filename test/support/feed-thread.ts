// A task for a thread started like a compute thread (piscina, workerData: ComputeThreadData): opens
// the thread's feed stores over a folder and says what they hashed, served and refused.
import { referenceStore, threadStore } from '../../src/jobs/threads/feed-stores.js';

export interface OpenedStore { hashedFiles: number; feeds: string[]; refused: string[] }

async function opened(store: Promise<import('../../src/feeds/store.js').FeedStore | undefined>): Promise<OpenedStore> {
  const s = (await store)!;
  return { hashedFiles: s.hashedFiles, feeds: s.feeds(), refused: s.refused.map((r) => r.feed_id) };
}

export default async function openFeeds(dir: string): Promise<{ reference: OpenedStore; full: OpenedStore }> {
  return { reference: await opened(referenceStore(dir)), full: await opened(threadStore(dir)) };
}
