// What a design measures: the records the feed readers parsed from one pinned snapshot.

import type { DailySeries, EventCatalog, QuakeEvent, ReportEvent, Storm, TrackArchive } from '../hazard/records.js';

export type TriggerData =
  | { readonly kind: 'quakes'; readonly events: readonly QuakeEvent[] }
  | { readonly kind: 'reports'; readonly events: readonly ReportEvent[]; readonly unit?: string }
  | { readonly kind: 'series'; readonly series: Pick<DailySeries, 'days' | 'unit' | 'variable' | 'source_id'> }
  | { readonly kind: 'tracks'; readonly storms: readonly Storm[] };

/** Wraps what src/feeds/readers.ts returns (eventCatalog, dailySeries, trackArchive). */
export function triggerData(read: EventCatalog | DailySeries | TrackArchive): TriggerData {
  if ('storms' in read) return { kind: 'tracks', storms: read.storms };
  if ('days' in read) return { kind: 'series', series: read };
  if (read.kind === 'quake') return { kind: 'quakes', events: read.events };
  return { kind: 'reports', events: read.events, unit: read.unit };
}
