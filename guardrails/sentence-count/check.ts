/** `default.sentenceCount`: passes when the number of sentences lies within [minSentences, maxSentences]. */
import { defineCheck, type Issue } from '../../core/index.js';
import { countSentences } from './count.js';
import { SentenceCountParams } from './params.js';

export const sentenceCount = defineCheck({
  id: 'default.sentenceCount',
  params: SentenceCountParams,
  check(input, params) {
    const text = input.response ? input.response.text : input.request.text;
    const min = params.minSentences ?? 0;
    const max = params.maxSentences ?? 99999;
    const not = params.not === true;
    const count = countSentences(text);
    const inRange = count >= min && count <= max;
    const verdict = inRange !== not;
    if (verdict) return { verdict, data: { sentenceCount: count } };
    return {
      verdict,
      data: { sentenceCount: count, explanation: `the text has ${count} sentence(s), ${inRange ? 'within' : 'outside'} ${min}-${max}` },
    };
  },
  validate(params: SentenceCountParams): Issue[] {
    return (params.minSentences ?? 0) > (params.maxSentences ?? 99999) ? [{ path: 'minSentences', rule: 'must be <= maxSentences' }] : [];
  },
});
