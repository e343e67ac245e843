/**
 * Body of POST /rerank (spec §4.4, limits §8). The spec leaves the names of the optional fields
 * open; these follow Cohere's rerank API, the de-facto wire format of rerank endpoints.
 * Adapters build provider bodies field by field, so unknown fields are not passed on: provider
 * specific ones go in `provider_params`.
 */
import { Type, type Issue, type Static } from '../../../../core/schema.js';
import { compileBody, Model } from './common.js';

// A document object carries its text and any metadata (other keys are kept, e.g. for rank_fields).
const DocumentObject = Type.Object({ text: Type.String() });

const Document = Type.Union([Type.String(), DocumentObject], {
  errorMessage: 'must be a string or an object with a string "text"',
});

export const schema = Type.Object({
  model: Model,
  query: Type.String({ minLength: 1 }),
  documents: Type.Array(Document, { minItems: 1 }),
  /** All documents are ranked and returned when absent. */
  top_n: Type.Optional(Type.Integer({ minimum: 1 })),
  /** Whether results carry `document.text`; default true. */
  return_documents: Type.Optional(Type.Boolean()),
  max_tokens_per_doc: Type.Optional(Type.Integer({ minimum: 1 })),
  /** Keys of document objects to rank by, in order. */
  rank_fields: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  /** Truncate over-long documents instead of failing. */
  truncate: Type.Optional(Type.Boolean()),
  /** Request priority hint, passed to providers that take one. */
  priority: Type.Optional(Type.Integer()),
  /** Provider-specific fields, merged into the provider's request body. */
  provider_params: Type.Optional(Type.Object({})),
});

export type RerankBody = Static<typeof schema>;

const validator = compileBody(schema);

export function validate(body: unknown): Issue[] {
  return validator.check(body) ? [] : validator.issues(body);
}
