/**
 * `default.characterCount`: passes when the number of characters lies within [minCharacters,
 * maxCharacters]. Characters are Unicode code points (an emoji counts once, not as two UTF-16 units).
 */
import { defineCheck, type Issue } from '../../core/index.js';
import { CharacterCountParams } from './params.js';

export const characterCount = defineCheck({
  id: 'default.characterCount',
  params: CharacterCountParams,
  check(input, params) {
    const text = input.response ? input.response.text : input.request.text;
    const min = params.minCharacters ?? 0;
    const max = params.maxCharacters ?? 9999999;
    const not = params.not === true;
    const count = countCodePoints(text);
    const inRange = count >= min && count <= max;
    const verdict = inRange !== not;
    if (verdict) return { verdict, data: { characterCount: count } };
    return {
      verdict,
      data: { characterCount: count, explanation: `the text has ${count} character(s), ${inRange ? 'within' : 'outside'} ${min}-${max}` },
    };
  },
  validate(params: CharacterCountParams): Issue[] {
    return (params.minCharacters ?? 0) > (params.maxCharacters ?? 9999999) ? [{ path: 'minCharacters', rule: 'must be <= maxCharacters' }] : [];
  },
});

/** UTF-16 length minus the low halves of surrogate pairs. */
export function countCodePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
      const prev = text.charCodeAt(i - 1);
      if (prev >= 0xd800 && prev <= 0xdbff) count--;
    }
  }
  return count;
}
