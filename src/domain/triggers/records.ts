// What a design measures: the records the feed readers parsed from one pinned snapshot.

import type { DailySeries, EventCatalog, QuakeEvent, ReportEvent, Storm, TrackArchive } from '../hazard/records.js';
import type { OutageEvent, OutageEventSet } from '../outages/records.js';

export type TriggerData =
  | { readonly kind: 'quakes'; readonly events: readonly QuakeEvent[] }
  | { readonly kind: 'reports'; readonly events: readonly ReportEvent[]; readonly unit?: string }
  | { readonly kind: 'series'; readonly series: Pick<DailySeries, 'days' | 'unit' | 'variable' | 'source_id'> }
  | { readonly kind: 'tracks'; readonly storms: readonly Storm[] }
  | { readonly kind: 'outage_events'; readonly events: readonly OutageEvent[]; readonly years_not_read: OutageEventSet['years_not_read']; readonly counts: OutageEventSet['counts'] };

/** Wraps what src/feeds/readers.ts returns (eventCatalog, dailySeries, trackArchive, outageEvents). */
export function triggerData(read: EventCatalog | DailySeries | TrackArchive | OutageEventSet): TriggerData {
  if ('years_not_read' in read) return { kind: 'outage_events', events: read.events, years_not_read: read.years_not_read, counts: read.counts };
  if ('storms' in read) return { kind: 'tracks', storms: read.storms };
  if ('days' in read) return { kind: 'series', series: read };
  if (read.kind === 'quake') return { kind: 'quakes', events: read.events };
  return { kind: 'reports', events: read.events, unit: read.unit };
}
