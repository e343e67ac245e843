/** core/json-depth: the one-pass bracket count that runs before any caller JSON is parsed. */
import { expect } from 'chai';
import { jsonDepthRule, nestsDeeperThan } from '../../core/index.js';

const nested = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);
const both = (text: string, max: number) => [nestsDeeperThan(text, max), nestsDeeperThan(new TextEncoder().encode(text), max)];

describe('core json-depth', () => {
  it('a document exactly at the limit passes; one level more does not (text and bytes alike)', () => {
    expect(both(nested(128), 128)).to.deep.equal([false, false]);
    expect(both(nested(129), 128)).to.deep.equal([true, true]);
    expect(both(`{"a":${nested(127)}}`, 128)).to.deep.equal([false, false]);
    expect(both(`{"a":${nested(128)}}`, 128)).to.deep.equal([true, true]);
  });

  it('counts depth, not brackets: siblings close their level', () => {
    const wide = '[' + Array.from({ length: 500 }, () => nested(3)).join(',') + ']';
    expect(both(wide, 4)).to.deep.equal([false, false]);
    expect(both(wide, 3)).to.deep.equal([true, true]);
  });

  it('ignores brackets inside strings, honouring escaped quotes and escaped backslashes', () => {
    const inString = JSON.stringify({ s: '[[[[[[[[[[{{{{{{{{{{' });
    expect(both(inString, 1)).to.deep.equal([false, false]);
    const escapedQuote = JSON.stringify({ s: 'say \\"[[[[[[" and "[[[[[[' });
    expect(JSON.parse(escapedQuote).s).to.include('[[[[[[');
    expect(both(escapedQuote, 1)).to.deep.equal([false, false]);
    // A string ending in a backslash: the quote after \\ closes it, so the brackets after it count.
    const endsInBackslash = `{"s":"x\\\\","t":${nested(5)}}`;
    expect(JSON.parse(endsInBackslash).s).to.equal('x\\');
    expect(both(endsInBackslash, 5)).to.deep.equal([true, true]);
    expect(both(endsInBackslash, 6)).to.deep.equal([false, false]);
  });

  it('multi-byte UTF-8 text around the brackets changes nothing', () => {
    const text = `{"é😀":[["日本語"],{"k":"😀[["}]}`;
    expect(both(text, 3)).to.deep.equal([false, false]);
    expect(both(text, 2)).to.deep.equal([true, true]);
  });

  it('text that is not JSON is left to the parser: stray closers and an unterminated string do not throw', () => {
    expect(both(']]]]]]]]]]' + nested(3), 3)).to.deep.equal([false, false]);
    expect(both(']]]]]]]]]]' + nested(4), 3)).to.deep.equal([true, true]);
    expect(both('["unterminated [[[[[[[[[[[[', 2)).to.deep.equal([false, false]);
  });

  it('stops at the first level too deep, on a 9 MB document nested 4.5 million levels', () => {
    const deep = new Uint8Array(9_000_000);
    deep.fill(0x5b, 0, 4_500_000);
    deep.fill(0x5d, 4_500_000);
    expect(nestsDeeperThan(deep, 128)).to.equal(true);
  });

  it('names the limit and the setting', () => {
    expect(jsonDepthRule(128)).to.equal('nesting deeper than 128 levels (GW_JSON_MAX_DEPTH)');
  });
});
