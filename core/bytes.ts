/**
 * Bytes as a Buffer without copying: itself when it is one (what sockets and undici hand over),
 * else a Buffer view of the same memory. Making a view costs an object; most bodies need none.
 */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The bytes decoded as UTF-8. */
export function utf8Of(bytes: Uint8Array): string {
  return asBuffer(bytes).toString('utf8');
}
