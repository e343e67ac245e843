/** Counts the bytes passing through a pipeline and stops it with 413 past `maxBytes`. */
import { Errors } from '../../../core/index.js';

export function countBytes(maxBytes?: number): {
  transform: (chunks: AsyncIterable<Uint8Array | string>) => AsyncGenerator<Uint8Array>;
  bytes: () => number;
} {
  let bytes = 0;
  return {
    transform: async function* (chunks) {
      for await (const chunk of chunks) {
        const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
        bytes += buffer.byteLength;
        if (maxBytes !== undefined && bytes > maxBytes) throw Errors.payloadTooLarge(maxBytes);
        yield buffer;
      }
    },
    bytes: () => bytes,
  };
}
