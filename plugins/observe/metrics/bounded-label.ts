/**
 * The values one label may take, so that a caller cannot grow the series without bound (a model
 * name per request would make a series each): the known values, then the first `cap` others seen;
 * any later value reads `other`. Values are never evicted: a series once scraped keeps its name,
 * so counters stay monotonic. One Set lookup per value.
 */
export const OTHER = 'other';

export class BoundedLabel {
  readonly #kept: Set<string>;
  #room: number;

  constructor(cap: number, known: readonly string[] = []) {
    this.#kept = new Set(known);
    this.#room = cap;
  }

  /** `value` when it is kept (or there is still room for it), else `other`. */
  of(value: string): string {
    if (this.#kept.has(value)) return value;
    if (this.#room === 0) return OTHER;
    this.#room--;
    this.#kept.add(value);
    return value;
  }
}
