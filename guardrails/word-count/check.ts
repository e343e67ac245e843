/** `default.wordCount`: passes when the number of words lies within [minWords, maxWords]. */
import { defineCheck, type Issue } from '../../core/index.js';
import { countWords } from './count.js';
import { WordCountParams } from './params.js';

export const wordCount = defineCheck({
  id: 'default.wordCount',
  params: WordCountParams,
  check(input, params) {
    const text = input.response ? input.response.text : input.request.text;
    const min = params.minWords ?? 0;
    const max = params.maxWords ?? 99999;
    const not = params.not === true;
    const count = countWords(text);
    const inRange = count >= min && count <= max;
    const verdict = inRange !== not;
    if (verdict) return { verdict, data: { wordCount: count } };
    return {
      verdict,
      data: { wordCount: count, explanation: `the text has ${count} word(s), ${inRange ? 'within' : 'outside'} ${min}-${max}` },
    };
  },
  validate(params: WordCountParams): Issue[] {
    return (params.minWords ?? 0) > (params.maxWords ?? 99999) ? [{ path: 'minWords', rule: 'must be <= maxWords' }] : [];
  },
});
