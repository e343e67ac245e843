/**
 * Where the secret box key comes from: `GW_SECRET_KEY` (32 bytes as base64/base64url or hex), or a
 * key generated once into `<dataDir>/secret.key` (mode 0600). Several instances sharing a record
 * store must share the key, so they set GW_SECRET_KEY.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { KEY_BYTES } from './secret-box.js';

const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const BASE64_KEY = /^[A-Za-z0-9+/_-]{43}=?$/;

/** Parses a key as written in the env or the key file; throws with the rule it breaks. */
export function parseKey(text: string, source: string): Buffer {
  const value = text.trim();
  const key = HEX_KEY.test(value) ? Buffer.from(value, 'hex') : BASE64_KEY.test(value) ? Buffer.from(value, 'base64') : undefined;
  if (!key || key.byteLength !== KEY_BYTES) {
    throw new Error(`${source} must be ${KEY_BYTES} bytes written as base64 (43-44 characters) or hex (64 characters)`);
  }
  return key;
}

export interface LoadedKey {
  key: Buffer;
  /** Set when the key file can be read by group or others. */
  warning?: string;
}

/** Reads the key file, or creates it (exclusively, mode 0600) when it does not exist yet. */
export async function loadOrCreateKeyFile(file: string): Promise<LoadedKey> {
  try {
    return await readKeyFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  await mkdir(dirname(file), { recursive: true });
  const key = randomBytes(KEY_BYTES);
  try {
    await writeFile(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
    return { key };
  } catch (e) {
    // Another process created it first: use theirs.
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return readKeyFile(file);
    throw e;
  }
}

async function readKeyFile(file: string): Promise<LoadedKey> {
  const text = await readFile(file, 'utf8');
  const key = parseKey(text, `key file ${file}`);
  const mode = (await stat(file)).mode & 0o777;
  const warning = (mode & 0o077) !== 0 ? `key file ${file} has mode ${mode.toString(8)}; it should be 600 (readable by its owner only)` : undefined;
  return { key, warning };
}
