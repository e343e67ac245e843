/**
 * Record ids: UUID version 7 (RFC 9562), time-ordered, so listings sorted by id follow creation
 * order; a counter in the 12 `rand_a` bits keeps ids made within one millisecond in order too.
 */
import { randomBytes } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

export function timeOrderedId(): string {
  let ms = Date.now();
  if (ms <= lastMs) {
    ms = lastMs;
    if (++sequence > 0xfff) {
      ms = ++lastMs;
      sequence = 0;
    }
  } else {
    sequence = 0;
  }
  lastMs = ms;
  const bytes = randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
