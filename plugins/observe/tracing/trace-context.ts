/**
 * W3C Trace Context: the `traceparent` header (version 00), and ids in its shape. Gateway trace ids
 * may be any string (x-gw-trace-id); a W3C trace id is 32 lowercase hex digits, so a UUID loses
 * its dashes and any other id is hashed (stable: the same x-gw-trace-id always maps the same way).
 */
import { randomFillSync } from 'node:crypto';
import { sha256Hex } from '../../../core/index.js';

export interface TraceParent {
  traceId: string;
  parentId: string;
  flags: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const HEX32 = /^[0-9a-f]{32}$/;
const HEX16 = /^[0-9a-f]{16}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** A valid traceparent, or undefined (an invalid one is ignored, as the W3C spec asks). */
export function parseTraceparent(header: string | undefined): TraceParent | undefined {
  if (header === undefined || header.length > 512) return undefined;
  const m = TRACEPARENT.exec(header.trim().toLowerCase());
  if (!m) return undefined;
  const [, version, traceId, parentId, flags, rest] = m;
  // Version ff is forbidden; version 00 has exactly four fields; later versions may add fields.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (traceId === ZERO_TRACE || parentId === ZERO_SPAN) return undefined;
  return { traceId: traceId!, parentId: parentId!, flags: flags! };
}

export function formatTraceparent(traceId: string, spanId: string, flags: string): string {
  return `00-${traceId}-${spanId}-${flags}`;
}

export function isSampled(flags: string): boolean {
  return (parseInt(flags, 16) & 1) === 1;
}

/** A 16-hex span id, or undefined. */
export function asSpanId(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const v = value.toLowerCase();
  return HEX16.test(v) && v !== ZERO_SPAN ? v : undefined;
}

/** The W3C form of a gateway trace id. */
export function w3cTraceId(id: string): string {
  if (id.length === 36 && id[8] === '-' && id[13] === '-' && id[18] === '-' && id[23] === '-') {
    // The common case (generated trace ids): a lowercase UUID loses its dashes, nothing more.
    const hex = id.slice(0, 8) + id.slice(9, 13) + id.slice(14, 18) + id.slice(19, 23) + id.slice(24);
    if (HEX32.test(hex) && hex !== ZERO_TRACE) return hex;
  }
  const lower = id.toLowerCase();
  if (HEX32.test(lower) && lower !== ZERO_TRACE) return lower;
  if (UUID.test(lower)) {
    const hex = lower.replaceAll('-', '');
    if (hex !== ZERO_TRACE) return hex;
  }
  return sha256Hex(id).slice(0, 32);
}

// Span ids from a pooled random buffer: one random fill per 512 ids instead of one per id.
const pool = Buffer.allocUnsafe(4096);
let offset = pool.length;

export function newSpanId(): string {
  if (offset + 8 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const id = pool.toString('hex', offset, offset + 8);
  offset += 8;
  return id === ZERO_SPAN ? newSpanId() : id;
}
