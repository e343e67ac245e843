/**
 * Random UUIDs made cheaply enough for one or two per request, and record ids that sort by
 * creation time, so listings ordered (or paged) by id follow creation order. One counter per
 * process is enough: ids only need to grow, not to be dense.
 */
import { randomBytes, randomFillSync } from 'node:crypto';

const UUIDS_PER_FILL = 128;
const UUID_LENGTH = 36;
/** Byte → its two lower-case hex digits as ASCII codes. */
const HEX_CODES = new Uint8Array(512);
for (let b = 0; b < 256; b++) {
  HEX_CODES[2 * b] = '0123456789abcdef'.charCodeAt(b >> 4);
  HEX_CODES[2 * b + 1] = '0123456789abcdef'.charCodeAt(b & 15);
}
const uuidRandom = Buffer.allocUnsafe(16 * UUIDS_PER_FILL);
const uuidText = Buffer.allocUnsafe(UUID_LENGTH * UUIDS_PER_FILL);
let nextUuid = UUIDS_PER_FILL;

/**
 * A random (version 4) UUID, as `crypto.randomUUID()` makes one, but each id is one flat string
 * cut from text written 128 ids at a time: randomUUID joins 20 partial strings per id.
 */
export function randomUuid(): string {
  if (nextUuid === UUIDS_PER_FILL) fillUuids();
  const at = UUID_LENGTH * nextUuid++;
  return uuidText.toString('latin1', at, at + UUID_LENGTH);
}

function fillUuids(): void {
  randomFillSync(uuidRandom);
  let t = 0;
  for (let n = 0; n < UUIDS_PER_FILL; n++) {
    const r = 16 * n;
    uuidRandom[r + 6] = (uuidRandom[r + 6]! & 0x0f) | 0x40; // version 4
    uuidRandom[r + 8] = (uuidRandom[r + 8]! & 0x3f) | 0x80; // variant 10
    for (let i = 0; i < 16; i++) {
      if (i === 4 || i === 6 || i === 8 || i === 10) uuidText[t++] = 0x2d; // '-'
      const code = 2 * uuidRandom[r + i]!;
      uuidText[t++] = HEX_CODES[code]!;
      uuidText[t++] = HEX_CODES[code + 1]!;
    }
  }
  nextUuid = 0;
}

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
