/**
 * How one metadata value is compared with one expected value, by `matchType`:
 *   exact        equal to the expected string (to any one of a list)
 *   contains     holds the expected string as a substring (any one of a list)
 *   containsAll  holds every string of the list as a substring (a single string: that one)
 *   regex        matches the expected string as a regular expression (compiled once per params,
 *                run on core's linear-time engine)
 */
import { compilePattern, type Pattern } from '../../core/index.js';
import type { RequiredMetadataKeyPairsParams } from './params.js';

export type MatchType = NonNullable<RequiredMetadataKeyPairsParams['matchType']>;
export type Expected = string | string[];
export type Matcher = (actual: string) => boolean;

export function matcherFor(expected: Expected, matchType: MatchType): Matcher {
  const list = typeof expected === 'string' ? [expected] : expected;
  switch (matchType) {
    case 'exact': return (actual) => list.includes(actual);
    case 'contains': return (actual) => list.some((e) => actual.includes(e));
    case 'containsAll': return (actual) => list.every((e) => actual.includes(e));
    case 'regex': {
      const patterns = list.map(compiledOrThrow);
      return (actual) => patterns.some((p) => p.test(actual));
    }
  }
}

/** validate() refused every pattern that does not compile (see check.ts), so a matcher never sees one. */
function compiledOrThrow(source: string): Pattern {
  const pattern = compilePattern(source);
  if (typeof pattern === 'string') throw new Error(`metadata pattern ${pattern}`);
  return pattern;
}
