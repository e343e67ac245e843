/**
 * Small buffers carved from one large allocation. Each ArrayBuffer is costly to create (its
 * backing store is registered with the engine and swept by the collector); node's own pool for
 * `Buffer.allocUnsafe` holds 8 KiB, so bodies of a kilobyte or two start a new pool every few
 * requests. A slab of 64 KiB serves dozens. Like node's pool, a slab lives while any buffer cut
 * from it does: use it for bytes that are written and dropped, not for bytes that are kept.
 * Contents are not zeroed: every byte handed out must be written by the caller.
 */
const DEFAULT_SLAB_BYTES = 64 * 1024;

export class ByteSlab {
  #slab: ArrayBuffer | undefined;
  #offset = 0;

  constructor(private readonly slabBytes = DEFAULT_SLAB_BYTES) {}

  /** `size` bytes, uninitialised; larger requests (over a quarter slab) get their own buffer. */
  alloc(size: number): Buffer {
    if (size > this.slabBytes >>> 2) return Buffer.allocUnsafe(size);
    if (this.#slab === undefined || this.#offset + size > this.slabBytes) {
      this.#slab = Buffer.allocUnsafeSlow(this.slabBytes).buffer as ArrayBuffer;
      this.#offset = 0;
    }
    const bytes = Buffer.from(this.#slab, this.#offset, size);
    // 8-byte aligned, as node's pool does.
    this.#offset = (this.#offset + size + 7) & ~7;
    return bytes;
  }
}
