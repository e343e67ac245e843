/** The optional bearer token of `GET /metrics` (GW_METRICS_TOKEN), compared in constant time. */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** A checker for `authorization: Bearer <token>`; without a token every scrape is allowed. */
export function bearerCheck(token: string | undefined): (authorization: string | undefined) => boolean {
  if (!token) return () => true;
  const expected = digest(token);
  return (authorization) => {
    const match = authorization === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match !== null && timingSafeEqual(digest(match[1]!), expected);
  };
}
