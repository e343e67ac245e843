/**
 * Record ids that sort by creation time: `<prefix><ms, 12 hex><sequence, 6 hex><random, 16 hex>`.
 * Lists page by id (`WHERE id < ?`), which needs no counter column and works in any SQL store.
 */
import { randomBytes } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

export function sortableId(prefix: string): string {
  const ms = Date.now();
  if (ms > lastMs) {
    lastMs = ms;
    sequence = 0;
  } else {
    sequence++;
  }
  return prefix + lastMs.toString(16).padStart(12, '0') + sequence.toString(16).padStart(6, '0') + randomBytes(8).toString('hex');
}
