/** Params of `default.notNull`. */
import { Type, type Static } from '../../core/index.js';

export const NotNullParams = Type.Object({
  not: Type.Optional(Type.Boolean({ default: false })),
}, { additionalProperties: false });

export type NotNullParams = Static<typeof NotNullParams>;
