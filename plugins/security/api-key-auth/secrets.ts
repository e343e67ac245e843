/**
 * Key secrets: random 256-bit values, stored only as SHA-256 hashes (a fast hash is enough for
 * random secrets; lookup is by hash, so no secret comparison leaks timing).
 */
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../../core/index.js';

export const DEFAULT_PREFIX = 'gw-';

export function hashKey(secret: string): string {
  return sha256Hex(secret);
}

/** A new secret; `prefix` comes from env API_KEY_PREFIX (air-gapped installs tell their keys apart). */
export function generateSecret(prefix = DEFAULT_PREFIX): string {
  return prefix + randomBytes(32).toString('base64url');
}
