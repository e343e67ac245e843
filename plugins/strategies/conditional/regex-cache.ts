/**
 * Compiled `$regex` patterns by their source, shared by every config that uses the same pattern,
 * so a config parsed again (not cached upstream) does not compile its patterns again.
 * Patterns run on core's linear-time engine (core/patterns.ts) and keep no state between calls.
 */
import { compilePattern, type Pattern } from '../../../core/index.js';

export class RegexCache {
  readonly #entries = new Map<string, Pattern>();
  constructor(private readonly max: number) {}

  /** The compiled pattern, or the rule it breaks. */
  get(source: string): Pattern | string {
    const hit = this.#entries.get(source);
    if (hit) return hit;
    const pattern = compilePattern(source);
    if (typeof pattern === 'string') return pattern;
    if (this.max > 0) {
      if (this.#entries.size >= this.max) this.#entries.delete(this.#entries.keys().next().value!);
      this.#entries.set(source, pattern);
    }
    return pattern;
  }
}
