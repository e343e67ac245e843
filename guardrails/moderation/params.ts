/**
 * Params of `default.moderation`: the text is classified by a provider's moderation endpoint
 * (`POST /moderations` in the OpenAI format, or the provider's own, through its adapter).
 */
import { Type, type Static } from '../../core/index.js';

export const ModerationParams = Type.Object({
  /** A loaded provider whose adapter serves the `moderate` endpoint (e.g. `openai`). */
  provider: Type.String({ minLength: 1, errorMessage: 'must be a provider id' }),
  /** The provider key; default the route config's own when it names the same provider. */
  api_key: Type.Optional(Type.String({ minLength: 1 })),
  custom_host: Type.Optional(Type.String({ pattern: '^https?://[^\\s/?#]+(?:[/?#]\\S*)?$', errorMessage: 'must be an http(s) URL' })),
  /** Moderation model (provider default when absent). */
  model: Type.Optional(Type.String({ minLength: 1 })),
  /** Categories that fail the check (default: any category the provider flags). */
  categories: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
  /** Per-category score thresholds in [0, 1]: a score at or above fails, whatever the provider's flag. */
  thresholds: Type.Optional(Type.Record(Type.String(), Type.Number({ minimum: 0, maximum: 1 }))),
  /** Milliseconds to wait for the moderation answer. */
  timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: 120000, default: 10000 })),
}, { additionalProperties: false });

export type ModerationParams = Static<typeof ModerationParams>;
