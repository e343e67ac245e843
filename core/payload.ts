/**
 * A JSON body that keeps the bytes it arrived as. Parsing happens at most once and only when a
 * reader asks; writing the body back re-uses the original bytes unless someone replaced the value.
 * This keeps a pass-through answer free of a parse/serialise round trip on the hot path.
 */
import { utf8Of } from './bytes.js';

export class JsonPayload {
  #raw: Uint8Array | string | undefined;
  #value: unknown;
  #parsed: boolean;

  private constructor(raw: Uint8Array | string | undefined, value: unknown, parsed: boolean) {
    this.#raw = raw;
    this.#value = value;
    this.#parsed = parsed;
  }

  static fromBytes(raw: Uint8Array | string): JsonPayload {
    return new JsonPayload(raw, undefined, false);
  }

  static of(value: unknown): JsonPayload {
    return new JsonPayload(undefined, value, true);
  }

  /** The parsed value. Throws a SyntaxError when the bytes are not JSON. */
  get value(): unknown {
    if (!this.#parsed) {
      this.#value = JSON.parse(this.text());
      this.#parsed = true;
    }
    return this.#value;
  }

  /** The body as text: the original bytes decoded, or the value serialised. */
  text(): string {
    const raw = this.bytes();
    return typeof raw === 'string' ? raw : utf8Of(raw);
  }

  /** Replaces the value; the original bytes are dropped. */
  set value(next: unknown) {
    this.#value = next;
    this.#parsed = true;
    this.#raw = undefined;
  }

  /** Whether the value is at hand without parsing (built from a value, or parsed already). */
  get parsed(): boolean {
    return this.#parsed;
  }

  /** Parses without throwing: undefined when the bytes are not JSON. */
  tryValue(): unknown {
    try {
      return this.value;
    } catch {
      return undefined;
    }
  }

  /** Marks the value as changed in place (after mutating the object returned by `value`). */
  touch(): void {
    void this.value;
    this.#raw = undefined;
  }

  /** The bytes to send: the originals when untouched, otherwise the value serialised. */
  bytes(): Uint8Array | string {
    if (this.#raw === undefined) this.#raw = JSON.stringify(this.#value);
    return this.#raw;
  }
}
