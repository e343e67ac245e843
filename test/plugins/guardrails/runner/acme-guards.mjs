// acme-guards.mjs: block mentions of competitors, redact internal project code names.
import { defineCheck, defineGuardrailPlugin, Type } from 'gw';

const Words = Type.Array(Type.String({ pattern: '^[\\w -]+$' }), { minItems: 1 });
const patterns = new WeakMap(); // params are validated once per config: compile once per params too
const anyOf = (words) => patterns.get(words) ?? patterns.set(words, new RegExp(`\\b(?:${words.join('|')})\\b`, 'gi')).get(words);
const textOf = (input) => (input.response ?? input.request).text;

export const noCompetitors = defineCheck({
  id: 'acme.noCompetitors',
  params: Type.Object({ names: Words }),
  check(input, { names }) {
    const found = textOf(input).match(anyOf(names)) ?? [];
    return { verdict: found.length === 0, data: { found } };
  },
});

export const redactCodeNames = defineCheck({
  id: 'acme.redactCodeNames',
  params: Type.Object({ codeNames: Words, replacement: Type.String({ default: '[internal project]' }) }),
  check: (input, { codeNames, replacement }) => ({ verdict: true, transformedText: textOf(input).replace(anyOf(codeNames), replacement) }),
});

export default defineGuardrailPlugin({ id: 'acme.guards', checks: [noCompetitors, redactCodeNames] });
