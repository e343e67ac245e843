/**
 * Close codes passed from one side of a session to the other. Codes a peer may send are passed
 * as they came, with their reason; the two that only describe what happened locally cannot be
 * sent: 1005 (no code) closes without one, 1006 (the connection dropped) becomes 1001 towards an
 * upstream (the client went away) and 1014 towards a client (bad gateway: the upstream is gone).
 */
export const GOING_AWAY = 1001;
export const TOO_BIG = 1009;
export const BAD_GATEWAY = 1014;
const NO_STATUS = 1005;
const ABNORMAL = 1006;

/** ws refuses to send anything else. */
function sendable(code: number): boolean {
  return (code >= 1000 && code <= 1014 && code !== 1004 && code !== NO_STATUS && code !== ABNORMAL) || (code >= 3000 && code <= 4999);
}

export interface CloseFrame {
  code?: number;
  reason?: string;
}

/** What to send one side after the other closed with `code` and `reason`. */
export function passedOn(code: number, reason: Buffer, towards: 'client' | 'upstream'): CloseFrame {
  if (code === NO_STATUS) return {};
  if (code === ABNORMAL || !sendable(code)) {
    return towards === 'client'
      ? { code: BAD_GATEWAY, reason: 'upstream connection lost' }
      : { code: GOING_AWAY, reason: 'client went away' };
  }
  return { code, reason: fitReason(reason.toString('utf8')) };
}

/** A close reason is at most 123 bytes of UTF-8. */
export function fitReason(reason: string): string {
  if (Buffer.byteLength(reason) <= 123) return reason;
  let cut = reason.slice(0, 120);
  while (Buffer.byteLength(cut) > 120) cut = cut.slice(0, -1);
  return cut + '...';
}
