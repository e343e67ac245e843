/** Unified chat body → Converse request body. */
import { expect } from 'chai';
import { GatewayError } from '../../../core/index.js';
import { toConverseRequest } from '../../../providers/bedrock/chat-request.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const TOOL = { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };

function thrown(run: () => unknown): GatewayError {
  try {
    run();
  } catch (e) {
    expect(e).to.be.instanceOf(GatewayError);
    return e as GatewayError;
  }
  return expect.fail('expected a GatewayError');
}

describe('bedrock chat request (unified → Converse)', () => {
  it('lifts system and developer messages into system blocks and keeps user text', () => {
    const req = toConverseRequest({
      model: 'm',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
        { role: 'user', content: 'hi' },
      ],
    });
    expect(req.system).to.deep.equal([{ text: 'You are terse.' }, { text: 'Answer in French.' }]);
    expect(req.messages).to.deep.equal([{ role: 'user', content: [{ text: 'hi' }] }]);
    expect(req).to.not.have.property('inferenceConfig');
    expect(req).to.not.have.property('toolConfig');
    expect(req).to.not.have.property('model');
  });

  it('maps sampling fields to inferenceConfig (max_completion_tokens over max_tokens, stop as a list)', () => {
    const req = toConverseRequest({ model: 'm', messages: [{ role: 'user', content: 'x' }], max_tokens: 10, max_completion_tokens: 20, temperature: 0.5, top_p: 0.9, stop: 'END' });
    expect(req.inferenceConfig).to.deep.equal({ maxTokens: 20, temperature: 0.5, topP: 0.9, stopSequences: ['END'] });
    expect(toConverseRequest({ model: 'm', messages: [{ role: 'user', content: 'x' }], max_tokens: 7, stop: ['a', 'b'] }).inferenceConfig)
      .to.deep.equal({ maxTokens: 7, stopSequences: ['a', 'b'] });
    expect(toConverseRequest({ model: 'm', messages: [{ role: 'user', content: 'x' }], max_tokens: null, temperature: null }).inferenceConfig).to.equal(undefined);
  });

  it('sends images from data URLs as bytes with their format', () => {
    const req = toConverseRequest({
      model: 'm',
      messages: [{ role: 'user', content: [
        { type: 'text', text: 'what is this?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        { type: 'image_url', image_url: `data:image/jpg;base64,${PNG}` },
      ] }],
    });
    expect(req.messages[0]!.content).to.deep.equal([
      { text: 'what is this?' },
      { image: { format: 'png', source: { bytes: PNG } } },
      { image: { format: 'jpeg', source: { bytes: PNG } } },
    ]);
  });

  it('refuses image URLs Converse cannot take (http, unknown formats) and other part types with the field path', () => {
    const http = thrown(() => toConverseRequest({ model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x.test/cat.png' } }] }] }));
    expect(http.status).to.equal(400);
    expect(http.message).to.equal('body.messages.0.content.0.image_url.url: must be a base64 data URL of a png, jpeg, gif or webp image for provider "bedrock"');
    const bmp = thrown(() => toConverseRequest({ model: 'm', messages: [{ role: 'user', content: 'a' }, { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/bmp;base64,AAAA' } }] }] }));
    expect(bmp.param).to.equal('messages.1.content.0.image_url.url');
    const audio = thrown(() => toConverseRequest({ model: 'm', messages: [{ role: 'user', content: [{ type: 'input_audio' }] }] }));
    expect(audio.param).to.equal('messages.0.content.0.type');
  });

  it('maps tools and every tool_choice', () => {
    const base = { model: 'm', messages: [{ role: 'user', content: 'weather?' }], tools: [TOOL] };
    const spec = { toolSpec: { name: 'get_weather', description: 'Weather', inputSchema: { json: TOOL.function.parameters } } };
    expect(toConverseRequest(base).toolConfig).to.deep.equal({ tools: [spec] });
    expect(toConverseRequest({ ...base, tool_choice: 'auto' }).toolConfig!.toolChoice).to.deep.equal({ auto: {} });
    expect(toConverseRequest({ ...base, tool_choice: 'required' }).toolConfig!.toolChoice).to.deep.equal({ any: {} });
    expect(toConverseRequest({ ...base, tool_choice: { type: 'function', function: { name: 'get_weather' } } }).toolConfig!.toolChoice)
      .to.deep.equal({ tool: { name: 'get_weather' } });
    expect(toConverseRequest({ ...base, tool_choice: 'none' }).toolConfig).to.equal(undefined);
    const noParams = toConverseRequest({ ...base, tools: [{ type: 'function', function: { name: 'ping' } }] });
    expect(noParams.toolConfig!.tools[0]!.toolSpec).to.deep.equal({ name: 'ping', inputSchema: { json: { type: 'object', properties: {} } } });
  });

  it('turns a tool round trip into alternating turns: toolUse in the assistant turn, all results in one user turn', () => {
    const req = toConverseRequest({
      model: 'm',
      tools: [TOOL],
      tool_choice: 'none',
      messages: [
        { role: 'user', content: 'weather in Paris and Rome?' },
        { role: 'assistant', content: null, tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '' } },
        ] },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
        { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: 'rainy' }] },
        { role: 'user', content: 'thanks, and?' },
      ],
    });
    expect(req.messages.map((m) => m.role)).to.deep.equal(['user', 'assistant', 'user']);
    expect(req.messages[1]!.content).to.deep.equal([
      { toolUse: { toolUseId: 'call_1', name: 'get_weather', input: { city: 'Paris' } } },
      { toolUse: { toolUseId: 'call_2', name: 'get_weather', input: {} } },
    ]);
    expect(req.messages[2]!.content).to.deep.equal([
      { toolResult: { toolUseId: 'call_1', content: [{ text: 'sunny' }] } },
      { toolResult: { toolUseId: 'call_2', content: [{ text: 'rainy' }] } },
      { text: 'thanks, and?' },
    ]);
    // tool_choice none keeps the tools: Converse requires them once turns hold toolUse / toolResult.
    expect(req.toolConfig!.tools).to.have.length(1);
    expect(req.toolConfig).to.not.have.property('toolChoice');
  });

  it('drops blank assistant text and empty turns, and refuses tool arguments that are not JSON', () => {
    const req = toConverseRequest({ model: 'm', messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: '  ' }, { role: 'user', content: 'b' }] });
    expect(req.messages).to.deep.equal([{ role: 'user', content: [{ text: 'a' }, { text: 'b' }] }]);
    const bad = thrown(() => toConverseRequest({ model: 'm', messages: [{ role: 'user', content: 'a' }, { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{oops' } }] }] }));
    expect(bad.param).to.equal('messages.1.tool_calls.0.function.arguments');
  });
});
