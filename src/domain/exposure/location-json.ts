// A location as RFC 8785 canonical JSON text, written directly in sorted member order (the same
// bytes canonicalJson gives for the object, at a fraction of the cost and garbage), and the
// location list that keeps only that text.
import type { LocationSink, Settled } from './location-sink.js';
import type { CodedText, CoverageValues, ScheduleLocation } from './types.js';

/** Marks where a pending location's currency and values go; JSON text never holds a raw control character. */
const CURRENCY_SLOT = '\u0000';
const VALUES_SLOT = '\u0001';
const SLOTS = /[\u0000\u0001]/g;
/** Locations joined into one chunk of text: few large strings rather than many small ones. */
const CHUNK = 2048;

const str = JSON.stringify;

function optional(name: string, value: string | undefined): string {
  return value === undefined ? '' : `${name}${str(value)},`;
}

function codedJson(c: CodedText): string {
  return `{"code":${c.code === null ? 'null' : str(c.code)},"text":${c.text === null ? 'null' : str(c.text)}}`;
}

export function valuesJson(v: CoverageValues): string {
  return `{${optional('"buildings":', v.buildings)}${optional('"business_interruption":', v.business_interruption)}${optional('"contents":', v.contents)}${optional('"other":', v.other)}"total":${v.total === null ? 'null' : str(v.total)}}`;
}

function numberOrNull(n: number | null): string {
  return n === null ? 'null' : str(n);
}

function write(l: ScheduleLocation, pending: boolean): string {
  const a = l.address;
  let address = `${optional('"area":', a.area)}${optional('"city":', a.city)}${optional('"country":', a.country)}${optional('"postcode":', a.postcode)}${optional('"street":', a.street)}`;
  if (address !== '') address = address.slice(0, -1);
  let oed = '';
  if (l.oed !== undefined) {
    const o = l.oed;
    oed = `${optional('"AccNumber":', o.AccNumber)}${optional('"LocName":', o.LocName)}${optional('"PortNumber":', o.PortNumber)}`;
    oed = `"oed":{${oed.slice(0, -1)}},`;
  }
  return `{"address":{${address}},`
    + (l.bi_period_days === undefined ? '' : `"bi_period_days":${numberOrNull(l.bi_period_days)},`)
    + `"construction":${codedJson(l.construction)},`
    + (pending ? CURRENCY_SLOT : optional('"currency":', l.currency))
    + `"latitude":${numberOrNull(l.latitude)},"longitude":${numberOrNull(l.longitude)},"occupancy":${codedJson(l.occupancy)},`
    + oed
    + optional('"perils_covered":', l.perils_covered)
    + `"ref":${l.ref === null ? 'null' : str(l.ref)},`
    + (l.storeys === undefined ? '' : `"storeys":${numberOrNull(l.storeys)},`)
    + `"values":${pending ? VALUES_SLOT : valuesJson(l.values)},"year_built":${numberOrNull(l.year_built)}}`;
}

/** The canonical JSON text of one location. */
export function locationJson(location: ScheduleLocation): string {
  return write(location, false);
}

/** The locations as the canonical JSON text of their array, in chunks to be written one after another. */
export interface LocationsText {
  readonly count: number;
  /** '[', the chunks, ']' written in order are the array's canonical JSON. */
  readonly chunks: readonly string[];
}

export class LocationJsonList implements LocationSink<LocationsText> {
  private readonly chunks: { text: string; pending: boolean }[] = [];
  private parts: string[] = [];
  private partsPending = false;
  private count = 0;

  add(location: ScheduleLocation): void {
    this.push(write(location, false), false);
  }

  addPending(location: ScheduleLocation): void {
    this.push(write(location, true), true);
  }

  finish(settle: (pending: number) => Settled): LocationsText {
    this.flush();
    let next = 0;
    let current: Settled | null = null;
    const fill = (slot: string): string => {
      if (slot === CURRENCY_SLOT) {
        current = settle(next++);
        return optional('"currency":', current.currency);
      }
      return valuesJson((current as Settled | null)?.values ?? { total: null });
    };
    const chunks = this.chunks.map((chunk, i) => (i === 0 ? '' : ',') + (chunk.pending ? chunk.text.replace(SLOTS, fill) : chunk.text));
    this.chunks.length = 0;
    return { count: this.count, chunks: ['[', ...chunks, ']'] };
  }

  private push(text: string, pending: boolean): void {
    this.parts.push(text);
    if (pending) this.partsPending = true;
    this.count++;
    if (this.parts.length >= CHUNK) this.flush();
  }

  private flush(): void {
    if (this.parts.length === 0) return;
    this.chunks.push({ text: this.parts.join(','), pending: this.partsPending });
    this.parts = [];
    this.partsPending = false;
  }
}
