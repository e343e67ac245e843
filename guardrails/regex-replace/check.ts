/**
 * `default.regexReplace` (a transform): replaces every match of `rule` in the phase's text and
 * returns the result for the runner to write back. Passes unless `failOnDetection` and a match.
 * The global expression is compiled once per params object; a bad expression is a config error.
 */
import { defineCheck, type Issue } from '../../core/index.js';
import { RegexReplaceParams } from './params.js';

const DEFAULT_REPLACEMENT = '[REDACTED]';
const compiled = new WeakMap<RegexReplaceParams, RegExp>();

function flagsOf(params: RegexReplaceParams): string {
  return params.caseInsensitive ? 'gi' : 'g';
}

function regexOf(params: RegexReplaceParams): RegExp {
  let regex = compiled.get(params);
  if (!regex) {
    regex = new RegExp(params.rule, flagsOf(params));
    compiled.set(params, regex);
  }
  return regex;
}

export const regexReplace = defineCheck({
  id: 'default.regexReplace',
  params: RegexReplaceParams,
  check(input, params) {
    const text = input.response ? input.response.text : input.request.text;
    const regex = regexOf(params);
    const replacement = params.replacement ?? params.redactText ?? DEFAULT_REPLACEMENT;
    const count = countMatches(regex, text);
    // Only when something matched: the common no-match path scans the text once.
    const replaced = count > 0 ? text.replace(regex, replacement) : text;
    const verdict = !(params.failOnDetection === true && count > 0);
    const data = verdict ? { replacements: count } : { replacements: count, explanation: `${count} match(es) found and detection fails the check` };
    return count > 0 ? { verdict, data, transformedText: replaced } : { verdict, data };
  },
  validate(params: RegexReplaceParams): Issue[] {
    try {
      new RegExp(params.rule, flagsOf(params));
    } catch (e) {
      return [{ path: 'rule', rule: `is not a valid regular expression (${(e as Error).message})` }];
    }
    return params.replacement !== undefined && params.redactText !== undefined
      ? [{ path: 'redactText', rule: 'must not be given together with replacement' }]
      : [];
  },
});

/** Matches of a global expression (synchronous, so sharing the compiled object is safe). */
function countMatches(regex: RegExp, text: string): number {
  let count = 0;
  regex.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = regex.exec(text)) !== null) {
    count++;
    // An empty match leaves lastIndex where it was: step over it, or the loop never ends.
    if (match[0].length === 0) regex.lastIndex++;
  }
  regex.lastIndex = 0;
  return count;
}
