/** feature.responses units: context windows, token estimate, chat → Response mapping, chain items. */
import { expect } from 'chai';
import { outputAsInput } from '../../../../plugins/features/responses/chain.js';
import { ContextWindows, DEFAULT_CONTEXT_WINDOWS, estimateTokens } from '../../../../plugins/features/responses/context-window.js';
import { fromChat } from '../../../../plugins/features/responses/from-chat.js';
import { pendingResponse } from '../../../../plugins/features/responses/response-object.js';
import { toChatBody } from '../../../../plugins/features/responses/to-chat.js';

describe('feature.responses units', () => {
  describe('context windows', () => {
    const windows = new ContextWindows({ ...DEFAULT_CONTEXT_WINDOWS, 'my-*': 42, 'my-special': 7 });

    it('matches exact names, then the longest name extended by a -suffix, then * prefixes', () => {
      expect(windows.of('gpt-4o')).to.equal(128_000);
      expect(windows.of('gpt-4o-mini-2024-07-18')).to.equal(128_000);
      expect(windows.of('gpt-4.1-2025-04-14')).to.equal(1_047_576);
      expect(windows.of('gpt-4.1-mini')).to.equal(1_047_576);
      expect(windows.of('gpt-4-0613')).to.equal(8_192);
      expect(windows.of('o3-2025-04-16')).to.equal(200_000);
      expect(windows.of('claude-3-5-sonnet-latest')).to.equal(200_000);
      expect(windows.of('my-special')).to.equal(7);
      expect(windows.of('my-other')).to.equal(42);
    });

    it('knows nothing of other models (no check)', () => {
      expect(windows.of('gpt-4.5')).to.equal(undefined);
      expect(windows.of('llama-3')).to.equal(undefined);
      expect(windows.of('gpt-4o2')).to.equal(undefined);
    });

    it('estimates ceil(characters / 4) over instructions and every text of the items', () => {
      expect(estimateTokens(null, [])).to.equal(0);
      expect(estimateTokens('abcd', ['e'])).to.equal(2);
      const items = [
        { role: 'user', content: [{ type: 'input_text', text: '12345678' }, { type: 'input_image', image_url: 'https://very-long-url' }] },
        { type: 'function_call', call_id: 'c', name: 'n', arguments: '1234' },
        { type: 'function_call_output', call_id: 'c', output: '1234' },
      ];
      expect(estimateTokens(undefined, items)).to.equal(4);
    });
  });

  describe('fromChat', () => {
    const pending = pendingResponse('resp_1', { model: 'm', input: 'x' }, 1);

    it('maps thinking blocks to a reasoning item, refusals to refusal parts, content_filter to incomplete', () => {
      const r = fromChat(pending, {
        model: 'claude-x',
        choices: [{
          finish_reason: 'content_filter',
          message: { content: 'partial', refusal: 'no more', content_blocks: [{ type: 'thinking', thinking: 'hmm' }, { type: 'text' }] },
        }],
      })!;
      expect(r.model).to.equal('claude-x');
      expect(r.status).to.equal('incomplete');
      expect(r.incomplete_details).to.deep.equal({ reason: 'content_filter' });
      expect(r.output[0]).to.deep.include({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'hmm' }] });
      expect(r.output[1]!['content']).to.deep.equal([{ type: 'output_text', text: 'partial', annotations: [] }, { type: 'refusal', refusal: 'no more' }]);
      expect(r.output_text).to.equal('partial');
      expect(r.usage).to.equal(null);
    });

    it('an answer without a choice cannot be read', () => {
      expect(fromChat(pending, { choices: [] })).to.equal(undefined);
      expect(fromChat(pending, {})).to.equal(undefined);
    });
  });

  describe('toChatBody', () => {
    it('json_object format, text-only roles joined, stream with usage', () => {
      const body = toChatBody(
        { model: 'm', input: 'x', text: { format: { type: 'json_object' } }, stream: true, tool_choice: 'required', reasoning: { effort: 'high' } },
        [{ role: 'system', content: [{ type: 'input_text', text: 'a' }, { type: 'input_text', text: 'b' }] }],
        0,
      );
      expect(body).to.deep.equal({
        model: 'm', messages: [{ role: 'system', content: 'ab' }], response_format: { type: 'json_object' },
        reasoning_effort: 'high', tool_choice: 'required', stream: true, stream_options: { include_usage: true },
      });
    });

    it('names chain items by previous_response_id in errors', () => {
      expect(() => toChatBody({ model: 'm', input: 'x' }, [{ type: 'web_search_call' }, { role: 'user', content: 'x' }], 1))
        .to.throw('body.previous_response_id.type');
    });
  });

  it('outputAsInput keeps assistant text and function calls only', () => {
    expect(outputAsInput([
      { type: 'reasoning', id: 'rs', summary: [] },
      { type: 'message', content: [{ type: 'output_text', text: 'a' }, { type: 'refusal', refusal: 'b' }] },
      { type: 'function_call', id: 'fc', call_id: 'c', name: 'n', arguments: '{}', status: 'completed' },
      { type: 'web_search_call', id: 'ws' },
    ])).to.deep.equal([
      { role: 'assistant', content: 'ab' },
      { type: 'function_call', call_id: 'c', name: 'n', arguments: '{}' },
    ]);
  });
});
