// A location as RFC 8785 canonical JSON text, written directly in sorted member order (the same
// bytes canonicalJson gives for the object, at a fraction of the cost and garbage), and the
// location list that keeps only that text, as UTF-8 bytes.
import type { LocationSink, Settled } from './location-sink.js';
import type { CodedText, CoverageValues, ScheduleLocation } from './types.js';
import { BLOCK_BYTES, plainBlocks, Utf8Blocks, type BlockAllocator } from './utf8-blocks.js';

/** Marks where a pending location's currency and values go; JSON text never holds a raw control character. */
const CURRENCY_SLOT = '\u0000';
const VALUES_SLOT = '\u0001';

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
    // Member names sorted by UTF-16 code units (RFC 8785), as canonicalJson sorts them.
    const o = l.oed;
    const names = Object.keys(o).sort();
    oed = `"oed":{${names.map((k) => `${str(k)}:${str(o[k])}`).join(',')}},`;
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

/** The locations as the canonical JSON of their array, as UTF-8 bytes in blocks written one after another. */
export interface LocationsText {
  readonly count: number;
  /** The blocks written in order are the array's canonical JSON, '[' to ']'. */
  readonly blocks: readonly Uint8Array[];
}

const COMMA = Uint8Array.of(','.charCodeAt(0));
const EMPTY = new Uint8Array(0);
const CURRENCY_BYTE = CURRENCY_SLOT.charCodeAt(0);
const VALUES_BYTE = VALUES_SLOT.charCodeAt(0);

/**
 * Keeps each location as its canonical JSON in UTF-8 the moment it is read (one short-lived string
 * each), so a 300,000-row schedule holds neither 300,000 object trees nor 300,000 strings. A
 * pending location's slots are single bytes (no UTF-8 sequence holds 0x00 or 0x01 otherwise),
 * filled in once the schedule's currency is known.
 */
export class LocationJsonList implements LocationSink<LocationsText> {
  private readonly out: Utf8Blocks;
  /** Indexes of blocks holding a slot. */
  private readonly pendingBlocks = new Set<number>();
  private count = 0;

  /**
   * `onSeal` is handed each block of the array as it is sealed, before the end: those are the
   * array's final bytes only while no location is pending (see `pending`), as finish rewrites the
   * blocks holding a pending location's slots.
   */
  constructor(private readonly allocate: BlockAllocator = plainBlocks, private readonly blockBytes = BLOCK_BYTES, onSeal?: (block: Uint8Array) => void) {
    this.out = new Utf8Blocks(allocate, blockBytes, onSeal);
    this.out.write('[');
  }

  add(location: ScheduleLocation): void {
    this.push(write(location, false), false);
  }

  addPending(location: ScheduleLocation): void {
    this.push(write(location, true), true);
  }

  /** Whether a location was added pending (its currency or values settled by finish). */
  get pending(): boolean {
    return this.pendingBlocks.size > 0;
  }

  finish(settle: (pending: number) => Settled): LocationsText {
    this.out.write(']');
    const blocks = this.out.finish();
    if (this.pendingBlocks.size === 0) return { count: this.count, blocks };
    let next = 0;
    let current: Settled | null = null;
    const fill = (slot: number): string => {
      if (slot === CURRENCY_BYTE) {
        current = settle(next++);
        return optional('"currency":', current.currency);
      }
      return valuesJson((current as Settled | null)?.values ?? { total: null });
    };
    // One writer for the whole array: blocks grow by what the slots take, and the copy is cheap.
    const settled = new Utf8Blocks(this.allocate, this.blockBytes);
    for (let i = 0; i < blocks.length; i++) {
      const block = blocks[i]!;
      blocks[i] = EMPTY; // let go of each block once copied
      if (!this.pendingBlocks.has(i)) {
        settled.writeBytes(block);
        continue;
      }
      let from = 0;
      let currencyAt = block.indexOf(CURRENCY_BYTE);
      let valuesAt = block.indexOf(VALUES_BYTE);
      while (currencyAt >= 0 || valuesAt >= 0) {
        const isCurrency = valuesAt < 0 || (currencyAt >= 0 && currencyAt < valuesAt);
        const at = isCurrency ? currencyAt : valuesAt;
        settled.writeBytes(block.subarray(from, at));
        settled.write(fill(isCurrency ? CURRENCY_BYTE : VALUES_BYTE));
        from = at + 1;
        if (isCurrency) currencyAt = block.indexOf(CURRENCY_BYTE, from);
        else valuesAt = block.indexOf(VALUES_BYTE, from);
      }
      settled.writeBytes(block.subarray(from));
    }
    return { count: this.count, blocks: settled.finish() };
  }

  private push(text: string, pending: boolean): void {
    if (this.count > 0) this.out.writeBytes(COMMA);
    const first = this.out.blocks;
    this.out.write(text);
    if (pending) for (let i = first; i <= this.out.blocks; i++) this.pendingBlocks.add(i);
    this.count++;
  }
}
