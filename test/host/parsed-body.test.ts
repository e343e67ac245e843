/** The depth rule for a body a parser already turned into a value: the same answer as the text rule. */
import { expect } from 'chai';
import { nestsDeeperThan } from '../../core/index.js';
import { valueNestsDeeperThan } from '../../host/parsed-body.js';

describe('valueNestsDeeperThan', () => {
  const documents = [
    '1', '"text"', 'null', '{}', '[]', '{"a":{}}', '[[]]', '[[[1]]]', '{"a":[{"b":[]}],"c":1}',
    '[{},{},[{}]]', '{"deep":{"er":{"still":[1,2,{"x":"[[[[[["}]}}}',
  ];
  for (const text of documents) {
    it(`agrees with the text rule on ${text} at every bound`, () => {
      for (let max = 0; max <= 6; max++) {
        expect(valueNestsDeeperThan(JSON.parse(text), max), `max ${max}`).to.equal(nestsDeeperThan(text.padEnd(200), max));
      }
    });
  }

  it('answers for a value nested 100000 levels without overflowing the stack', () => {
    let value: unknown = [];
    for (let i = 0; i < 100_000; i++) value = { a: value };
    expect(valueNestsDeeperThan(value, 128)).to.equal(true);
  });
});
