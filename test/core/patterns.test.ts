/** core/patterns: caller regular expressions on the linear-time engine, with JavaScript syntax kept. */
import { expect } from 'chai';
import { compilePattern, type Pattern, type PatternFlags } from '../../core/index.js';
import { MAX_PATTERN_SIZE } from '../../core/patterns.js';

function compiled(source: string, flags?: PatternFlags): Pattern {
  const pattern = compilePattern(source, flags);
  if (typeof pattern === 'string') throw new Error(`${source} ${pattern}`);
  return pattern;
}

function refused(source: string): string {
  const rule = compilePattern(source);
  expect(rule, source).to.be.a('string');
  return rule as string;
}

describe('core patterns', () => {
  describe('exponential patterns run in linear time', () => {
    it('^(a+)+$ against 100,000 a and a ! finds no match (a backtracking engine never returns)', () => {
      const evil = compiled('^(a+)+$');
      const text = 'a'.repeat(100_000) + '!';
      expect(evil.test(text)).to.equal(false);
      expect(evil.exec(text)).to.equal(null);
      expect(evil.count(text)).to.equal(0);
      expect(evil.test('a'.repeat(100_000))).to.equal(true);
    });

    it('(x+x+)+y and (a|aa)*c on long texts without their last letter', () => {
      expect(compiled('(x+x+)+y').test('x'.repeat(50_000))).to.equal(false);
      expect(compiled('(a|aa)*c').exec('a'.repeat(50_000))).to.equal(null);
    });
  });

  describe('refusals name the construct', () => {
    it('backreferences, numbered and named', () => {
      expect(refused('(a)\\1')).to.equal('must not use \\1: backreferences are not supported (patterns run on a linear-time engine, RE2 syntax)');
      expect(refused('(?<q>[\'"]).*\\k<q>')).to.match(/^must not use \\k<name>: backreferences are not supported/);
    });

    it('lookahead and lookbehind, positive and negative', () => {
      for (const look of ['(?=', '(?!', '(?<=', '(?<!']) {
        expect(refused(`x${look}y)`)).to.equal(`must not use ${look}: lookahead and lookbehind are not supported (patterns run on a linear-time engine, RE2 syntax)`);
      }
    });

    it('does not mistake escaped or bracketed text for those constructs', () => {
      expect(compiled('[(?=]').test('?')).to.equal(true);
      expect(compiled('\\(?=').test('=')).to.equal(true);
      expect(compiled('\\\\1').test('\\1')).to.equal(true);
      expect(compiled('[\\]\\\\1]x').test('1x')).to.equal(true);
    });

    it('programs that counted repetitions blow up, with their estimated size', () => {
      expect(refused('(?:a{999}b){150}')).to.match(new RegExp(`^must compile to at most ${MAX_PATTERN_SIZE} instructions \\(this one: about \\d+;`));
      expect(refused('\\w{999}\\d{999}\\s{999}x{999}y{999}')).to.match(/^must compile to at most 4000 instructions \(this one: about 50\d\d;/);
    });

    it('accepts long plain patterns and the common counted ones', () => {
      expect(compilePattern('word|'.repeat(399) + 'word')).not.to.be.a('string');
      expect(compilePattern('[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,255}\\.[A-Za-z]{2,63}')).not.to.be.a('string');
      expect(compilePattern('.{0,1000}end')).not.to.be.a('string');
    });

    it('syntax errors carry the engine message', () => {
      expect(refused('(unclosed')).to.match(/^must be a valid regular expression \(error parsing regexp: missing closing \): `\(unclosed`; patterns run on a linear-time engine, RE2 syntax\)$/);
      expect(refused('a**')).to.match(/^must be a valid regular expression/);
    });
  });

  describe('JavaScript semantics users rely on', () => {
    it('flags i, m and s', () => {
      expect(compiled('abc', { ignoreCase: true }).test('xABCx')).to.equal(true);
      expect(compiled('abc').test('ABC')).to.equal(false);
      expect(compiled('^b$', { multiline: true }).test('a\nb\nc')).to.equal(true);
      expect(compiled('^b$').test('a\nb\nc')).to.equal(false);
      expect(compiled('a.c', { dotAll: true }).test('a\nc')).to.equal(true);
      expect(compiled('a.c').test('a\nc')).to.equal(false);
    });

    it('JavaScript-only syntax: named groups, \\u escapes, [^], \\d \\w \\b', () => {
      expect(compiled('(?<year>\\d{4})-\\d{2}').replaceAll('on 2024-05', '$<year>')).to.equal('on 2024');
      expect(compiled('\\u0041\\u{42}').test('AB')).to.equal(true);
      expect(compiled('a[^]b').test('a\nb')).to.equal(true);
      expect(compiled('\\bfoo\\b').test('a foo!')).to.equal(true);
      expect(compiled('\\bfoo\\b').test('afoo')).to.equal(false);
    });

    it('exec returns the leftmost match and its index', () => {
      expect(compiled('o(\\w)').exec('hello world')).to.deep.equal({ text: 'or', index: 7 });
      expect(compiled('o\\W').exec('hello world')).to.deep.equal({ text: 'o ', index: 4 });
      expect(compiled('z').exec('hello')).to.equal(null);
    });

    it('replaceAll expands $1, $<name>, $& and $$ as String.prototype.replace does', () => {
      const text = 'mail ada@acme and bob@corp';
      const js = text.replace(/(\w+)@(?<host>\w+)/g, '[$2|$1|$<host>|$&|$$]');
      expect(compiled('(\\w+)@(?<host>\\w+)').replaceAll(text, '[$2|$1|$<host>|$&|$$]')).to.equal(js);
    });

    it('empty matches step over one character, like a global RegExp', () => {
      const pattern = compiled('x*');
      expect(pattern.replaceAll('abc', '-')).to.equal('abc'.replace(/x*/g, '-'));
      expect(pattern.count('abc')).to.equal('abc'.match(/x*/g)!.length);
    });

    it('test answers stay right for repeated short texts, past the remembered ones', () => {
      const pattern = compiled('^v\\d*7$');
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 600; i++) expect(pattern.test(`v${i}`), `v${i}`).to.equal(String(i).endsWith('7'));
      }
    });

    it('count counts non-overlapping matches; one instance serves repeated and interleaved calls', () => {
      const pattern = compiled('aa');
      expect(pattern.count('aaaaa')).to.equal(2);
      expect(pattern.count('b')).to.equal(0);
      expect(pattern.exec('xaa')).to.deep.equal({ text: 'aa', index: 1 });
      expect(pattern.count('aaaa')).to.equal(2);
    });
  });
});
