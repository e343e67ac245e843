/**
 * `default.contains`: `any` passes when at least one word occurs, `all` when every word does,
 * `none` when no word does. Words are substrings; lower-cased once per params object when
 * `caseSensitive` is false.
 */
import { defineCheck } from '../../core/index.js';
import { ContainsParams } from './params.js';

const lowered = new WeakMap<ContainsParams, readonly string[]>();

function needles(params: ContainsParams): readonly string[] {
  if (params.caseSensitive !== false) return params.words;
  let words = lowered.get(params);
  if (!words) {
    words = params.words.map((w) => w.toLowerCase());
    lowered.set(params, words);
  }
  return words;
}

export const contains = defineCheck({
  id: 'default.contains',
  params: ContainsParams,
  check(input, params) {
    const raw = input.response ? input.response.text : input.request.text;
    const text = params.caseSensitive === false ? raw.toLowerCase() : raw;
    const operator = params.operator ?? 'any';
    const words = needles(params);
    const found: string[] = [];
    for (let i = 0; i < words.length; i++) if (text.includes(words[i]!)) found.push(params.words[i]!);
    const verdict = operator === 'any' ? found.length > 0 : operator === 'all' ? found.length === words.length : found.length === 0;
    const missing = params.words.filter((w) => !found.includes(w));
    if (verdict) return { verdict, data: { found, missing } };
    return {
      verdict,
      data: { found, missing, explanation: `${found.length} of ${words.length} word(s) found; operator "${operator}" failed` },
    };
  },
});
