/**
 * `default.requiredMetadataKeyPairs`: each pair matches when the request metadata has the key and
 * its value matches (see match.ts). `all`: every pair matches; `any`: at least one; `none`: no pair.
 * Matchers are built once per params object; a bad regex is a config error.
 */
import { compilePattern, defineCheck, type Issue } from '../../core/index.js';
import { matcherFor, type Matcher } from './match.js';
import { RequiredMetadataKeyPairsParams } from './params.js';

const compiled = new WeakMap<RequiredMetadataKeyPairsParams, readonly [string, Matcher][]>();

function matchersOf(params: RequiredMetadataKeyPairsParams): readonly [string, Matcher][] {
  let matchers = compiled.get(params);
  if (!matchers) {
    const matchType = params.matchType ?? 'exact';
    matchers = Object.entries(params.metadataPairs).map(([key, expected]) => [key, matcherFor(expected, matchType)] as [string, Matcher]);
    compiled.set(params, matchers);
  }
  return matchers;
}

export const requiredMetadataKeyPairs = defineCheck({
  id: 'default.requiredMetadataKeyPairs',
  params: RequiredMetadataKeyPairsParams,
  check(input, params) {
    const operator = params.operator ?? 'all';
    const matchers = matchersOf(params);
    const metadata = input.metadata;
    let matched = 0;
    for (const [key, matches] of matchers) {
      const actual = Object.hasOwn(metadata, key) ? metadata[key] : undefined;
      if (actual !== undefined && matches(actual)) matched++;
    }
    const verdict = operator === 'all' ? matched === matchers.length : operator === 'any' ? matched > 0 : matched === 0;
    if (verdict) return { verdict, data: { matchedPairs: matched } };
    // Details only on failure: the passing path (the common one) allocates nothing more.
    const matchedPairs: string[] = [];
    const unmatchedPairs: string[] = [];
    for (const [key, matches] of matchers) {
      const actual = Object.hasOwn(metadata, key) ? metadata[key] : undefined;
      (actual !== undefined && matches(actual) ? matchedPairs : unmatchedPairs).push(key);
    }
    return {
      verdict,
      data: {
        matchedKeys: matchedPairs,
        unmatchedKeys: unmatchedPairs,
        explanation: `${matched} of ${matchers.length} pair(s) matched; operator "${operator}" failed`,
      },
    };
  },
  validate(params: RequiredMetadataKeyPairsParams): Issue[] {
    if ((params.matchType ?? 'exact') !== 'regex') return [];
    for (const [key, expected] of Object.entries(params.metadataPairs)) {
      for (const source of typeof expected === 'string' ? [expected] : expected) {
        const pattern = compilePattern(source);
        if (typeof pattern === 'string') return [{ path: `metadataPairs.${key}`, rule: pattern }];
      }
    }
    return [];
  },
});
