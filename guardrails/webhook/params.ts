/**
 * Params of `default.webhook`: a check decided by an HTTP service of your own (or a third party's).
 * Give `webhookURL`, or `apiDomain` (the third-party kind, v1.15.0): a host (https assumed) or a URL.
 */
import { Type, type Static } from '../../core/index.js';

const HttpUrl = Type.String({ pattern: '^https?://[^\\s/?#]+(?:[/?#]\\S*)?$', errorMessage: 'must be an http(s) URL' });

export const WebhookParams = Type.Object({
  webhookURL: Type.Optional(HttpUrl),
  apiDomain: Type.Optional(Type.String({ minLength: 1, pattern: '^\\S+$', errorMessage: 'must be a host name or an http(s) URL' })),
  /** Extra request headers (e.g. an authorization for the service), as an object or a JSON string. */
  headers: Type.Optional(Type.Union([Type.Record(Type.String(), Type.String()), Type.String()], { errorMessage: 'must be an object of strings or a JSON string' })),
  /** Milliseconds to wait for the answer (v1.12.0 default). */
  timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: 120000, default: 10000 })),
  /** Sent along so one service can serve several policies. */
  policyId: Type.Optional(Type.String({ minLength: 1 })),
  /** Fail closed: an unreachable, failing or malformed webhook fails the check (v1.15.0 default). */
  deny: Type.Optional(Type.Boolean({ default: true })),
}, { additionalProperties: false });

export type WebhookParams = Static<typeof WebhookParams>;
