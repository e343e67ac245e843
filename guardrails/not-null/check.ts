/**
 * `default.notNull`: passes when the phase's text has content (anything but whitespace); an answer
 * with `content: null` (e.g. only tool calls) has empty text and fails. Inverted by `not`.
 */
import { defineCheck } from '../../core/index.js';
import { NotNullParams } from './params.js';

const NON_SPACE = /\S/;

export const notNull = defineCheck({
  id: 'default.notNull',
  params: NotNullParams,
  check(input, params) {
    const text = input.response ? input.response.text : input.request.text;
    const present = NON_SPACE.test(text);
    const not = params.not === true;
    const verdict = present !== not;
    if (verdict) return { verdict, data: null };
    return { verdict, data: { explanation: present ? 'the text has content' : 'the text is empty' } };
  },
});
