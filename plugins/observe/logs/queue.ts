/**
 * A bounded FIFO that never blocks its producer: when full, a push overwrites the oldest entry and
 * counts it as dropped (the newest requests are the ones worth keeping during an overload).
 * A fixed ring of slots: pushing allocates nothing.
 */
export class DropOldestQueue<T> {
  readonly #slots: (T | undefined)[];
  #head = 0;
  #size = 0;
  #dropped = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error('queue capacity must be a positive integer');
    this.#slots = new Array<T | undefined>(capacity);
  }

  get size(): number {
    return this.#size;
  }

  /** Entries shed because the queue was full, since it was created. */
  get dropped(): number {
    return this.#dropped;
  }

  push(entry: T): void {
    const capacity = this.capacity;
    if (this.#size === capacity) {
      this.#slots[this.#head] = entry;
      this.#head = (this.#head + 1) % capacity;
      this.#dropped++;
      return;
    }
    this.#slots[(this.#head + this.#size) % capacity] = entry;
    this.#size++;
  }

  /** Removes and returns up to `max` of the oldest entries. */
  take(max: number): T[] {
    const n = Math.min(max, this.#size);
    const out = new Array<T>(n);
    for (let i = 0; i < n; i++) {
      out[i] = this.#slots[this.#head] as T;
      this.#slots[this.#head] = undefined;
      this.#head = (this.#head + 1) % this.capacity;
    }
    this.#size -= n;
    return out;
  }
}
