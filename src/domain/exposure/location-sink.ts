// Where the schedule table puts the locations it reads. A location is complete when read, or
// pending: its currency (and so the decimals of its values) is known only at the end of the file,
// when a footer or a later row may state the schedule's currency. finish settles pending ones.
//
// LocationArray keeps objects (the reader's plain answer); LocationJsonList (location-json.ts)
// keeps each location as its canonical JSON text only, so a 300,000-row schedule never holds
// 300,000 object trees.
import type { CoverageValues, ScheduleLocation } from './types.js';

export interface Settled {
  currency?: string;
  values: CoverageValues;
}

export interface LocationSink<L> {
  add(location: ScheduleLocation): void;
  /** A location whose currency and values are given by settle, in the order pending ones came. */
  addPending(location: ScheduleLocation): void;
  finish(settle: (pending: number) => Settled): L;
}

export class LocationArray implements LocationSink<ScheduleLocation[]> {
  private readonly locations: ScheduleLocation[] = [];
  private readonly pending: ScheduleLocation[] = [];

  add(location: ScheduleLocation): void {
    this.locations.push(location);
  }

  addPending(location: ScheduleLocation): void {
    this.locations.push(location);
    this.pending.push(location);
  }

  finish(settle: (pending: number) => Settled): ScheduleLocation[] {
    this.pending.forEach((location, i) => {
      const { currency, values } = settle(i);
      if (currency !== undefined) location.currency = currency;
      location.values = values;
    });
    return this.locations;
  }
}
