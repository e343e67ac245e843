/**
 * Exact keys of bodies the client sent unchanged, by their bytes: the same request arriving again
 * (the case a cache exists for) costs one map lookup instead of a canonical serialisation and a
 * SHA-256. Bounded in entries and in body size; anything else is keyed the long way.
 */
import { asBuffer, BoundedMap } from '../../../core/index.js';
import { cacheKey } from './key.js';

/** Bodies larger than this are keyed the long way (the memo must not hold big conversations). */
const MAX_MEMO_BODY_BYTES = 16 * 1024;

export class KeyMemo {
  readonly #keys: BoundedMap<string, string>;

  constructor(maxEntries: number) {
    this.#keys = new BoundedMap(maxEntries);
  }

  /**
   * The exact key of a body whose canonical JSON `canonical` gives. `raw` is the body's bytes as
   * received, given only when the body is the client's, unchanged (no params shaping, no template):
   * the key is the same either way.
   */
  key(endpoint: string, identity: string, namespace: string | undefined, raw: Uint8Array | undefined, canonical: () => string): string {
    if (raw === undefined || raw.byteLength > MAX_MEMO_BODY_BYTES || this.#keys.maxEntries === 0) {
      return cacheKey(endpoint, identity, namespace, canonical());
    }
    // latin1: one byte per character, the cheapest exact text of the bytes.
    const memo = `${endpoint}\n${namespace ?? ''}\n${identity}\n${asBuffer(raw).toString('latin1')}`;
    return this.#keys.remember(memo, () => cacheKey(endpoint, identity, namespace, canonical()));
  }
}
