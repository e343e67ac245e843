/**
 * `default.regexReplace` (a transform): replaces every match of `rule` in the phase's text and
 * returns the result for the runner to write back. Passes unless `failOnDetection` and a match.
 * The expression runs on core's linear-time engine and is compiled once per params object;
 * a bad or unsupported expression is a config error.
 */
import { compilePattern, defineCheck, type Issue, type Pattern } from '../../core/index.js';
import { RegexReplaceParams } from './params.js';

const DEFAULT_REPLACEMENT = '[REDACTED]';
const compiled = new WeakMap<RegexReplaceParams, Pattern | string>();

/** The compiled rule or the rule it breaks, once per params object (validation and checks share it). */
function patternOf(params: RegexReplaceParams): Pattern | string {
  let pattern = compiled.get(params);
  if (pattern === undefined) {
    pattern = compilePattern(params.rule, { ignoreCase: params.caseInsensitive === true });
    compiled.set(params, pattern);
  }
  return pattern;
}

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
