import { expect } from 'chai';
import { GatewayError } from '../../../core/index.js';
import { toMessagesRequest } from '../../../providers/anthropic/request.js';

const SETTINGS = { defaultMaxTokens: 4096 };
const TARGET = { provider: 'anthropic', api_key: 'k' };

function build(body: Record<string, unknown>, target: Record<string, unknown> = TARGET, stream = false) {
  return toMessagesRequest({ model: 'claude-sonnet-4-5', ...body }, target, SETTINGS, stream);
}

describe('anthropic request transform', () => {
  describe('basics', () => {
    it('maps a minimal body, filling in the default max_tokens', () => {
      expect(build({ messages: [{ role: 'user', content: 'hi' }] })).to.deep.equal({
        model: 'claude-sonnet-4-5',
        max_tokens: 4096,
        messages: [{ role: 'user', content: 'hi' }],
      });
    });

    it('takes max_completion_tokens over max_tokens, and max_tokens over the default', () => {
      const messages = [{ role: 'user', content: 'hi' }];
      expect(build({ messages, max_tokens: 100, max_completion_tokens: 200 }).max_tokens).to.equal(200);
      expect(build({ messages, max_tokens: 100 }).max_tokens).to.equal(100);
      expect(build({ messages, max_tokens: null, max_completion_tokens: null }).max_tokens).to.equal(4096);
      expect(toMessagesRequest({ model: 'm', messages }, TARGET, { defaultMaxTokens: 7 }, false).max_tokens).to.equal(7);
    });

    it('maps stop (string or array), temperature, top_p, top_k and user; drops fields Anthropic lacks', () => {
      const r = build({
        messages: [{ role: 'user', content: 'hi' }], stop: 'END', temperature: 0.2, top_p: 0.9, top_k: 5, user: 'u-1',
        n: 2, seed: 1, presence_penalty: 1, frequency_penalty: 1, logprobs: true, response_format: { type: 'text' }, stream_options: { include_usage: true },
      });
      expect(r.stop_sequences).to.deep.equal(['END']);
      expect(r).to.include({ temperature: 0.2, top_p: 0.9, top_k: 5 });
      expect(r.metadata).to.deep.equal({ user_id: 'u-1' });
      for (const dropped of ['n', 'seed', 'presence_penalty', 'frequency_penalty', 'logprobs', 'response_format', 'stream_options', 'stop', 'user']) {
        expect(r).to.not.have.property(dropped);
      }
      expect(build({ messages: [{ role: 'user', content: 'hi' }], stop: ['a', 'b'] }).stop_sequences).to.deep.equal(['a', 'b']);
      expect(build({ messages: [{ role: 'user', content: 'hi' }], stop: null })).to.not.have.property('stop_sequences');
    });

    it('sets stream only for streams', () => {
      expect(build({ messages: [{ role: 'user', content: 'hi' }] }, TARGET, true).stream).to.equal(true);
      expect(build({ messages: [{ role: 'user', content: 'hi' }] })).to.not.have.property('stream');
    });
  });

  describe('system and developer messages', () => {
    it('lifts one system message into a system string', () => {
      const r = build({ messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }] });
      expect(r.system).to.equal('be brief');
      expect(r.messages).to.deep.equal([{ role: 'user', content: 'hi' }]);
    });

    it('lifts several system/developer messages, wherever they are, into text blocks in order', () => {
      const r = build({
        messages: [
          { role: 'system', content: 'one' },
          { role: 'user', content: 'hi' },
          { role: 'developer', content: [{ type: 'text', text: 'two' }, { type: 'text', text: 'three', cache_control: { type: 'ephemeral' } }] },
        ],
      });
      expect(r.system).to.deep.equal([
        { type: 'text', text: 'one' },
        { type: 'text', text: 'two' },
        { type: 'text', text: 'three', cache_control: { type: 'ephemeral' } },
      ]);
      expect(r.messages).to.have.length(1);
    });
  });

  describe('turns', () => {
    it('merges consecutive turns of the same role', () => {
      const r = build({ messages: [{ role: 'user', content: 'a' }, { role: 'user', content: [{ type: 'text', text: 'b' }] }, { role: 'assistant', content: 'c' }, { role: 'assistant', content: 'd' }] });
      expect(r.messages).to.deep.equal([
        { role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'c' }, { type: 'text', text: 'd' }] },
      ]);
    });

    it('maps assistant tool_calls to tool_use and tool messages to tool_result blocks in one user turn', () => {
      const r = build({
        messages: [
          { role: 'user', content: 'weather in Paris and Rome?' },
          {
            role: 'assistant', content: 'Checking.', tool_calls: [
              { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
              { id: 'toolu_2', type: 'function', function: { name: 'get_weather', arguments: '' } },
            ],
          },
          { role: 'tool', tool_call_id: 'toolu_1', content: 'sunny' },
          { role: 'tool', tool_call_id: 'toolu_2', content: [{ type: 'text', text: 'rain' }] },
          { role: 'user', content: 'thanks' },
        ],
      });
      expect(r.messages).to.deep.equal([
        { role: 'user', content: 'weather in Paris and Rome?' },
        {
          role: 'assistant', content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: {} },
          ],
        },
        {
          role: 'user', content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: 'rain' }] },
            { type: 'text', text: 'thanks' },
          ],
        },
      ]);
    });

    it('answers 400 naming the path when tool arguments are not a JSON object', () => {
      for (const args of ['{oops', '"a string"', '[1]']) {
        const body = { messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: null, tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: args } }] }] };
        try {
          build(body);
          expect.fail('should throw');
        } catch (e) {
          expect(e).to.be.instanceOf(GatewayError);
          expect((e as GatewayError).status).to.equal(400);
          expect((e as GatewayError).param).to.equal('messages.1.tool_calls.0.function.arguments');
        }
      }
    });

    it('puts thinking blocks sent back in content_blocks before the text and tool_use', () => {
      const r = build({
        messages: [
          { role: 'user', content: 'x' },
          {
            role: 'assistant', content: null,
            content_blocks: [{ type: 'thinking', thinking: 'hmm', signature: 'sig' }, { type: 'redacted_thinking', data: 'xyz' }],
            tool_calls: [{ id: 't1', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 't1', content: 'ok' },
        ],
      });
      expect(r.messages[1]!.content).to.deep.equal([
        { type: 'thinking', thinking: 'hmm', signature: 'sig' },
        { type: 'redacted_thinking', data: 'xyz' },
        { type: 'tool_use', id: 't1', name: 'f', input: {} },
      ]);
    });

    it('takes the text from content_blocks when they hold it, never twice', () => {
      const r = build({
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: 'answer', content_blocks: [{ type: 'thinking', thinking: 'hmm', signature: 's' }, { type: 'text', text: 'answer' }] },
          { role: 'user', content: 'y' },
        ],
      });
      expect(r.messages[1]!.content).to.deep.equal([{ type: 'thinking', thinking: 'hmm', signature: 's' }, { type: 'text', text: 'answer' }]);
    });

    it('drops an assistant turn with nothing in it and empty text parts', () => {
      const r = build({ messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: '' }, { role: 'user', content: [{ type: 'text', text: '' }, { type: 'text', text: 'y' }] }] });
      expect(r.messages).to.deep.equal([{ role: 'user', content: [{ type: 'text', text: 'x' }, { type: 'text', text: 'y' }] }]);
    });

    it('maps legacy function_call / function messages like tool calls', () => {
      const r = build({
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: null, function_call: { name: 'lookup', arguments: '{"q":1}' } },
          { role: 'function', name: 'lookup', content: '42' },
        ],
      });
      expect(r.messages[1]!.content).to.deep.equal([{ type: 'tool_use', id: 'lookup', name: 'lookup', input: { q: 1 } }]);
      expect(r.messages[2]!.content).to.deep.equal([{ type: 'tool_result', tool_use_id: 'lookup', content: '42' }]);
    });
  });

  describe('images and files', () => {
    it('maps data URLs to base64 sources, http(s) URLs to url sources, PDFs to documents', () => {
      const pdf = Buffer.from('%PDF-1.4').toString('base64');
      const r = build({
        messages: [{
          role: 'user', content: [
            { type: 'text', text: 'what is this?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'high' } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
            { type: 'image_url', image_url: { url: `data:application/pdf;base64,${pdf}` } },
            { type: 'file', file: { file_data: `data:application/pdf;base64,${pdf}`, filename: 'a.pdf' } },
            { type: 'image_url', image_url: { url: 'data:image/svg+xml,%3Csvg%2F%3E' }, cache_control: { type: 'ephemeral' } },
          ],
        }],
      });
      expect(r.messages[0]!.content).to.deep.equal([
        { type: 'text', text: 'what is this?' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf } },
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf } },
        { type: 'image', source: { type: 'base64', media_type: 'image/svg+xml', data: Buffer.from('<svg/>').toString('base64') }, cache_control: { type: 'ephemeral' } },
      ]);
    });

    it('passes native Anthropic blocks on unchanged', () => {
      const doc = { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'abc' } };
      expect(build({ messages: [{ role: 'user', content: [doc] }] }).messages[0]!.content).to.deep.equal([doc]);
    });
  });

  describe('tools', () => {
    const tools = [{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    const messages = [{ role: 'user', content: 'x' }];

    it('maps tools to name, description and input_schema (an empty object schema when none)', () => {
      const r = build({ messages, tools: [...tools, { type: 'function', function: { name: 'now' } }] });
      expect(r.tools).to.deep.equal([
        { name: 'get_weather', description: 'Weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } },
        { name: 'now', input_schema: { type: 'object', properties: {} } },
      ]);
      expect(r).to.not.have.property('tool_choice');
    });

    it('maps tool_choice: auto, none, required → any, a function → tool', () => {
      expect(build({ messages, tools, tool_choice: 'auto' }).tool_choice).to.deep.equal({ type: 'auto' });
      expect(build({ messages, tools, tool_choice: 'none' }).tool_choice).to.deep.equal({ type: 'none' });
      expect(build({ messages, tools, tool_choice: 'required' }).tool_choice).to.deep.equal({ type: 'any' });
      expect(build({ messages, tools, tool_choice: { type: 'function', function: { name: 'get_weather' } } }).tool_choice)
        .to.deep.equal({ type: 'tool', name: 'get_weather' });
    });

    it('maps parallel_tool_calls: false to disable_parallel_tool_use', () => {
      expect(build({ messages, tools, parallel_tool_calls: false }).tool_choice).to.deep.equal({ type: 'auto', disable_parallel_tool_use: true });
      expect(build({ messages, tools, tool_choice: 'required', parallel_tool_calls: false }).tool_choice).to.deep.equal({ type: 'any', disable_parallel_tool_use: true });
    });

    it('ignores tool_choice without tools, and maps legacy functions / function_call', () => {
      expect(build({ messages, tool_choice: 'auto' })).to.not.have.property('tool_choice');
      const r = build({ messages, functions: [{ name: 'f', parameters: { type: 'object' } }], function_call: { name: 'f' } });
      expect(r.tools).to.deep.equal([{ name: 'f', input_schema: { type: 'object' } }]);
      expect(r.tool_choice).to.deep.equal({ type: 'tool', name: 'f' });
    });
  });

  describe('thinking', () => {
    const body = { messages: [{ role: 'user', content: 'x' }], thinking: { type: 'enabled', budget_tokens: 2048 } };

    it('drops thinking under strict compliance (the default)', () => {
      expect(build(body)).to.not.have.property('thinking');
      expect(build(body, { ...TARGET, strict_compat_compliance: true })).to.not.have.property('thinking');
    });

    it('passes thinking on when strict_compat_compliance is false', () => {
      expect(build(body, { ...TARGET, strict_compat_compliance: false }).thinking).to.deep.equal({ type: 'enabled', budget_tokens: 2048 });
    });
  });
});
