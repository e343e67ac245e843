/** Params of `default.inlineImageUrls` (v1.12.1): the image URLs of a request are reachable images of a bounded size. */
import { Type, type Static } from '../../core/index.js';

export const InlineImageUrlsParams = Type.Object({
  /** Only for these providers (default: every provider). */
  providers: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  maxSizeBytes: Type.Optional(Type.Integer({ minimum: 1, default: 20 * 1024 * 1024 })),
  /** Milliseconds for each image (images are fetched in parallel). */
  timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 300000, default: 30000 })),
  /**
   * The runner's budget for the whole check (ms; its own default would be shorter than timeoutMs).
   * Each image gets at most this budget minus a small margin.
   */
  timeout: Type.Optional(Type.Integer({ minimum: 1, default: 31000 })),
  /** Fail the check when an image has a problem; by default problems are only reported. */
  failOnError: Type.Optional(Type.Boolean({ default: false })),
}, { additionalProperties: false });

export type InlineImageUrlsParams = Static<typeof InlineImageUrlsParams>;
