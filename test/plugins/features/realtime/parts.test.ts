/** feature.realtime's pure parts: close codes passed on, usage summed from response.done, browser credentials. */
import { expect } from 'chai';
import { fitReason, passedOn } from '../../../../plugins/features/realtime/close-codes.js';
import { adoptBrowserCredentials, chosenProtocol } from '../../../../plugins/features/realtime/handshake.js';
import { SessionUsage } from '../../../../plugins/features/realtime/usage.js';
import { upstreamTarget } from '../../../../plugins/features/realtime/upstream-target.js';
import type { ConfigNode, HeaderMap } from '../../../../core/index.js';

describe('feature.realtime parts', () => {
  describe('close codes', () => {
    it('passes sendable codes with their reasons, and translates the local-only ones', () => {
      expect(passedOn(1000, Buffer.from('bye'), 'upstream')).to.deep.equal({ code: 1000, reason: 'bye' });
      expect(passedOn(4001, Buffer.from('expired'), 'client')).to.deep.equal({ code: 4001, reason: 'expired' });
      expect(passedOn(1005, Buffer.alloc(0), 'client')).to.deep.equal({});
      expect(passedOn(1006, Buffer.alloc(0), 'client')).to.deep.equal({ code: 1014, reason: 'upstream connection lost' });
      expect(passedOn(1006, Buffer.alloc(0), 'upstream')).to.deep.equal({ code: 1001, reason: 'client went away' });
      expect(passedOn(1015, Buffer.alloc(0), 'client')).to.deep.equal({ code: 1014, reason: 'upstream connection lost' });
    });

    it('cuts reasons to the 123 bytes a close frame holds, never inside a character', () => {
      expect(fitReason('short')).to.equal('short');
      const cut = fitReason('é'.repeat(100));
      expect(Buffer.byteLength(cut)).to.be.at.most(123);
      expect(cut.endsWith('...')).to.equal(true);
      expect(cut).not.to.include('\uFFFD');
    });
  });

  describe('usage', () => {
    const frame = (event: unknown) => Buffer.from(JSON.stringify(event));

    it('sums response.usage over response.done events only', () => {
      const usage = new SessionUsage();
      usage.observe(frame({ type: 'response.done', response: { usage: { input_tokens: 7, output_tokens: 3 } } }), false);
      usage.observe(frame({ type: 'response.done', response: { usage: { input_tokens: 5, output_tokens: 2, total_tokens: 7 } } }), false);
      usage.observe(frame({ type: 'response.created', response: { usage: { input_tokens: 100 } } }), false);
      usage.observe(frame({ type: 'response.output_text.delta', delta: 'the "response.done" text' }), false);
      expect(usage.toJson()).to.deep.equal({ input_tokens: 12, output_tokens: 5, total_tokens: 17 });
    });

    it('ignores binary frames, broken JSON and odd counts, and reports nothing without a response', () => {
      const usage = new SessionUsage();
      usage.observe(frame({ type: 'response.done', response: { usage: { input_tokens: 9 } } }), true);
      usage.observe(Buffer.from('{"type":"response.done",'), false);
      expect(usage.toJson()).to.equal(undefined);
      usage.observe(frame({ type: 'response.done', response: { status: 'failed' } }), false);
      usage.observe(frame({ type: 'response.done', response: { usage: { input_tokens: -4, output_tokens: 'x' } } }), false);
      expect(usage.toJson()).to.deep.equal({ input_tokens: 0, output_tokens: 0, total_tokens: 0 });
      expect(usage.responses).to.equal(2);
    });
  });

  describe('browser credentials', () => {
    it('moves the key subprotocol into x-gw-api-key and off the offered list', () => {
      const headers: HeaderMap = { 'sec-websocket-protocol': 'realtime, openai-insecure-api-key.gw-secret, openai-beta.realtime-v1' };
      adoptBrowserCredentials(headers, new URLSearchParams());
      expect(headers).to.deep.equal({ 'x-gw-api-key': 'gw-secret', 'sec-websocket-protocol': 'realtime, openai-beta.realtime-v1' });
    });

    it('keeps a key header over the subprotocol, and drops a protocol list that held only the key', () => {
      const headers: HeaderMap = { 'x-gw-api-key': 'from-header', 'sec-websocket-protocol': 'openai-insecure-api-key.other' };
      adoptBrowserCredentials(headers, new URLSearchParams());
      expect(headers).to.deep.equal({ 'x-gw-api-key': 'from-header' });
    });

    it('reads x-gw-config and x-gw-provider from the query unless the headers are set; never a key', () => {
      const headers: HeaderMap = { 'x-gw-provider': 'openai' };
      adoptBrowserCredentials(headers, new URLSearchParams('x-gw-config=cfg-1&x-gw-provider=anthropic&x-gw-api-key=leaky'));
      expect(headers).to.deep.equal({ 'x-gw-provider': 'openai', 'x-gw-config': 'cfg-1' });
    });

    it('answers realtime when offered, else the first protocol that is not a key, else none', () => {
      expect(chosenProtocol(new Set(['openai-beta.realtime-v1', 'realtime']))).to.equal('realtime');
      expect(chosenProtocol(new Set(['openai-insecure-api-key.k', 'v1.custom']))).to.equal('v1.custom');
      expect(chosenProtocol(new Set(['openai-insecure-api-key.k']))).to.equal(false);
    });
  });

  describe('upstream target', () => {
    const options = { providers: { openai: 'https://api.openai.com/v1', local: 'http://127.0.0.1:9/v1/' }, azureApiVersion: '2024-10-01-preview' };
    const query = new URLSearchParams('model=gpt-realtime&x-gw-config=c&X-Gw-Other=1');

    it('dials <base>/realtime as wss with the OpenAI credential headers and the client query minus x-gw-*', () => {
      const target = upstreamTarget({ provider: 'openai', api_key: 'sk-1', vendorD_project: 'proj' } as ConfigNode, query, { 'openai-beta': 'realtime=v1', cookie: 'c=1' }, options);
      expect(target.url.toString()).to.equal('wss://api.openai.com/v1/realtime?model=gpt-realtime');
      expect(target.headers).to.deep.equal({ 'openai-beta': 'realtime=v1', authorization: 'Bearer sk-1', 'openai-project': 'proj' });
      expect(upstreamTarget({ provider: 'local' } as ConfigNode, new URLSearchParams(), {}, options).url.toString()).to.equal('ws://127.0.0.1:9/v1/realtime');
    });

    it('uses custom_host for any provider, and refuses one it cannot dial', () => {
      const target = upstreamTarget({ provider: 'groq', custom_host: 'https://rt.example.com/openai/v1' } as ConfigNode, query, {}, options);
      expect(target.url.toString()).to.equal('wss://rt.example.com/openai/v1/realtime?model=gpt-realtime');
      expect(() => upstreamTarget({ provider: 'openai', custom_host: 'ftp://x/v1' } as ConfigNode, query, {}, options))
        .to.throw('config.custom_host: must be an absolute http(s) or ws(s) URL');
      expect(() => upstreamTarget({ provider: 'cohere' } as ConfigNode, query, {}, options)).to.throw('provider cohere does not support realtime');
    });

    it('dials Azure OpenAI at its realtime URL with api-key, the deployment naming the model', () => {
      const target = upstreamTarget({ provider: 'azure-openai', resource_name: 'my-res', deployment_id: 'gpt-rt', api_key: 'az-key' } as ConfigNode, query, {}, options);
      expect(target.url.toString()).to.equal('wss://my-res.openai.azure.com/openai/realtime?api-version=2024-10-01-preview&deployment=gpt-rt');
      expect(target.headers).to.deep.equal({ 'api-key': 'az-key' });
      expect(() => upstreamTarget({ provider: 'azure-openai', resource_name: 'evil.com/x', deployment_id: 'd' } as ConfigNode, query, {}, options))
        .to.throw('config.resource_name: is required for realtime on azure-openai');
    });
  });
});
