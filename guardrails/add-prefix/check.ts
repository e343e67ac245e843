/**
 * `default.addPrefix` (a transform): returns the text with `prefix` in front, for the runner to write
 * back (request text on input phases, answer text on output phases). Always passes. A text that
 * already starts with the prefix is left alone, so a retried or fallen-back attempt is not
 * prefixed twice.
 */
import { defineCheck, type Issue } from '../../core/index.js';
import { AddPrefixParams } from './params.js';

export const addPrefix = defineCheck({
  id: 'default.addPrefix',
  params: AddPrefixParams,
  check(input, params) {
    const text = input.response ? input.response.text : input.request.text;
    if (text.startsWith(params.prefix)) {
      return { verdict: true, data: { added: false } };
    }
    return {
      verdict: true,
      data: { added: true },
      transformedText: params.prefix + text,
    };
  },
  validate(params: AddPrefixParams): Issue[] {
    // The runner writes a text back line by line onto the messages it came from; an extra line
    // would make it merge every message into the last one.
    return /[\r\n]/.test(params.prefix) ? [{ path: 'prefix', rule: 'must not contain line breaks' }] : [];
  },
});
