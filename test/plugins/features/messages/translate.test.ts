/**
 * feature.messages units: Messages → chat bodies, chat answers → Messages, chat streams → Messages
 * events (however the bytes are split), the Messages stream guard, error shapes and the token estimate.
 */
import { expect } from 'chai';
import { GatewayError, StreamCutError, StreamErrorEvent } from '../../../../core/index.js';
import { estimateInputTokens } from '../../../../plugins/features/messages/count-estimate.js';
import { anthropicErrorType, fromEnvelope } from '../../../../plugins/features/messages/errors.js';
import { parseInput, toMessage } from '../../../../plugins/features/messages/from-chat.js';
import { guardMessagesStream } from '../../../../plugins/features/messages/stream-guard.js';
import { chatStreamToMessages } from '../../../../plugins/features/messages/stream-translate.js';
import { toChatBody } from '../../../../plugins/features/messages/to-chat.js';
import { countTokensIssue, messagesIssue } from '../../../../plugins/features/messages/schemas.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function* bytes(text: string, pieceSize = text.length): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < text.length; i += pieceSize) yield encoder.encode(text.slice(i, i + pieceSize));
}

async function readAll(source: AsyncIterable<Uint8Array>): Promise<string> {
  let out = '';
  for await (const chunk of source) out += decoder.decode(chunk);
  return out;
}

