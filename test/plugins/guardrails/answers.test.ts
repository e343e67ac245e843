/** hook_results added to a JSON answer: spliced into the original bytes, or serialised with a changed value. */
import { expect } from 'chai';
import { JsonPayload } from '../../../core/index.js';
import { withHookResults } from '../../../plugins/guardrails/answers.js';

describe('guardrails.runner: hook_results in answers', () => {
  const results = { before_request_hooks: [], after_request_hooks: [] };
  const text = (p: JsonPayload | undefined) => {
    const b = p!.bytes();
    return typeof b === 'string' ? b : Buffer.from(b).toString('utf8');
  };

  it('splices into the original bytes (whitespace, empty object, string payloads)', () => {
    expect(JSON.parse(text(withHookResults(JsonPayload.fromBytes(Buffer.from('{"a":{"b":"}"}}\n')), results)))).to.deep.equal({ a: { b: '}' }, hook_results: results });
    expect(JSON.parse(text(withHookResults(JsonPayload.fromBytes(' { } '), results)))).to.deep.equal({ hook_results: results });
    expect(JSON.parse(text(withHookResults(JsonPayload.of({ x: 1 }), results)))).to.deep.equal({ x: 1, hook_results: results });
  });

  it('leaves what is not a JSON object alone', () => {
    expect(withHookResults(JsonPayload.fromBytes('[1,2]'), results)).to.equal(undefined);
    expect(withHookResults(JsonPayload.fromBytes('"x"'), results)).to.equal(undefined);
  });

  it('serialises a changed (redacted) value', () => {
    const out = withHookResults(JsonPayload.fromBytes('{"a":"secret"}'), results, { a: '[x]' });
    expect(out!.value).to.deep.equal({ a: '[x]', hook_results: results });
  });
});
