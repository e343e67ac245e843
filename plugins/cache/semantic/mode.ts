/**
 * The `semantic` cache mode: an exact lookup first (HIT), then the nearest stored conversation of
 * the same partition by cosine similarity of embeddings, at or above the threshold (SEMANTIC HIT).
 * The request's embedding is computed at most once (kept in `request.modeState` for the write);
 * an embeddings failure is a miss with a (rate-limited) warning, never an error.
 */
import type { CacheMode, CacheRequest } from '../../../core/index.js';
import { conversationText, partitionOf } from './conversation.js';
import type { EmbeddingsClient } from './embeddings.js';
import type { VectorIndex } from './vector-index.js';

export interface SemanticDeps {
  readonly embeddings: EmbeddingsClient;
  readonly index: VectorIndex;
  readonly threshold: number;
  readonly maxTextChars: number;
  readonly warn: (error: unknown, message: string) => void;
  readonly now: () => number;
}

interface SemanticState {
  partition: string;
  /** null: no text to embed, or the embeddings call failed (not retried for this request). */
  vector?: Float32Array | null;
}

export function semanticMode(deps: SemanticDeps): CacheMode {
  const stateOf = (request: CacheRequest): SemanticState =>
    (request.modeState as SemanticState | undefined) ?? (request.modeState = { partition: partitionOf(request) });

  const embeddingOf = async (request: CacheRequest): Promise<Float32Array | null> => {
    const state = stateOf(request);
    if (state.vector !== undefined) return state.vector;
    const text = conversationText(request, deps.maxTextChars);
    if (text === undefined) return (state.vector = null);
    try {
      return (state.vector = await deps.embeddings.embed(text, request.attempt));
    } catch (e) {
      deps.warn(e, 'semantic cache: embeddings failed, answering as a miss');
      return (state.vector = null);
    }
  };

  return {
    mode: 'semantic',
    async lookup(request, store) {
      const exact = await store.get(request.key);
      if (exact) return { status: 'HIT', value: exact };
      const vector = await embeddingOf(request);
      if (!vector) return undefined;
      const near = deps.index.nearest(stateOf(request).partition, vector, deps.threshold);
      if (!near) return undefined;
      const value = await store.get(near.key);
      if (!value) {
        deps.index.delete(near.key); // evicted or expired in the store
        return undefined;
      }
      return { status: 'SEMANTIC HIT', value };
    },
    async save(request, value, store) {
      await store.set(request.key, value, request.maxAgeSeconds);
      const vector = await embeddingOf(request);
      if (vector) deps.index.add(stateOf(request).partition, request.key, vector, deps.now() + request.maxAgeSeconds * 1000);
    },
  };
}
