import { expect } from 'chai';
import { JsonPayload, type AdapterInput } from '../../../core/index.js';
import { createAnthropicAdapter, messagesUrl } from '../../../providers/anthropic/adapter.js';
import { MESSAGE_TEXT } from './fixtures.js';

const adapter = createAnthropicAdapter({ defaultMaxTokens: 4096 });

function input(target: Record<string, unknown>, body: Record<string, unknown> = { model: 'claude-x', messages: [{ role: 'user', content: 'hi' }] }): AdapterInput {
  return { target, body, stream: false } as unknown as AdapterInput;
}

describe('anthropic adapter', () => {
  it('serves chat completions and the Messages API itself (other endpoints answer unsupported_endpoint)', () => {
    expect(adapter.id).to.equal('anthropic');
    expect(Object.keys(adapter.endpoints)).to.deep.equal(['chatComplete', 'messages', 'countTokens']);
  });

  it('posts to api.anthropic.com/v1/messages, or {custom_host}/messages', () => {
    expect(messagesUrl({})).to.equal('https://api.anthropic.com/v1/messages');
    expect(messagesUrl({ custom_host: 'http://127.0.0.1:9/v1' })).to.equal('http://127.0.0.1:9/v1/messages');
    expect(messagesUrl({ custom_host: 'https://proxy.internal/anthropic/v1/' })).to.equal('https://proxy.internal/anthropic/v1/messages');
  });

  it('sends x-api-key, anthropic-version and a JSON body (never an Authorization header)', async () => {
    const request = await adapter.endpoints.chatComplete!.request(input({ provider: 'anthropic', api_key: 'sk-ant' }));
    expect(request.method).to.equal('POST');
    expect(request.headers).to.deep.equal({ 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-ant' });
    expect(JSON.parse(request.body as string)).to.deep.equal({ model: 'claude-x', max_tokens: 4096, messages: [{ role: 'user', content: 'hi' }] });
  });

  it('exposes the body builder for hosts that speak Messages elsewhere', () => {
    expect(adapter.messagesRequest(input({}))).to.deep.equal({ model: 'claude-x', max_tokens: 4096, messages: [{ role: 'user', content: 'hi' }] });
  });

  it('requires api_key unless custom_host is set, naming the path', () => {
    expect(adapter.validateTarget!({ provider: 'anthropic' }, 'targets.1')).to.deep.equal([
      { path: 'targets.1.api_key', rule: 'is required for provider "anthropic" (or set custom_host)' },
    ]);
    expect(adapter.validateTarget!({ provider: 'anthropic' }, '')[0]!.path).to.equal('api_key');
    expect(adapter.validateTarget!({ provider: 'anthropic', api_key: 'k' }, '')).to.deep.equal([]);
    expect(adapter.validateTarget!({ provider: 'anthropic', custom_host: 'http://h/v1' }, '')).to.deep.equal([]);
  });

  it('translates a JSON answer, and refuses one that is not a Messages API message', () => {
    const out = adapter.endpoints.chatComplete!.response!(JsonPayload.of(MESSAGE_TEXT), input({}));
    expect((out.value as { object: string }).object).to.equal('chat.completion');
    expect(() => adapter.endpoints.chatComplete!.response!(JsonPayload.of({ choices: [] }), input({}))).to.throw(/not a Messages API message/);
  });
});
