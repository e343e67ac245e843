/** Params of `default.jsonSchema`: the JSON in the text is valid against `schema` (not, with `not`). */
import { Type, type Static } from '../../core/index.js';

export const JsonSchemaParams = Type.Object({
  /** A JSON Schema (draft-07 by default; 2020-12 when its `$schema` says so). */
  schema: Type.Object({}, { errorMessage: 'must be a JSON Schema object' }),
  not: Type.Optional(Type.Boolean({ default: false })),
}, { additionalProperties: false });

export type JsonSchemaParams = Static<typeof JsonSchemaParams>;
