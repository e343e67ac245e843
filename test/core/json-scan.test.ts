/** One field of a JSON answer read without parsing the answer, from a string or from bytes alike. */
import { expect } from 'chai';
import { firstJsonString, lastJsonObject } from '../../core/index.js';

const both = (text: string) => [text, new TextEncoder().encode(text)] as const;

describe('core: json-scan', () => {
  it('finds the last whole object under a key, passing over null, cut and in-string occurrences', () => {
    const text = JSON.stringify({
      model: 'gpt-ü',
      choices: [{ message: { content: 'déjà "usage": {"prompt_tokens": 999} 🙂' } }],
      usage: { prompt_tokens: 7, nested: { a: '}' } },
      tail: { usage: null },
    });
    for (const body of both(text)) {
      expect(lastJsonObject(body, '"usage"')).to.deep.equal({ prompt_tokens: 7, nested: { a: '}' } });
    }
    for (const body of both('{"usage": {"a": 1}, "x": {"usage": {"b": ')) expect(lastJsonObject(body, '"usage"')).to.deep.equal({ a: 1 });
    for (const body of both('{"usage": null}')) expect(lastJsonObject(body, '"usage"')).to.equal(undefined);
    for (const body of both('{"x": "say \\"usage": {"a": 1}}')) expect(lastJsonObject(body, '"usage"')).to.equal(undefined);
  });

  it('finds the first escape-free string under a key', () => {
    for (const body of both('{"id":"x","model":"gpt-4o-ü","usage":{"model":"other"}}')) expect(firstJsonString(body, '"model"')).to.equal('gpt-4o-ü');
    for (const body of both('{"model":"a\\"b"}')) expect(firstJsonString(body, '"model"')).to.equal(undefined);
    for (const body of both('{"model": 3}')) expect(firstJsonString(body, '"model"')).to.equal(undefined);
    for (const body of both('{"id":"x"}')) expect(firstJsonString(body, '"model"')).to.equal(undefined);
  });
});