function events(text: string): { event: string; data: any }[] {
  return text.split('\n\n').filter((b) => b.trim()).map((block) => ({
    event: /^event: (.*)$/m.exec(block)?.[1] ?? '',
    data: JSON.parse(/^data: (.*)$/m.exec(block)![1]!),
  }));
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;

describe('feature.messages translation', () => {
  describe('Messages → chat body', () => {
    it('sends documents, thinking history and redacted thinking as the gateway chat format carries them', () => {
      const body = toChatBody({
        model: 'm', max_tokens: 10, thinking: { type: 'enabled', budget_tokens: 1024 },
        messages: [
          { role: 'user', content: [
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' }, title: 'a.pdf' },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain doc' } },
          ] },
          { role: 'assistant', content: [
            { type: 'thinking', thinking: 'hmm', signature: 'sig' }, { type: 'redacted_thinking', data: 'xx' }, { type: 'text', text: 'done' },
          ] },
        ],
      }, false);
      expect(body['messages']).to.deep.equal([
        { role: 'user', content: [{ type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' } }, { type: 'text', text: 'plain doc' }] },
        { role: 'assistant', content: 'done', content_blocks: [{ type: 'thinking', thinking: 'hmm', signature: 'sig' }, { type: 'redacted_thinking', data: 'xx' }] },
      ]);
      expect(body['thinking']).to.deep.equal({ type: 'enabled', budget_tokens: 1024 });
    });

    it('speaks strict chat APIs as they want (max_completion_tokens; no top_k, no thinking), other hosts with max_tokens', () => {
      const base = { model: 'm', max_tokens: 10, top_k: 3, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'x' }] };
      expect(toChatBody(base, true)).to.not.have.any.keys('top_k', 'thinking', 'max_tokens');
      expect(toChatBody(base, true)['max_completion_tokens']).to.equal(10);
      expect(toChatBody(base, false)).to.include.keys('top_k', 'thinking');
      expect(toChatBody(base, false)['max_tokens']).to.equal(10);
    });

    it('maps tool_choice none and auto, and keeps parallel calls unless disabled', () => {
      const tools = [{ name: 't', input_schema: { type: 'object' } }];
      const none = toChatBody({ model: 'm', max_tokens: 1, tools, tool_choice: { type: 'none', disable_parallel_tool_use: true }, messages: [{ role: 'user', content: 'x' }] }, true);
      expect(none).to.include({ tool_choice: 'none' });
      expect(none).to.not.have.key('parallel_tool_calls');
      const auto = toChatBody({ model: 'm', max_tokens: 1, tools, tool_choice: { type: 'auto' }, messages: [{ role: 'user', content: 'x' }] }, true);
      expect(auto['tool_choice']).to.equal('auto');
      expect(auto['tools']).to.deep.equal([{ type: 'function', function: { name: 't', parameters: { type: 'object' } } }]);
    });

    it('refuses with a 400 naming the block what chat cannot say', () => {
      const refuse = (messages: unknown[], path: string) => {
        try {
          toChatBody({ model: 'm', max_tokens: 1, messages }, true);
        } catch (e) {
          expect(e).to.be.instanceOf(GatewayError);
          expect((e as GatewayError).status).to.equal(400);
          expect((e as GatewayError).message).to.match(new RegExp(`^body\\.${path.replace(/\./g, '\\.')}: `));
          return;
        }
        expect.fail('expected a 400');
      };
      refuse([{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: [{ type: 'image', source: { type: 'url', url: 'https://x/y.png' } }] }] }], 'messages.0.content.0.content.0.type');
      refuse([{ role: 'user', content: [{ type: 'search_result', source: 's', title: 't', content: [] }] }], 'messages.0.content.0.type');
      refuse([{ role: 'user', content: [{ type: 'image', source: { type: 'file', file_id: 'f' } }] }], 'messages.0.content.0.source.type');
      refuse([{ role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'text/csv', data: 'YQ==' } }] }], 'messages.0.content.0.source');
      refuse([{ role: 'user', content: 'x' }, { role: 'assistant', content: [{ type: 'server_tool_use', id: 's', name: 'web_search', input: {} }] }], 'messages.1.content.0.type');
    });
  });

  describe('chat answer → Message', () => {
    it('reads reasoning_content as thinking, keeps tool arguments that are not JSON, and calls a tool turn tool_use', () => {
      const message = toMessage({
        id: 'c', model: 'deepseek-r1',
        choices: [{ finish_reason: 'stop', message: { role: 'assistant', content: 'hi', reasoning_content: 'think', tool_calls: [{ id: 't1', function: { name: 'f', arguments: 'not json' } }] } }],
        usage: { prompt_tokens: 3, completion_tokens: 4 },
      }, 'asked');
      expect(message.content).to.deep.equal([
        { type: 'thinking', thinking: 'think', signature: '' },
        { type: 'text', text: 'hi' },
        { type: 'tool_use', id: 't1', name: 'f', input: { _raw: 'not json' } },
      ]);
      expect(message.stop_reason).to.equal('tool_use');
      expect(message.usage).to.deep.equal({ input_tokens: 3, output_tokens: 4 });
      expect(parseInput('[1]')).to.deep.equal({ _raw: '[1]' });
      expect(parseInput('')).to.deep.equal({});
    });

    it('throws on an answer without a choice (the upstream plugin answers 502)', () => {
      expect(() => toMessage({ id: 'c', choices: [] }, 'm')).to.throw('no choice');
    });
  });

  describe('chat stream → Messages events', () => {
    const stream = chunk({ role: 'assistant', content: '' })
      + chunk({ reasoning_content: 'let me think' })
      + chunk({ content: 'Hel' }) + chunk({ content: 'lo' })
      + chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }] })
      + chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a":' } }] })
      + chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] })
      + chunk({ tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'g', arguments: '{}' } }] })
      + chunk({}, 'tool_calls')
      + `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [], usage: { prompt_tokens: 7, completion_tokens: 9, total_tokens: 16 } })}\n\n`
      + 'data: [DONE]\n\n';

    it('opens and closes one block per kind, in order, whatever the byte split', async () => {
      const whole = events(await readAll(chatStreamToMessages(bytes(stream), 'm')));
      for (const size of [1, 7, 64]) {
        expect(events(await readAll(chatStreamToMessages(bytes(stream, size), 'm')))).to.deep.equal(whole);
      }
      expect(whole.map((e) => `${e.event}${e.data.delta?.type ? ':' + e.data.delta.type : ''}${e.data.content_block ? ':' + e.data.content_block.type : ''}`)).to.deep.equal([
        'message_start', 'ping',
        'content_block_start:thinking', 'content_block_delta:thinking_delta', 'content_block_stop',
        'content_block_start:text', 'content_block_delta:text_delta', 'content_block_delta:text_delta', 'content_block_stop',
        'content_block_start:tool_use', 'content_block_delta:input_json_delta', 'content_block_delta:input_json_delta', 'content_block_stop',
        'content_block_start:tool_use', 'content_block_delta:input_json_delta', 'content_block_stop',
        'message_delta', 'message_stop',
      ]);
      expect(whole.map((e) => e.data.index).filter((i) => i !== undefined)).to.deep.equal([0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3]);
      expect(whole[9]!.data.content_block).to.deep.equal({ type: 'tool_use', id: 'call_1', name: 'f', input: {} });
      expect(whole.at(-2)!.data).to.deep.equal({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { input_tokens: 7, output_tokens: 9 } });
    });

    it('writes the first event as soon as the first chunk arrives (nothing is collected)', async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      async function* slow() {
        yield encoder.encode(chunk({ role: 'assistant', content: 'a' }));
        await gate;
        yield encoder.encode(chunk({}, 'stop'));
      }
      const it = chatStreamToMessages(slow(), 'm')[Symbol.asyncIterator]();
      expect(decoder.decode((await it.next()).value)).to.contain('message_start');
      expect(decoder.decode((await it.next()).value)).to.contain('ping');
      expect(decoder.decode((await it.next()).value)).to.contain('content_block_start');
      release();
      while (!(await it.next()).done) { /* drain */ }
    });

    it('throws the chat stream\'s own error event as a StreamErrorEvent, and a stream without finish as cut', async () => {
      const failed = chunk({ content: 'a' }) + 'data: {"error":{"message":"boom","type":"server_error"}}\n\n';
      try {
        await readAll(chatStreamToMessages(bytes(failed), 'm'));
        expect.fail('expected a StreamErrorEvent');
      } catch (e) {
        expect(e).to.be.instanceOf(StreamErrorEvent);
        expect((e as StreamErrorEvent).data).to.contain('boom');
      }
      try {
        await readAll(chatStreamToMessages(bytes(chunk({ content: 'a' })), 'm'));
        expect.fail('expected a StreamCutError');
      } catch (e) {
        expect(e).to.be.instanceOf(StreamCutError);
      }
    });
  });

  describe('the Messages stream guard', () => {
    const envelope = (message: string) => ({ error: { message, type: 'server_error', param: null, code: 'bad_gateway' }, provider: 'openai' });
    const whole = 'event: message_start\ndata: {"type":"message_start","message":{}}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n';

    it('passes a whole stream unchanged', async () => {
      const seen: unknown[] = [];
      expect(await readAll(guardMessagesStream(bytes(whole, 5), (e) => (seen.push(e), envelope('x'))))).to.equal(whole);
      expect(seen).to.deep.equal([]);
    });

    it('ends a cut stream (even mid-event) with one error event in Anthropic shape', async () => {
      const cut = whole.slice(0, whole.indexOf('event: message_stop') + 30);
      const seen: unknown[] = [];
      const out = await readAll(guardMessagesStream(bytes(cut), (e) => (seen.push(e), envelope('cut'))));
      expect(seen[0]).to.be.instanceOf(StreamCutError);
      expect(out.startsWith(cut + '\n\n')).to.equal(true);
      expect(out.slice(cut.length + 2)).to.equal('event: error\ndata: {"type":"error","provider":"openai","error":{"type":"api_error","message":"cut","code":"bad_gateway"}}\n\n');
    });

    it('adds nothing after the provider\'s own error event, and reports it', async () => {
      const failed = 'event: message_start\ndata: {"type":"message_start","message":{}}\n\nevent: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
      const seen: unknown[] = [];
      expect(await readAll(guardMessagesStream(bytes(failed), (e) => (seen.push(e), envelope('x'))))).to.equal(failed);
      expect(seen[0]).to.be.instanceOf(StreamErrorEvent);
    });

    it('turns a thrown failure into an error event', async () => {
      async function* failing() {
        yield encoder.encode('event: message_start\ndata: {"type":"message_start","message":{}}\n\n');
        throw new Error('reset');
      }
      const out = await readAll(guardMessagesStream(failing(), () => envelope('provider openai stream failed: reset')));
      expect(events(out).at(-1)).to.deep.equal({ event: 'error', data: { type: 'error', provider: 'openai', error: { type: 'api_error', message: 'provider openai stream failed: reset', code: 'bad_gateway' } } });
    });
  });

  describe('errors, checks and the estimate', () => {
    it('keeps Anthropic error types and maps the others by status', () => {
      expect(anthropicErrorType(529, 'overloaded_error')).to.equal('overloaded_error');
      expect(anthropicErrorType(400, 'invalid_request_error')).to.equal('invalid_request_error');
      expect(anthropicErrorType(401, 'invalid_request_error')).to.equal('invalid_request_error');
      expect(anthropicErrorType(401, 'authentication')).to.equal('authentication_error');
      expect(anthropicErrorType(408, 'timeout')).to.equal('timeout_error');
      expect(anthropicErrorType(503, 'server_error')).to.equal('api_error');
      expect(anthropicErrorType(418, undefined)).to.equal('invalid_request_error');
      expect(fromEnvelope({ nothing: true }, 500)).to.equal(undefined);
    });

    it('checks count_tokens bodies without max_tokens and Messages bodies with it', () => {
      expect(countTokensIssue({ model: 'm', messages: [{ role: 'user', content: 'x' }] })).to.equal(undefined);
      expect(messagesIssue({ model: 'm', messages: [{ role: 'user', content: 'x' }] })).to.deep.equal({ path: 'max_tokens', rule: 'is required: an integer >= 1' });
      expect(messagesIssue({ model: 'm', max_tokens: 5, tools: [{ name: 'bad name', input_schema: {} }], messages: [{ role: 'user', content: 'x' }] }))
        .to.deep.equal({ path: 'tools.0.name', rule: 'must match ^[a-zA-Z0-9_-]{1,128}$' });
      expect(messagesIssue({ model: 'm', max_tokens: 5, system: [{ type: 'image' }], messages: [{ role: 'user', content: 'x' }] }))
        .to.deep.equal({ path: 'system.0.type', rule: 'must be "text"' });
      expect(messagesIssue({ model: 'm', max_tokens: 5, tools: [{ type: 'web_search_20250305', name: 'web_search' }], messages: [{ role: 'user', content: 'x' }] })).to.equal(undefined);
    });

    it('estimates 4 characters a token, 1,600 per image, 4 per message', () => {
      const n = estimateInputTokens({
        system: [{ type: 'text', text: 'abcd' }],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'efgh' }, { type: 'image', source: { type: 'url', url: 'https://x' } }] },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'i', name: 'ab', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'i', content: 'ijkl' }] },
        ],
      });
      // characters: 4 + 4 + 2 + 2 ('{}') + 4 = 16 → 4 tokens; + 1600 + 3 × 4
      expect(n).to.equal(4 + 1600 + 12);
    });
  });
});
