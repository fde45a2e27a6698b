// Text written straight into UTF-8 byte blocks as it is made. A large document built this way is
// never held as JavaScript strings: those would be copied by the collector for as long as they
// live, and copied once more to become bytes. Blocks come from an allocator, so the compute thread
// can write into shared memory that the main thread then reads in place.

/** Gives a zeroed block of at least size bytes. */
export type BlockAllocator = (size: number) => Uint8Array;

export const plainBlocks: BlockAllocator = (size) => new Uint8Array(size);

/** Big enough that a large document is a few hundred blocks, small enough that the last one's slack is nothing. */
export const BLOCK_BYTES = 1024 * 1024;

const encoder = new TextEncoder();

export class Utf8Blocks {
  private readonly sealed: Uint8Array[] = [];
  private block: Uint8Array;
  private at = 0;

  /** `onSeal` is handed each block as it is sealed before the end (not the last, given by finish). */
  constructor(private readonly allocate: BlockAllocator = plainBlocks, private readonly blockBytes = BLOCK_BYTES, private readonly onSeal?: (block: Uint8Array) => void) {
    // A UTF-8 character is at most four bytes: a fresh block always takes the next one.
    if (blockBytes < 4) throw new RangeError('a block holds at least four bytes');
    this.block = allocate(blockBytes);
  }

  /** Blocks sealed so far: the one being written is blocks.length. */
  get blocks(): number {
    return this.sealed.length;
  }

  write(text: string): void {
    let rest = text;
    for (;;) {
      // encodeInto writes whole characters only; what did not fit goes to the next block.
      const { read, written } = encoder.encodeInto(rest, this.block.subarray(this.at));
      this.at += written;
      if (read === rest.length) return;
      rest = rest.slice(read);
      this.next();
    }
  }

  writeBytes(bytes: Uint8Array): void {
    let from = 0;
    while (from < bytes.byteLength) {
      const n = Math.min(this.block.byteLength - this.at, bytes.byteLength - from);
      this.block.set(bytes.subarray(from, from + n), this.at);
      this.at += n;
      from += n;
      if (from < bytes.byteLength) this.next();
    }
  }

  /** Every byte written, in order, in blocks (the last cut to its length); the writer is done. */
  finish(): Uint8Array[] {
    if (this.at > 0) this.sealed.push(this.block.subarray(0, this.at));
    this.block = new Uint8Array(0);
    this.at = 0;
    return this.sealed.splice(0);
  }

  private next(): void {
    const sealed = this.block.subarray(0, this.at);
    this.sealed.push(sealed);
    this.onSeal?.(sealed);
    this.block = this.allocate(this.blockBytes);
    this.at = 0;
  }
}

/** The total bytes of blocks. */
export function byteLengthOf(blocks: readonly Uint8Array[]): number {
  let size = 0;
  for (const block of blocks) size += block.byteLength;
  return size;
}
