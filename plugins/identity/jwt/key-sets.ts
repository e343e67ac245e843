/**
 * The key set of each organisation, fetched with jose's remote JWKS (kept `cacheMaxAgeMs`, an
 * unknown `kid` refetches at most once per `cooldownMs`) through the gateway's transport, so the
 * outbound host policy judges the key server like any other host. One set per jwks_uri, made
 * again when the settings change.
 */
import type { JWTVerifyGetKey } from 'jose';
import type { Transport } from '../../../core/index.js';
import type { Jose } from './jose.js';

export interface KeySetOptions {
  cacheMaxAgeMs: number;
  cooldownMs: number;
  timeoutMs: number;
}

const MAX_JWKS_BYTES = 512 * 1024;

export class KeySets {
  #sets = new Map<string, JWTVerifyGetKey>();
  #generation = -1;

  constructor(private readonly transport: Transport, private readonly options: KeySetOptions) {}

  /** The key set of `uri` (made with `lib`, jose once imported); every set is dropped when the settings generation moved on. */
  of(lib: Jose, uri: string, generation: number): JWTVerifyGetKey {
    if (generation !== this.#generation) {
      this.#sets = new Map();
      this.#generation = generation;
    }
    let set = this.#sets.get(uri);
    if (!set) {
      set = lib.createRemoteJWKSet(new URL(uri), {
        cacheMaxAge: this.options.cacheMaxAgeMs,
        cooldownDuration: this.options.cooldownMs,
        timeoutDuration: this.options.timeoutMs,
        [lib.customFetch]: (url, init) => this.#fetch(url, init.signal),
      });
      this.#sets.set(uri, set);
    }
    return set;
  }

  /** A fetch for jose over the shared transport: no redirects, a bounded body. */
  async #fetch(url: string, signal: AbortSignal): Promise<Response> {
    const reply = await this.transport.send({ url, method: 'GET', headers: { accept: 'application/json' } }, signal);
    if (reply.status !== 200) {
      await reply.dump().catch(() => undefined);
      return new Response(null, { status: reply.status });
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of reply.body) {
      size += chunk.byteLength;
      if (size > MAX_JWKS_BYTES) {
        await reply.dump().catch(() => undefined);
        throw new Error(`the key set is larger than ${MAX_JWKS_BYTES} bytes`);
      }
      chunks.push(chunk);
    }
    return new Response(Buffer.concat(chunks), { status: 200, headers: { 'content-type': 'application/json' } });
  }
}
