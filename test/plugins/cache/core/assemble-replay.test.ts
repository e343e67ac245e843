/**
 * Stream recording and replay: events → non-stream answer (assemble) and answer → events (replay)
 * are inverse for chat and text completions; incomplete streams give nothing to store.
 */
import { expect } from 'chai';
import { parseSse, type SseEvent } from '../../../../core/index.js';
import { assembleAnswer } from '../../../../plugins/cache/core/assemble.js';
import { recordStream } from '../../../../plugins/cache/core/recorder.js';
import { replayAsSse } from '../../../../plugins/cache/core/replay.js';

const enc = new TextEncoder();
const ev = (data: unknown): SseEvent => ({ data: typeof data === 'string' ? data : JSON.stringify(data) });
const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1700000000, model: 'm', system_fingerprint: 'fp' };
const chunk = (delta: unknown, finish: string | null = null, index = 0, extra: Record<string, unknown> = {}) =>
  ev({ ...head, choices: [{ index, delta, logprobs: null, finish_reason: finish }], ...extra });

async function events(bytes: Uint8Array): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const e of parseSse((async function* () { yield bytes; })())) out.push(e);
  return out;
}

describe('cache stream assembly and replay', () => {
  it('assembles content, tool calls (merged by index), thinking blocks, finish reason and usage', () => {
    const usage = { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 };
    const answer = assembleAnswer([
      chunk({ role: 'assistant', content: '' }),
      chunk({ content_blocks: [{ index: 0, type: 'thinking', thinking: 'Let me ' }] }),
      chunk({ content_blocks: [{ index: 0, type: 'thinking', thinking: 'think.' }] }),
      chunk({ content: 'Hel' }),
      chunk({ content: 'lo' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a"' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }),
      chunk({}, 'tool_calls'),
      ev({ ...head, choices: [], usage }),
      ev('[DONE]'),
    ])!;
    expect(answer).to.deep.equal({
      id: 'chatcmpl-1', object: 'chat.completion', created: 1700000000, model: 'm', system_fingerprint: 'fp',
      choices: [{
        index: 0,
        message: {
          role: 'assistant', content: 'Hello', refusal: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
          content_blocks: [{ type: 'thinking', thinking: 'Let me think.' }],
        },
        logprobs: null,
        finish_reason: 'tool_calls',
      }],
      usage,
    });
  });

  it('gives nothing for a stream without [DONE], with an error event, or of unknown chunks', () => {
    expect(assembleAnswer([chunk({ content: 'a' }, 'stop')])).to.equal(undefined);
    expect(assembleAnswer([chunk({ content: 'a' }), ev({ error: { message: 'cut' } }), ev('[DONE]')])).to.equal(undefined);
    expect(assembleAnswer([ev({ object: 'response.delta' }), ev('[DONE]')])).to.equal(undefined);
    expect(assembleAnswer([ev('not json'), ev('[DONE]')])).to.equal(undefined);
    expect(assembleAnswer([ev('[DONE]')])).to.equal(undefined);
  });

  it('replays a chat answer as chunks that assemble back to it, usage last when asked', async () => {
    const answer = {
      id: 'chatcmpl-2', object: 'chat.completion', created: 1700000001, model: 'm',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'Hi there', refusal: null }, logprobs: null, finish_reason: 'stop' },
        { index: 1, message: { role: 'assistant', content: null, refusal: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] }, logprobs: null, finish_reason: 'tool_calls' },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
    };
    const replayed = await events(replayAsSse(answer, true)!);
    expect(replayed[replayed.length - 1]!.data).to.equal('[DONE]');
    const chunks = replayed.slice(0, -1).map((e) => JSON.parse(e.data));
    expect(chunks[chunks.length - 1]).to.deep.include({ choices: [], usage: answer.usage });
    expect(chunks.slice(0, -1).every((c) => c.usage === null && c.object === 'chat.completion.chunk')).to.equal(true);
    expect(assembleAnswer(replayed)).to.deep.equal(answer);
    const withoutUsage = (await events(replayAsSse(answer, false)!)).slice(0, -1).map((e) => JSON.parse(e.data));
    expect(withoutUsage.some((c) => 'usage' in c)).to.equal(false);
  });

  it('replays a text completion and gives nothing for other answers', async () => {
    const answer = {
      id: 'cmpl-1', object: 'text_completion', created: 1, model: 'i',
      choices: [{ text: 'echo: x', index: 0, logprobs: null, finish_reason: 'length' }],
      usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
    };
    expect(assembleAnswer(await events(replayAsSse(answer, true)!))).to.deep.equal(answer);
    expect(replayAsSse({ object: 'list', data: [] }, false)).to.equal(undefined);
    expect(replayAsSse('nope', false)).to.equal(undefined);
  });

  it('records a stream that ended, and forgets one that was cut, left or too large', async () => {
    async function* source(fail = false) {
      yield enc.encode('data: 1\n\n');
      if (fail) throw new Error('reset');
      yield enc.encode('data: [DONE]\n\n');
    }
    const whole = recordStream(source(), 1000);
    expect(whole.bytes()).to.equal(undefined);
    for await (const _ of whole.stream) { /* pass through */ }
    expect(new TextDecoder().decode(whole.bytes())).to.equal('data: 1\n\ndata: [DONE]\n\n');

    const cut = recordStream(source(true), 1000);
    try {
      for await (const _ of cut.stream) { /* until the failure */ }
    } catch { /* the consumer sees the failure */ }
    expect(cut.bytes()).to.equal(undefined);

    const left = recordStream(source(), 1000);
    for await (const _ of left.stream) break;
    expect(left.bytes()).to.equal(undefined);

    const large = recordStream(source(), 12);
    const passed: string[] = [];
    for await (const c of large.stream) passed.push(new TextDecoder().decode(c));
    expect(passed).to.deep.equal(['data: 1\n\n', 'data: [DONE]\n\n']);
    expect(large.bytes()).to.equal(undefined);
  });
});
