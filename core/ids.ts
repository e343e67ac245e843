/**
 * Record ids that sort by creation time, so listings ordered (or paged) by id follow creation order.
 * One counter per process is enough: ids only need to grow, not to be dense.
 */
import { randomBytes } from 'node:crypto';

let uuidLastMs = 0;
let uuidSequence = 0;

/**
 * UUID version 7 (RFC 9562); a counter in the 12 `rand_a` bits keeps ids made within one
 * millisecond in order too.
 */
export function timeOrderedId(): string {
  let ms = Date.now();
  if (ms <= uuidLastMs) {
    ms = uuidLastMs;
    if (++uuidSequence > 0xfff) {
      ms = ++uuidLastMs;
      uuidSequence = 0;
    }
  } else {
    uuidSequence = 0;
  }
  uuidLastMs = ms;
  const bytes = randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (uuidSequence >> 8);
  bytes[7] = uuidSequence & 0xff;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

let sortableLastMs = 0;
let sortableSequence = 0;

/**
 * `<prefix><ms, 12 hex><sequence, 6 hex><random, 16 hex>`. Lists page by id (`WHERE id < ?`),
 * which needs no counter column and works in any SQL store.
 */
export function sortableId(prefix: string): string {
  const ms = Date.now();
  if (ms > sortableLastMs) {
    sortableLastMs = ms;
    sortableSequence = 0;
  } else {
    sortableSequence++;
  }
  return prefix + sortableLastMs.toString(16).padStart(12, '0') + sortableSequence.toString(16).padStart(6, '0') + randomBytes(8).toString('hex');
}
