import { expect } from 'chai';
import { finishReason, isMessage, toChatCompletion, toUsage } from '../../../providers/anthropic/response.js';
import type { Message } from '../../../providers/anthropic/wire.js';
import { MESSAGE_TEXT, MESSAGE_THINKING, MESSAGE_TOOL_USE } from './fixtures.js';

const asMessage = (m: unknown) => m as Message;

describe('anthropic response transform', () => {
  it('turns a text message into a chat completion, keeping id and model as reported', () => {
    const c = toChatCompletion(asMessage(MESSAGE_TEXT), 'anthropic', true);
    expect(c).to.include({ id: 'msg_013Zva2CMHLNnXjNJJKqJ2EF', object: 'chat.completion', model: 'claude-sonnet-4-5-20250929', provider: 'anthropic' });
    expect(c.created).to.be.a('number');
    expect(c.choices).to.deep.equal([{ index: 0, message: { role: 'assistant', content: 'Hi! My name is Claude.', refusal: null }, finish_reason: 'stop', logprobs: null }]);
    expect(c.usage).to.deep.equal({ prompt_tokens: 2095, completion_tokens: 503, total_tokens: 2598 });
  });

  it('turns tool_use blocks into tool_calls with JSON string arguments', () => {
    const c = toChatCompletion(asMessage(MESSAGE_TOOL_USE), 'anthropic', true);
    const choice = c.choices[0]!;
    expect(choice.finish_reason).to.equal('tool_calls');
    expect(choice.message.content).to.equal("I'll check the current weather in San Francisco for you.");
    expect(choice.message.tool_calls).to.deep.equal([
      { id: 'toolu_01A09q90qw90lq917835lq9', type: 'function', function: { name: 'get_weather', arguments: '{"location":"San Francisco, CA","unit":"celsius"}' } },
    ]);
  });

  it('answers content null when there are only tool calls, "" when there is nothing', () => {
    const toolOnly = { ...MESSAGE_TOOL_USE, content: [MESSAGE_TOOL_USE.content[1]] };
    expect(toChatCompletion(asMessage(toolOnly), 'anthropic', true).choices[0]!.message.content).to.equal(null);
    expect(toChatCompletion(asMessage({ ...MESSAGE_TEXT, content: [] }), 'anthropic', true).choices[0]!.message.content).to.equal('');
  });

  it('hides thinking under strict compliance', () => {
    const c = toChatCompletion(asMessage(MESSAGE_THINKING), 'anthropic', true);
    expect(c.choices[0]!.message).to.not.have.property('content_blocks');
    expect(c.choices[0]!.message.content).to.equal('Based on my analysis...');
    expect(c.choices[0]!.finish_reason).to.equal('length');
  });

  it('surfaces thinking, redacted thinking and text as content_blocks in order without strict compliance', () => {
    const c = toChatCompletion(asMessage(MESSAGE_THINKING), 'anthropic', false);
    expect(c.choices[0]!.message.content_blocks).to.deep.equal([
      { type: 'thinking', thinking: 'Let me analyze this step by step...', signature: MESSAGE_THINKING.content[0]!.signature },
      { type: 'redacted_thinking', data: MESSAGE_THINKING.content[1]!.data },
      { type: 'text', text: 'Based on my analysis...' },
    ]);
  });

  it('counts cache reads and writes into prompt_tokens and reports reads as cached_tokens', () => {
    expect(toUsage(MESSAGE_THINKING.usage)).to.deep.equal({
      prompt_tokens: 2015, completion_tokens: 120, total_tokens: 2135, prompt_tokens_details: { cached_tokens: 2000 },
    });
    expect(toUsage({ input_tokens: 3, output_tokens: 4, cache_read_input_tokens: null })).to.deep.equal({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
  });

  it('maps every stop reason', () => {
    expect(finishReason('end_turn')).to.equal('stop');
    expect(finishReason('stop_sequence')).to.equal('stop');
    expect(finishReason('pause_turn')).to.equal('stop');
    expect(finishReason('max_tokens')).to.equal('length');
    expect(finishReason('model_context_window_exceeded')).to.equal('length');
    expect(finishReason('tool_use')).to.equal('tool_calls');
    expect(finishReason('refusal')).to.equal('content_filter');
    expect(finishReason(null)).to.equal('stop');
  });

  it('recognises a Messages API message and nothing else', () => {
    expect(isMessage(MESSAGE_TEXT)).to.equal(true);
    expect(isMessage({ choices: [] })).to.equal(false);
    expect(isMessage(null)).to.equal(false);
    expect(isMessage({ type: 'message', content: 'x' })).to.equal(false);
  });
});
