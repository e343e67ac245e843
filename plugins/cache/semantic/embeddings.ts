/**
 * The embeddings client of the semantic cache: builds the request with a loaded provider's
 * `embed` endpoint adapter (so any provider with embeddings will do) and sends it through the
 * shared transport, bounded by its own time-out and by the client's signal.
 */
import {
  JsonPayload,
  type AdapterInput, type Attempt, type EndpointDef, type Registries, type Target, type Transport,
} from '../../../core/index.js';
import { unitVector } from './vector-index.js';

export interface EmbeddingsSettings {
  provider: string;
  api_key?: string;
  custom_host?: string;
  model: string;
  dimensions?: number;
  timeoutMs: number;
}

/** Used when the embeddings route is not loaded; adapters read only its id. */
const EMBED_ENDPOINT: EndpointDef = { id: 'embed', validate: () => [], streamable: false };

export class EmbeddingsClient {
  readonly #target: Target;

  constructor(
    private readonly settings: EmbeddingsSettings,
    private readonly registries: Registries,
    private readonly transport: () => Transport,
  ) {
    const target: Record<string, unknown> = { provider: settings.provider };
    if (settings.api_key !== undefined) target['api_key'] = settings.api_key;
    if (settings.custom_host !== undefined) target['custom_host'] = settings.custom_host;
    Object.defineProperty(target, '$path', { value: 'cache.semantic.embeddings', enumerable: false });
    this.#target = Object.freeze(target) as Target;
  }

  /** The text's embedding as a unit vector. Throws when the provider cannot give one. */
  async embed(text: string, attempt: Attempt): Promise<Float32Array> {
    const adapter = this.registries.providers.get(this.settings.provider);
    const endpoint = adapter?.endpoints['embed'];
    if (!endpoint) throw new Error(`provider "${this.settings.provider}" is not loaded or has no embeddings endpoint`);
    const body: Record<string, unknown> = { model: this.settings.model, input: text };
    if (this.settings.dimensions !== undefined) body['dimensions'] = this.settings.dimensions;
    const def = this.registries.endpoints.get('embed') ?? EMBED_ENDPOINT;
    const signal = AbortSignal.any([attempt.signal, AbortSignal.timeout(this.settings.timeoutMs)]);
    const embedAttempt: Attempt = { ctx: attempt.ctx, endpoint: def, target: this.#target, body, headers: {}, stream: false, signal, retry: 0 };
    const input: AdapterInput = { attempt: embedAttempt, target: this.#target, endpoint: def, body, stream: false };
    const request = await endpoint.request(input);
    const reply = await this.transport().send(request, signal);
    if (reply.status !== 200) {
      await reply.dump().catch(() => undefined);
      throw new Error(`embeddings answered ${reply.status}`);
    }
    let payload = JsonPayload.fromBytes(await reply.bytes());
    if (endpoint.response) payload = endpoint.response(payload, input);
    const vector = readEmbedding(payload.value);
    if (!vector) throw new Error('embeddings answer holds no usable vector');
    return vector;
  }
}

/** `data[0].embedding`: an array of numbers, or base64 little-endian float32 (encoding_format base64). */
function readEmbedding(answer: unknown): Float32Array | undefined {
  const data = (answer as { data?: { embedding?: unknown }[] } | null)?.data;
  const embedding = Array.isArray(data) ? data[0]?.embedding : undefined;
  if (Array.isArray(embedding)) return embedding.every((x) => typeof x === 'number') ? unitVector(embedding as number[]) : undefined;
  if (typeof embedding === 'string') {
    const bytes = Buffer.from(embedding, 'base64');
    if (bytes.byteLength === 0 || bytes.byteLength % 4 !== 0) return undefined;
    const floats = new Float32Array(bytes.byteLength / 4);
    for (let i = 0; i < floats.length; i++) floats[i] = bytes.readFloatLE(i * 4);
    return unitVector(floats);
  }
  return undefined;
}
