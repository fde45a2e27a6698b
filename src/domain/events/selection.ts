// Selecting events from a catalog (SPEC: Event catalog rules). Pure: the route parses the query.
import type { Box } from '../geo.js';
import { boxContains } from '../geo.js';

export interface SelectableEvent {
  readonly event_id: string;
  readonly epoch_ms: number;
  readonly latitude: number | null;
  readonly longitude: number | null;
  readonly magnitude?: number | null;
  readonly depth_km?: number | null;
  readonly value?: number | null;
}

export interface EventFilter {
  /** Applied only when the caller named one; a row without a magnitude never passes it. */
  readonly minMagnitude?: number;
  /** A row without a depth is excluded when a limit is set. */
  readonly maxDepthKm?: number;
  /** A record with no value never passes it. */
  readonly minValue?: number;
  /** from inclusive, to exclusive (epoch ms). */
  readonly fromMs: number;
  readonly toMs: number;
  /** Inclusive on every edge; a row without coordinates is outside every box. */
  readonly box: Box;
}

export function passes(event: SelectableEvent, f: EventFilter): boolean {
  if (event.epoch_ms < f.fromMs || event.epoch_ms >= f.toMs) return false;
  if (event.latitude === null || event.longitude === null) return false;
  if (!boxContains(f.box, { latitude: event.latitude, longitude: event.longitude })) return false;
  if (f.minMagnitude !== undefined && !(typeof event.magnitude === 'number' && event.magnitude >= f.minMagnitude)) return false;
  if (f.maxDepthKm !== undefined && !(typeof event.depth_km === 'number' && event.depth_km <= f.maxDepthKm)) return false;
  if (f.minValue !== undefined && !(typeof event.value === 'number' && event.value >= f.minValue)) return false;
  return true;
}

export function selectEvents<T extends SelectableEvent>(events: readonly T[], filter: EventFilter): T[] {
  return events.filter((e) => passes(e, filter));
}
