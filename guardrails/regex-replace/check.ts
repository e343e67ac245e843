/**
 * `default.regexReplace` (a transform): replaces every match of `rule` in the phase's text and
 * returns the result for the runner to write back. Passes unless `failOnDetection` and a match.
 * The expression runs on core's linear-time engine and is compiled once per params object;
 * a bad or unsupported expression is a config error.
 */
import { defineCheck, patternPerParams, type Issue } from '../../core/index.js';
import { RegexReplaceParams } from './params.js';

const DEFAULT_REPLACEMENT = '[REDACTED]';
const patternOf = patternPerParams((params: RegexReplaceParams) => ({ source: params.rule, flags: { ignoreCase: params.caseInsensitive === true } }));

export const regexReplace = defineCheck({
  id: 'default.regexReplace',
  params: RegexReplaceParams,
  check(input, params) {
    const text = input.response ? input.response.text : input.request.text;
    const pattern = patternOf(params);
    // validate() refused every rule that does not compile, so a check never sees one.
    if (typeof pattern === 'string') throw new Error(`rule ${pattern}`);
    const replacement = params.replacement ?? params.redactText ?? DEFAULT_REPLACEMENT;
    const count = pattern.count(text);
    // Only when something matched: the common no-match path scans the text once.
    const replaced = count > 0 ? pattern.replaceAll(text, replacement) : text;
    const verdict = !(params.failOnDetection === true && count > 0);
    const data = verdict ? { replacements: count } : { replacements: count, explanation: `${count} match(es) found and detection fails the check` };
    return count > 0 ? { verdict, data, transformedText: replaced } : { verdict, data };
  },
  validate(params: RegexReplaceParams): Issue[] {
    const pattern = patternOf(params);
    if (typeof pattern === 'string') return [{ path: 'rule', rule: pattern }];
    return params.replacement !== undefined && params.redactText !== undefined
      ? [{ path: 'redactText', rule: 'must not be given together with replacement' }]
      : [];
  },
});
