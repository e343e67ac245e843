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

/** The entry, or undefined when it is malformed, of another version, or expired at `now`. */
export function decodeEntry(value: Uint8Array, now: number): Entry | undefined {
  const end = value.indexOf(NEWLINE);
  if (end <= 0) return undefined;
  let meta: EntryMeta;
  try {
    meta = JSON.parse(decoder.decode(value.subarray(0, end))) as EntryMeta;
  } catch {
    return undefined;
  }
  if (meta === null || typeof meta !== 'object' || meta.v !== 1 || !(typeof meta.expires_at === 'number' && meta.expires_at > now)) return undefined;
  return { meta, body: value.subarray(end + 1) };
}
