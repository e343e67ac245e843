/** Params of `default.validUrls`: every http(s) URL in the text resolves (onlyDNS) or answers. */
import { Type, type Static } from '../../core/index.js';

export const ValidUrlsParams = Type.Object({
  /** Only check that each host name resolves (much faster; no request is made). */
  onlyDNS: Type.Optional(Type.Boolean({ default: false })),
  /** Milliseconds to wait for each URL. */
  timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: 60000, default: 3000 })),
  not: Type.Optional(Type.Boolean({ default: false })),
}, { additionalProperties: false });

export type ValidUrlsParams = Static<typeof ValidUrlsParams>;
