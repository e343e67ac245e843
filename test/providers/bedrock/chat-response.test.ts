/** Converse answer → unified chat.completion; Bedrock errors → our envelope. */
import { expect } from 'chai';
import { fromConverseResponse } from '../../../providers/bedrock/chat-response.js';
import { bedrockHttpError, sanitizeErrorType } from '../../../providers/bedrock/errors.js';

const MODEL = 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-3-5-haiku-20241022-v1:0';
const bytes = (v: unknown) => new TextEncoder().encode(typeof v === 'string' ? v : JSON.stringify(v));

describe('bedrock chat response (Converse → unified)', () => {
  it('translates text, finish reason, usage; names the model as requested and a fresh id', () => {
    const a = fromConverseResponse({
      output: { message: { role: 'assistant', content: [{ text: 'Hello' }, { text: ' world' }] } },
      stopReason: 'end_turn',
      usage: { inputTokens: 10, outputTokens: 3, totalTokens: 13 },
    }, MODEL);
    expect(a.object).to.equal('chat.completion');
    expect(a.model).to.equal(MODEL);
    expect(a.provider).to.equal('bedrock');
    expect(a.id).to.match(/^chatcmpl-[0-9a-f-]{36}$/);
    expect(a.choices).to.deep.equal([{ index: 0, message: { role: 'assistant', content: 'Hello world', refusal: null }, finish_reason: 'stop', logprobs: null }]);
    expect(a.usage).to.deep.equal({ prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 });
    const b = fromConverseResponse({ output: { message: { role: 'assistant', content: [{ text: 'x' }] } }, stopReason: 'end_turn' }, MODEL);
    expect(b.id).to.not.equal(a.id);
  });

  it('translates tool use into tool_calls with JSON arguments and content null', () => {
    const a = fromConverseResponse({
      output: { message: { role: 'assistant', content: [{ toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } } }] } },
      stopReason: 'tool_use',
      usage: { inputTokens: 5, outputTokens: 7 },
    }, MODEL);
    const message = a.choices[0]!.message;
    expect(message.content).to.equal(null);
    expect(message.tool_calls).to.deep.equal([{ id: 'tooluse_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }]);
    expect(a.choices[0]!.finish_reason).to.equal('tool_calls');
  });

  it('maps max_tokens to length and guardrails to content_filter; counts cached prompt tokens', () => {
    const long = fromConverseResponse({ output: { message: { role: 'assistant', content: [{ text: 'cut' }] } }, stopReason: 'max_tokens', usage: { inputTokens: 4, outputTokens: 9, cacheReadInputTokens: 100, cacheWriteInputTokens: 6 } }, MODEL);
    expect(long.choices[0]!.finish_reason).to.equal('length');
    expect(long.usage).to.deep.equal({ prompt_tokens: 110, completion_tokens: 9, total_tokens: 119, prompt_tokens_details: { cached_tokens: 100 } });
    const filtered = fromConverseResponse({ output: { message: { role: 'assistant', content: [{ text: 'blocked' }] } }, stopReason: 'guardrail_intervened' }, MODEL);
    expect(filtered.choices[0]!.finish_reason).to.equal('content_filter');
  });

  it('refuses an answer without output (not the documented shape)', () => {
    expect(() => fromConverseResponse({} as never, MODEL)).to.throw(/no output/);
  });
});

describe('bedrock errors', () => {
  it('reads the type from x-amzn-errortype and the message from the body, keeping the status', () => {
    const e = bedrockHttpError(400, bytes({ message: 'The model returned the following errors: bad' }), {
      'x-amzn-errortype': 'ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/',
    });
    expect(e.status).to.equal(400);
    expect(e.type).to.equal('ValidationException');
    expect(e.message).to.equal('The model returned the following errors: bad');
    expect(e.provider).to.equal('bedrock');
    expect(e.toEnvelope()).to.deep.equal({ error: { message: 'The model returned the following errors: bad', type: 'ValidationException', param: null, code: null }, provider: 'bedrock' });
  });

  it('falls back to the type a status stands for, a body __type, or a quoted non-JSON body', () => {
    expect(bedrockHttpError(429, bytes({ message: 'slow' })).type).to.equal('ThrottlingException');
    expect(bedrockHttpError(403, bytes({ Message: 'denied' })).message).to.equal('denied');
    expect(bedrockHttpError(400, bytes({ __type: 'com.amazonaws.bedrockruntime#ValidationException', message: 'x' })).type).to.equal('ValidationException');
    const html = bedrockHttpError(502, bytes('<html>bad gateway</html>'));
    expect(html.status).to.equal(502);
    expect(html.message).to.equal('provider bedrock answered 502: <html>bad gateway</html>');
  });

  it('sanitizes AWS error type spellings', () => {
    expect(sanitizeErrorType('ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/')).to.equal('ThrottlingException');
    expect(sanitizeErrorType('aws.protocoltests#FooError')).to.equal('FooError');
    expect(sanitizeErrorType('AccessDeniedException')).to.equal('AccessDeniedException');
  });
});
