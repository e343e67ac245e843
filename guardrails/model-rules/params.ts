/**
 * Params of `default.modelRules`: which models a request may use, by its metadata.
 * `rules.metadata[key][value]` lists the models allowed when metadata `key` equals `value`;
 * `rules.defaults` applies when no metadata rule matched.
 */
import { Type, type Static } from '../../core/index.js';

const Models = Type.Array(Type.String({ minLength: 1, errorMessage: 'must be a non-empty string' }));

export const ModelRulesParams = Type.Object({
  rules: Type.Object({
    defaults: Type.Optional(Models),
    metadata: Type.Optional(Type.Record(Type.String(), Type.Record(Type.String(), Models))),
  }, { additionalProperties: false }),
  /** Inverts the verdict: the resolved list becomes a block list. */
  not: Type.Optional(Type.Boolean({ default: false })),
}, { additionalProperties: false });

export type ModelRulesParams = Static<typeof ModelRulesParams>;
