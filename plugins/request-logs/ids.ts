/**
 * Log ids: UUIDv7 (RFC 9562), the request's start in milliseconds then random bits. Time-ordered
 * ids are appended at the end of the primary-key index instead of landing on a random page, which
 * makes a row's insert several times cheaper on a large table; they also sort like `created_at`.
 */
import { randomUUID } from 'node:crypto';

export function uuidv7(ms: number): string {
  // A v4 UUID supplies the random bits and the variant; the first 48 bits become the time, then version 7.
  const random = randomUUID();
  const time = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0').slice(-12);
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15)}`;
}
