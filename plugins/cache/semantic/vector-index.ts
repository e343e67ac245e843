/**
 * The semantic index: unit vectors of cached conversations, by partition, in process memory.
 * Bounded by entries and bytes; the least recently used (added or matched) go first. Nearest
 * neighbour is a linear scan of one partition (dot products of unit vectors = cosine similarity),
 * which is cheap next to the embeddings call that precedes it.
 */

interface Item {
  readonly key: string;
  readonly partition: string;
  readonly vector: Float32Array;
  readonly expiresAt: number;
  readonly bytes: number;
}

export interface Neighbour {
  key: string;
  similarity: number;
}

/** Rough per-item overhead (object, map slots, strings) on top of the vector's bytes. */
const ITEM_OVERHEAD_BYTES = 256;

export class VectorIndex {
  /** Every item by key, least recently used first. */
  readonly #items = new Map<string, Item>();
  readonly #partitions = new Map<string, Map<string, Item>>();
  #bytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  get size(): number {
    return this.#items.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  add(partition: string, key: string, vector: Float32Array, expiresAt: number): void {
    const bytes = vector.byteLength + ITEM_OVERHEAD_BYTES;
    if (bytes > this.maxBytes) return;
    this.delete(key);
    while (this.#items.size > 0 && (this.#items.size >= this.maxEntries || this.#bytes + bytes > this.maxBytes)) {
      this.delete(this.#items.keys().next().value!);
    }
    const item: Item = { key, partition, vector, expiresAt, bytes };
    this.#items.set(key, item);
    let members = this.#partitions.get(partition);
    if (!members) this.#partitions.set(partition, (members = new Map()));
    members.set(key, item);
    this.#bytes += bytes;
  }

  /** The most similar live item of the partition with similarity >= threshold. */
  nearest(partition: string, vector: Float32Array, threshold: number): Neighbour | undefined {
    const members = this.#partitions.get(partition);
    if (!members) return undefined;
    const now = this.now();
    let best: Item | undefined;
    let bestSimilarity = -Infinity;
    for (const item of members.values()) {
      if (item.expiresAt <= now) {
        this.delete(item.key);
        continue;
      }
      if (item.vector.length !== vector.length) continue; // another embedding model or size
      const similarity = dot(item.vector, vector);
      if (similarity > bestSimilarity) {
        bestSimilarity = similarity;
        best = item;
      }
    }
    if (!best || bestSimilarity < threshold) return undefined;
    this.#items.delete(best.key);
    this.#items.set(best.key, best);
    return { key: best.key, similarity: bestSimilarity };
  }

  delete(key: string): void {
    const item = this.#items.get(key);
    if (!item) return;
    this.#items.delete(key);
    const members = this.#partitions.get(item.partition);
    members?.delete(key);
    if (members?.size === 0) this.#partitions.delete(item.partition);
    this.#bytes -= item.bytes;
  }
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** A unit vector (cosine similarity becomes a dot product); undefined for a zero or invalid vector. */
export function unitVector(values: ArrayLike<number>): Float32Array | undefined {
  let norm = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v)) return undefined;
    norm += v * v;
  }
  if (values.length === 0 || norm === 0) return undefined;
  const scale = 1 / Math.sqrt(norm);
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = values[i]! * scale;
  return out;
}
