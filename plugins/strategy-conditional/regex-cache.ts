/**
 * Compiled `$regex` patterns by their source, shared by every config that uses the same pattern,
 * so a config parsed again (not cached upstream) does not compile its patterns again.
 * Patterns have no flags, so `test()` keeps no state and one RegExp serves every request.
 */
export class RegexCache {
  readonly #entries = new Map<string, RegExp>();
  constructor(private readonly max: number) {}

  /** The compiled pattern, or the SyntaxError's message. */
  get(pattern: string): RegExp | string {
    const hit = this.#entries.get(pattern);
    if (hit) return hit;
    let regex: RegExp;
    try {
      regex = new RegExp(pattern);
    } catch (e) {
      return (e as Error).message;
    }
    if (this.max > 0) {
      if (this.#entries.size >= this.max) this.#entries.delete(this.#entries.keys().next().value!);
      this.#entries.set(pattern, regex);
    }
    return regex;
  }
}
