/** Unified chat body → Cohere v2 chat body. */
import { expect } from 'chai';
import { toCohereChat } from '../../../providers/cohere/chat-request.js';

const TOOL = { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object' } } };

describe('cohere: chat request', () => {
  it('maps roles: system/developer → system, user, assistant, tool', () => {
    const out = toCohereChat({
      model: 'command-a',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'developer', content: [{ type: 'text', text: 'dev ' }, { type: 'text', text: 'rules' }] },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
        { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'https://x/img.png' } }] },
      ],
    }, false);
    expect(out).to.deep.equal({
      model: 'command-a',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'system', content: 'dev rules' },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
        { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'https://x/img.png' } }] },
      ],
    });
  });

  it('maps an assistant tool call (its text becomes tool_plan) and the tool result', () => {
    const out = toCohereChat({
      model: 'm',
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: 'Let me check.', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: '{"temp":21}' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
      ],
    }, false);
    expect((out['messages'] as unknown[]).slice(1)).to.deep.equal([
      { role: 'assistant', tool_plan: 'Let me check.', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '{"temp":21}' },
      { role: 'assistant', tool_calls: [{ id: 'c2', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
    ]);
  });

  it('maps sampling fields to Cohere names and drops the ones it has no equivalent for', () => {
    const out = toCohereChat({
      model: 'm', messages: [{ role: 'user', content: 'x' }],
      max_tokens: 10, max_completion_tokens: 20, stop: 'END', top_p: 0.5, temperature: 0.3, seed: 7,
      frequency_penalty: 0.1, presence_penalty: 0.2, logprobs: true, logit_bias: { '1': 2 }, user: 'u', parallel_tool_calls: false,
      response_format: { type: 'json_schema', json_schema: { name: 's', schema: { type: 'object' } } },
    }, true);
    expect(out).to.deep.equal({
      model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true,
      max_tokens: 20, stop_sequences: ['END'], p: 0.5, temperature: 0.3, seed: 7,
      frequency_penalty: 0.1, presence_penalty: 0.2, logprobs: true,
      response_format: { type: 'json_object', json_schema: { type: 'object' } },
    });
  });

  it('maps tools and tool_choice (a named function becomes REQUIRED with only that tool)', () => {
    const other = { type: 'function', function: { name: 'other', strict: true } };
    expect(toCohereChat({ model: 'm', messages: [], tools: [TOOL], tool_choice: 'auto' }, false)['tools']).to.deep.equal([TOOL]);
    expect(toCohereChat({ model: 'm', messages: [], tools: [TOOL], tool_choice: 'required' }, false)['tool_choice']).to.equal('REQUIRED');
    expect(toCohereChat({ model: 'm', messages: [], tools: [TOOL], tool_choice: 'none' }, false)['tool_choice']).to.equal('NONE');
    const named = toCohereChat({ model: 'm', messages: [], tools: [TOOL, other], tool_choice: { type: 'function', function: { name: 'other' } } }, false);
    expect(named['tool_choice']).to.equal('REQUIRED');
    expect(named['tools']).to.deep.equal([{ type: 'function', function: { name: 'other' } }]);
    expect(named['strict_tools']).to.equal(true);
  });

  it('refuses what Cohere cannot answer: n > 1, functions, function messages, unknown content parts', () => {
    const status = (body: Record<string, unknown>) => {
      try {
        toCohereChat({ model: 'm', messages: [{ role: 'user', content: 'x' }], ...body }, false);
        return 0;
      } catch (e) {
        return [(e as { status: number }).status, (e as { param: string }).param];
      }
    };
    expect(status({ n: 2 })).to.deep.equal([400, 'n']);
    expect(status({ functions: [{ name: 'f' }] })).to.deep.equal([400, 'functions']);
    expect(status({ messages: [{ role: 'function', name: 'f', content: 'r' }] })).to.deep.equal([400, 'messages.0.role']);
    expect(status({ messages: [{ role: 'user', content: [{ type: 'input_audio' }] }] })).to.deep.equal([400, 'messages.0.content.0.type']);
    expect(status({ n: 1 })).to.equal(0);
  });
});
