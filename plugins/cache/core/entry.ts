/**
 * The stored form of an answer: one line of JSON metadata, then the answer's JSON bytes as the
 * provider (or the stream recorder) produced them. A hit reads only the small first line; the
 * answer's bytes are sent as they are, unparsed (unless a stream replay or a guardrail needs them).
 */

export interface EntryMeta {
  /** Format version: entries of another version are misses. */
  v: 1;
  /** Epoch milliseconds after which the entry is never served (the store's TTL may lag). */
  expires_at: number;
  created_at: number;
  /** Provider id that produced the answer. */
  provider?: string;
}

export interface Entry {
  meta: EntryMeta;
  /** The answer's JSON bytes (a view into the stored value: read only). */
  body: Uint8Array;
}

const NEWLINE = 10;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeEntry(meta: EntryMeta, body: Uint8Array | string): Uint8Array {
  // JSON.stringify never emits a raw newline, so the first one ends the metadata.
  const head = encoder.encode(JSON.stringify(meta) + '\n');
  const tail = typeof body === 'string' ? encoder.encode(body) : body;
  const out = new Uint8Array(head.byteLength + tail.byteLength);
  out.set(head, 0);
  out.set(tail, head.byteLength);
  return out;
}

/**
 * Entries already decoded, by stored value: a memory store hands out the same bytes on every hit,
 * so a hot entry's metadata is parsed once. Values from Redis are new each time and simply parse.
 */
const decoded = new WeakMap<Uint8Array, Entry | null>();

/** The entry, or undefined when it is malformed, of another version, or expired at `now`. */
export function decodeEntry(value: Uint8Array, now: number): Entry | undefined {
  let entry = decoded.get(value);
  if (entry === undefined) {
    entry = parseEntry(value) ?? null;
    decoded.set(value, entry);
  }
  return entry && entry.meta.expires_at > now ? entry : undefined;
}

function parseEntry(value: Uint8Array): Entry | undefined {
  const end = value.indexOf(NEWLINE);
  if (end <= 0) return undefined;
  let meta: EntryMeta;
  try {
    meta = JSON.parse(decoder.decode(value.subarray(0, end))) as EntryMeta;
  } catch {
    return undefined;
  }
  if (meta === null || typeof meta !== 'object' || meta.v !== 1 || typeof meta.expires_at !== 'number') return undefined;
  return { meta, body: value.subarray(end + 1) };
}
