/**
 * Context windows (tokens) by model, for `truncation` (spec §7: `disabled` and an input over the
 * window is a 400). A model matches its exact name, or the longest name it extends with a `-`
 * suffix (`gpt-4o-mini-2024-07-18` → `gpt-4o-mini`); a name ending in `*` matches by prefix.
 * Unknown models are not checked. The plugin option `contextWindows` adds or replaces entries.
 *
 * Tokens are estimated, not counted: ceil(characters / 4) over the instructions and the text of
 * every input item (previous responses of the chain included). A tokenizer per provider would be
 * exact but costly; the estimate is the common rule of thumb for English text.
 */

export const DEFAULT_CONTEXT_WINDOWS: Readonly<Record<string, number>> = Object.freeze({
  'gpt-4o': 128_000,
  'gpt-4o-mini': 128_000,
  'gpt-4.1': 1_047_576,
  'gpt-4.1-mini': 1_047_576,
  'gpt-4.1-nano': 1_047_576,
  'gpt-4-turbo': 128_000,
  'gpt-4': 8_192,
  'gpt-3.5-turbo': 16_385,
  o1: 200_000,
  o3: 200_000,
  'o3-mini': 200_000,
  'o4-mini': 200_000,
  'claude-*': 200_000,
});

export class ContextWindows {
  readonly #exact = new Map<string, number>();
  readonly #prefixes: [string, number][] = [];
  readonly #resolved = new Map<string, number | null>();

  constructor(table: Readonly<Record<string, number>>) {
    for (const [name, tokens] of Object.entries(table)) {
      if (name.endsWith('*')) this.#prefixes.push([name.slice(0, -1), tokens]);
      else this.#exact.set(name, tokens);
    }
    this.#prefixes.sort((a, b) => b[0].length - a[0].length);
  }

  /** The window of a model, or undefined when the table does not know it. */
  of(model: string): number | undefined {
    const cached = this.#resolved.get(model);
    if (cached !== undefined) return cached ?? undefined;
    const found = this.#lookup(model);
    // Bounded: model names come from clients.
    if (this.#resolved.size < 10_000) this.#resolved.set(model, found ?? null);
    return found;
  }

  #lookup(model: string): number | undefined {
    const exact = this.#exact.get(model);
    if (exact !== undefined) return exact;
    let best: [string, number] | undefined;
    for (const [name, tokens] of this.#exact) {
      if (model.startsWith(name + '-') && (!best || name.length > best[0].length)) best = [name, tokens];
    }
    if (best) return best[1];
    return this.#prefixes.find(([prefix]) => model.startsWith(prefix))?.[1];
  }
}

/** ceil(characters / 4) over every string that reaches the model as text. */
export function estimateTokens(instructions: string | null | undefined, items: readonly unknown[]): number {
  let chars = instructions?.length ?? 0;
  for (const item of items) chars += itemChars(item);
  return Math.ceil(chars / 4);
}

export function itemChars(item: unknown): number {
  if (typeof item === 'string') return item.length;
  if (Array.isArray(item)) return item.reduce((sum: number, part) => sum + itemChars(part), 0);
  if (item === null || typeof item !== 'object') return 0;
  const record = item as Record<string, unknown>;
  let chars = 0;
  for (const key of ['content', 'text', 'arguments', 'output', 'refusal']) {
    if (record[key] !== undefined) chars += itemChars(record[key]);
  }
  return chars;
}
