/**
 * How one metadata value is compared with one expected value, by `matchType`:
 *   exact        equal to the expected string (to any one of a list)
 *   contains     holds the expected string as a substring (any one of a list)
 *   containsAll  holds every string of the list as a substring (a single string: that one)
 *   regex        matches the expected string as a regular expression (compiled once per params)
 */
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
      const regexes = list.map((e) => new RegExp(e));
      return (actual) => regexes.some((r) => r.test(actual));
    }
  }
}
