/** Params of `lasso.classify` (v1.14.0): Lasso Security's classifier, called over HTTP. */
import { Type, type Static } from '../../core/index.js';

export const LASSO_BASE_URL = 'https://server.lasso.security';

export const LassoClassifyParams = Type.Object({
  api_key: Type.String({ minLength: 1, errorMessage: 'must be a non-empty string (the Lasso API key)' }),
  /** Base URL of the Lasso API (a regional or private deployment); default the public one. */
  apiEndpoint: Type.Optional(Type.String({ pattern: '^https?://[^\\s/?#]+(?:[/?#]\\S*)?$', errorMessage: 'must be an http(s) URL' })),
  conversationId: Type.Optional(Type.String({ minLength: 1 })),
  userId: Type.Optional(Type.String({ minLength: 1 })),
  /** Milliseconds to wait for the classification. */
  timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: 120000, default: 10000 })),
}, { additionalProperties: false });

export type LassoClassifyParams = Static<typeof LassoClassifyParams>;
