/**
 * What a secret manager back end is to the plugin: the schema of its `manager_config`, which of
 * its fields are secrets (sealed at rest, never answered), the rule for `secret_path`, and the one
 * call that fetches a secret over the shared transport.
 */
import type { ServiceAccountTokens, Transport, UpstreamReply, Validator } from '../../../../core/index.js';

export type ManagerConfig = Readonly<Record<string, unknown>>;

/** A fetched secret: a key/value map (Vault's data), or text (AWS SecretString, GCP payload, env). */
export type FetchedSecret = { kind: 'map'; value: Readonly<Record<string, unknown>> } | { kind: 'text'; value: string };

export interface FetchContext {
  transport: Transport;
  /** Ends the call when the manager takes longer than the plugin's `timeoutMs`. */
  signal: AbortSignal;
  /** Google service-account tokens (gcp_secret_manager). */
  tokens: Pick<ServiceAccountTokens, 'token'>;
  env: Readonly<Record<string, string | undefined>>;
}

export interface SecretManager {
  readonly id: string;
  readonly config: Validator<unknown>;
  /** manager_config fields that are secrets. */
  readonly secretFields: readonly string[];
  /** Why `secret_path` is not one this manager can name, or undefined when it is fine. */
  pathProblem(path: string, options: { envPrefix: string }): string | undefined;
  /** Checks beyond the schema (a private key that parses ...); a rule for the named field. */
  configProblem?(config: ManagerConfig): { field: string; rule: string } | undefined;
  fetch(config: ManagerConfig, path: string, ctx: FetchContext): Promise<FetchedSecret>;
}

/**
 * Why a manager did not give the secret, in words safe to answer: a status, an error type, never
 * the manager's answer body or the secret.
 */
export class SecretFetchError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SecretFetchError';
  }
}

/** Answers above this size are not secrets: refused without being read further. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** The reply's body parsed as JSON (undefined when it is not JSON), read up to 1 MB. */
export async function jsonOf(reply: UpstreamReply): Promise<unknown> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of reply.body) {
    size += chunk.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reply.dump().catch(() => undefined);
      throw new SecretFetchError(`answered more than ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export const HTTP_URL_PATTERN = '^https?://[^\\s/?#]+(?:/[^\\s?#]*)?$';

/** A base URL without its trailing slashes. */
export function baseOf(url: string): string {
  return url.replace(/\/+$/, '');
}
