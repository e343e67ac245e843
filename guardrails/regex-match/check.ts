/**
 * `default.regexMatch`: passes when the phase's text matches `rule` (inverted by `not`).
 * The expression runs on core's linear-time engine and is compiled once per params object;
 * a bad or unsupported expression is a config error.
 */
import { defineCheck, patternPerParams, type Issue } from '../../core/index.js';
import { RegexMatchParams } from './params.js';

const patternOf = patternPerParams((params: RegexMatchParams) => ({ source: params.rule, flags: { ignoreCase: params.caseInsensitive === true } }));

export const regexMatch = defineCheck({
  id: 'default.regexMatch',
  params: RegexMatchParams,
  check(input, params) {
    const text = input.response ? input.response.text : input.request.text;
    const pattern = patternOf(params);
    // validate() refused every rule that does not compile, so a check never sees one.
    if (typeof pattern === 'string') throw new Error(`rule ${pattern}`);
    const match = pattern.exec(text);
    const not = params.not === true;
    const verdict = (match !== null) !== not;
    if (verdict) return { verdict, data: match ? { match: excerpt(match.text) } : null };
    return match
      ? { verdict, data: { match: excerpt(match.text), explanation: 'the text matches the rule' } }
      : { verdict, data: { explanation: 'the text does not match the rule' } };
  },
  validate(params: RegexMatchParams): Issue[] {
    const pattern = patternOf(params);
    return typeof pattern === 'string' ? [{ path: 'rule', rule: pattern }] : [];
  },
});

function excerpt(s: string): string {
  return s.length > 100 ? s.slice(0, 100) + '…' : s;
}
