/** Unified chat body → Gemini generateContent body. */
import { expect } from 'chai';
import { GatewayError } from '../../../core/index.js';
import { toGeminiRequest } from '../../../providers/vertex-ai/gemini-request.js';

const WEATHER = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather',
    parameters: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

function refused(body: Record<string, unknown>): GatewayError {
  try {
    toGeminiRequest(body);
  } catch (e) {
    expect(e).to.be.instanceOf(GatewayError);
    return e as GatewayError;
  }
  return expect.fail('expected a 400');
}

describe('vertex-ai Gemini request mapping', () => {
  it('lifts system and developer messages into systemInstruction and maps roles to user/model', () => {
    const out = toGeminiRequest({
      model: 'gemini-2.0-flash',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'salut' },
        { role: 'user', content: [{ type: 'text', text: 'again' }, { type: 'text', text: 'please' }] },
      ],
    });
    expect(out).to.deep.equal({
      systemInstruction: { parts: [{ text: 'You are terse.' }, { text: 'Answer in French.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ text: 'salut' }] },
        { role: 'user', parts: [{ text: 'again' }, { text: 'please' }] },
      ],
    });
    expect(out).to.not.have.property('model');
  });

  it('turns data URLs into inlineData and http(s)/gs URLs into fileData', () => {
    const out = toGeminiRequest({
      messages: [{
        role: 'user',
        content: [
          { type: 'text', text: 'what is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'image_url', image_url: { url: 'gs://bucket/cat.webp' } },
          { type: 'image_url', image_url: { url: 'https://example.com/doc.pdf?x=1' } },
          { type: 'input_audio', input_audio: { data: 'AAAA', format: 'mp3' } },
        ],
      }],
    }) as { contents: { parts: unknown[] }[] };
    expect(out.contents[0]!.parts).to.deep.equal([
      { text: 'what is this?' },
      { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
      { fileData: { mimeType: 'image/webp', fileUri: 'gs://bucket/cat.webp' } },
      { fileData: { mimeType: 'application/pdf', fileUri: 'https://example.com/doc.pdf?x=1' } },
      { inlineData: { mimeType: 'audio/mp3', data: 'AAAA' } },
    ]);
  });

  it('maps a tool round trip: functionCall parts, then functionResponse parts named after the call, in one user turn', () => {
    const out = toGeminiRequest({
      messages: [
        { role: 'user', content: 'weather in Paris and Rome?' },
        {
          role: 'assistant', content: null, tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
        { role: 'tool', tool_call_id: 'call_2', content: 'sunny' },
      ],
      tools: [WEATHER],
    }) as Record<string, unknown>;
    expect(out['contents']).to.deep.equal([
      { role: 'user', parts: [{ text: 'weather in Paris and Rome?' }] },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }, { functionCall: { name: 'get_weather', args: { city: 'Rome' } } }] },
      { role: 'user', parts: [
        { functionResponse: { name: 'get_weather', response: { temp: 21 } } },
        { functionResponse: { name: 'get_weather', response: { content: 'sunny' } } },
      ] },
    ]);
    expect(out['tools']).to.deep.equal([{ functionDeclarations: [{
      name: 'get_weather', description: 'Current weather',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    }] }]);
  });

  it('maps tool_choice to functionCallingConfig', () => {
    const config = (tool_choice: unknown) => (toGeminiRequest({ messages: [{ role: 'user', content: 'x' }], tools: [WEATHER], tool_choice }) as Record<string, any>)['toolConfig'];
    expect(config('auto')).to.deep.equal({ functionCallingConfig: { mode: 'AUTO' } });
    expect(config('none')).to.deep.equal({ functionCallingConfig: { mode: 'NONE' } });
    expect(config('required')).to.deep.equal({ functionCallingConfig: { mode: 'ANY' } });
    expect(config({ type: 'function', function: { name: 'get_weather' } })).to.deep.equal({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } });
    expect(config(undefined)).to.equal(undefined);
  });

  it('maps sampling fields to generationConfig and JSON response formats to responseMimeType', () => {
    const out = toGeminiRequest({
      messages: [{ role: 'user', content: 'x' }],
      temperature: 0.2, top_p: 0.9, max_tokens: 100, max_completion_tokens: 50, stop: 'END', n: 2, seed: 7,
      presence_penalty: 0.5, frequency_penalty: -0.5, logit_bias: { 1: 2 }, user: 'u-1',
      response_format: { type: 'json_schema', json_schema: { name: 's', schema: { type: 'object', properties: { a: { type: 'string' } } } } },
    }) as Record<string, unknown>;
    expect(out['generationConfig']).to.deep.equal({
      temperature: 0.2, topP: 0.9, maxOutputTokens: 50, stopSequences: ['END'], candidateCount: 2, seed: 7,
      presencePenalty: 0.5, frequencyPenalty: -0.5,
      responseMimeType: 'application/json', responseSchema: { type: 'object', properties: { a: { type: 'string' } } },
    });
    const json = toGeminiRequest({ messages: [{ role: 'user', content: 'x' }], response_format: { type: 'json_object' }, stop: ['a', 'b'] }) as Record<string, unknown>;
    expect(json['generationConfig']).to.deep.equal({ stopSequences: ['a', 'b'], responseMimeType: 'application/json' });
  });

  it('leaves the client body untouched (configs and bodies may be shared, frozen objects)', () => {
    const body = Object.freeze({
      messages: Object.freeze([Object.freeze({ role: 'user', content: 'hi' }), Object.freeze({ role: 'user', content: 'again' })]),
      tools: Object.freeze([WEATHER]),
    });
    const out = toGeminiRequest(body as unknown as Record<string, unknown>) as { contents: unknown[] };
    expect(out.contents).to.deep.equal([{ role: 'user', parts: [{ text: 'hi' }, { text: 'again' }] }]);
    expect(WEATHER.function.parameters.$schema).to.be.a('string');
  });

  it('refuses what Gemini cannot express, naming the field', () => {
    expect(refused({ messages: [{ role: 'tool', tool_call_id: 'nope', content: 'x' }] }).param).to.equal('messages.0.tool_call_id');
    expect(refused({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'ftp://x/y.png' } }] }] }).param).to.equal('messages.0.content.0.image_url.url');
    expect(refused({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png,raw' } }] }] }).param).to.equal('messages.0.content.0.image_url.url');
    expect(refused({ messages: [{ role: 'user', content: [{ type: 'video', url: 'x' }] }] }).param).to.equal('messages.0.content.0.type');
    expect(refused({ messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{oops' } }] }] }).param)
      .to.equal('messages.0.tool_calls.0.function.arguments');
    expect(refused({ messages: [{ role: 'system', content: 'only a system prompt' }] }).param).to.equal('messages');
  });
});
