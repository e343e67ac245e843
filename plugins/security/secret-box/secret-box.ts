/**
 * AES-256-GCM for small secrets at rest (provider keys inside stored batch configs, stored
 * credentials). Sealed format: `v1:<iv>:<tag>:<ciphertext>`, each part base64url; a fresh 96-bit
 * IV per seal. An optional context (e.g. the owning record's id) is bound as associated data, so a
 * sealed value copied onto another record does not open there.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretBox } from '../../../core/index.js';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const KEY_BYTES = 32;

export class AesGcmSecretBox implements SecretBox {
  readonly #key: Buffer;

  constructor(key: Uint8Array) {
    if (key.byteLength !== KEY_BYTES) throw new Error(`secret box key must be ${KEY_BYTES} bytes, got ${key.byteLength}`);
    this.#key = Buffer.from(key);
  }

  encrypt(plaintext: string, context?: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv, { authTagLength: TAG_BYTES });
    if (context !== undefined) cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return `${VERSION}:${iv.toString('base64url')}:${tag.toString('base64url')}:${ciphertext.toString('base64url')}`;
  }

  decrypt(sealed: string, context?: string): string {
    const parts = sealed.split(':');
    if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretBoxError('not a sealed value (expected v1:<iv>:<tag>:<ciphertext>)');
    const iv = Buffer.from(parts[1]!, 'base64url');
    const tag = Buffer.from(parts[2]!, 'base64url');
    if (iv.byteLength !== IV_BYTES || tag.byteLength !== TAG_BYTES) throw new SecretBoxError('malformed sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, iv, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(tag);
    if (context !== undefined) decipher.setAAD(Buffer.from(context, 'utf8'));
    try {
      return Buffer.concat([decipher.update(Buffer.from(parts[3]!, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      // GCM's tag check failed: another key, another context, or altered bytes. Never say which.
      throw new SecretBoxError('cannot open sealed value: wrong key or tampered data');
    }
  }
}

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}
