/** hook_results added to a JSON answer: spliced into the original bytes, or serialised with a changed value. */
import { expect } from 'chai';
import { JsonPayload } from '../../../../core/index.js';
import { withHookResults } from '../../../../plugins/guardrails/runner/answers.js';

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

  it('keeps bytes as bytes: the provider part copied, only the added text encoded (non-ASCII on both sides)', () => {
    const withData = {
      before_request_hooks: [{ id: 'h ü', type: 'guardrail', verdict: true, deny: false, async: false, execution_time: 0, checks: [{ id: 'c', verdict: true, data: { match: 'naïve 🙂' }, execution_time: 0 }] }],
      after_request_hooks: [],
    };
    const raw = Buffer.from('{"choices":[{"message":{"content":"déjà vu 🙂"}}]}');
    const out = withHookResults(JsonPayload.fromBytes(raw), withData)!;
    const bytes = out.bytes();
    expect(bytes).to.be.instanceOf(Uint8Array);
    expect(JSON.parse(text(out))).to.deep.equal({ choices: [{ message: { content: 'déjà vu 🙂' } }], hook_results: withData });
    expect(JSON.parse(text(withHookResults(JsonPayload.fromBytes(Buffer.from('\n{ \n }\n')), results)))).to.deep.equal({ hook_results: results });
    expect(JSON.parse(text(withHookResults(JsonPayload.fromBytes(Buffer.from('{}')), results)))).to.deep.equal({ hook_results: results });
    expect(withHookResults(JsonPayload.fromBytes(Buffer.from(' [1, {}] ')), results)).to.equal(undefined);
    expect(withHookResults(JsonPayload.fromBytes(Buffer.from('')), results)).to.equal(undefined);
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
