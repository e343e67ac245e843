/**
 * `default.regexMatch`: passes when the phase's text matches `rule` (inverted by `not`).
 * The expression is compiled once per params object; a bad expression is a config error.
 */
import { defineCheck, type Issue } from '../../core/index.js';
import { RegexMatchParams } from './params.js';

const compiled = new WeakMap<RegexMatchParams, RegExp>();

function regexOf(params: RegexMatchParams): RegExp {
  let regex = compiled.get(params);
  if (!regex) {
    // No `g` flag: `test` stays stateless (no lastIndex carried between calls).
    regex = new RegExp(params.rule, params.caseInsensitive ? 'i' : '');
    compiled.set(params, regex);
  }
  return regex;
}

export const regexMatch = defineCheck({
  id: 'default.regexMatch',
  params: RegexMatchParams,
  check(input, params) {
    const text = input.response ? input.response.text : input.request.text;
    const match = regexOf(params).exec(text);
    const not = params.not === true;
    const verdict = (match !== null) !== not;
    if (verdict) return { verdict, data: match ? { match: excerpt(match[0]) } : null };
    return match
      ? { verdict, data: { match: excerpt(match[0]), explanation: 'the text matches the rule' } }
      : { verdict, data: { explanation: 'the text does not match the rule' } };
  },
  validate(params: RegexMatchParams): Issue[] {
    return regexIssue(params.rule, params.caseInsensitive ? 'i' : '', 'rule');
  },
});

export function regexIssue(rule: string, flags: string, path: string): Issue[] {
  try {
    new RegExp(rule, flags);
    return [];
  } catch (e) {
    return [{ path, rule: `is not a valid regular expression (${(e as Error).message})` }];
  }
}

function excerpt(s: string): string {
  return s.length > 100 ? s.slice(0, 100) + '…' : s;
}
