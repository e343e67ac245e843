/**
 * feature.responses end to end. Two providers: `openai` pointed at a mock with a native
 * /v1/responses (mock-openai-ft.ts), and `groq` (an OpenAI-compatible preset without the native API)
 * pointed at the chat mock (mock-openai.ts), so requests to it are translated through chat.
 */
import { expect } from 'chai';
import OpenAI from 'openai';
import { Services } from '../../../../core/index.js';
import ResponsesPlugin from '../../../../plugins/features/responses/index.js';
import { configHeaders, postJson, startGateway, TEST_API_KEY, type JsonReply, type TestGateway } from '../../../helpers/gateway.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { startMockOpenAIStateful, type MockOpenAIStateful } from '../../../fixtures/mock-openai-ft.js';
import TestPrincipalPlugin from '../prompts/principal-plugin.js';

async function call(method: string, url: string, headers: Record<string, string>): Promise<JsonReply> {
  const res = await fetch(url, { method, headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined, text };
}

/** The events of a Responses stream, in order. */
function parseEvents(text: string): { event: string; data: any }[] {
  return text.split('\n\n').filter((block) => block.trim()).map((block) => {
    const event = /^event: (.*)$/m.exec(block)?.[1] ?? '';
    const data = /^data: (.*)$/m.exec(block)?.[1] ?? '';
    return { event, data: data === '[DONE]' ? data : JSON.parse(data) };
  });
}

describe('feature.responses (end to end)', () => {
  let gw: TestGateway;
  let chatMock: MockOpenAI;
  let nativeMock: MockOpenAIStateful;

  /** Translated: a provider without a native Responses API. */
  const viaChat = (extra: Record<string, string> = {}): Record<string, string> => ({
    'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY,
    'x-gw-provider': 'groq', authorization: 'Bearer gsk-test', 'x-gw-custom-host': `${chatMock.url}/v1`, ...extra,
  });
  /** Native: openai's own /v1/responses. */
  const native = (extra: Record<string, string> = {}): Record<string, string> => ({
    'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY,
    'x-gw-provider': 'openai', authorization: 'Bearer sk-test', 'x-gw-custom-host': `${nativeMock.url}/v1`, ...extra,
  });
  const create = (body: unknown, headers: Record<string, string> = viaChat()) => postJson(gw.url, '/v1/responses', body, headers);
  const retrieve = (id: string, query = '', headers: Record<string, string> = viaChat()) => call('GET', `${gw.url}/v1/responses/${id}${query}`, headers);
  const sdk = (headers: Record<string, string>) => new OpenAI({ apiKey: headers['authorization']!.slice(7), baseURL: `${gw.url}/v1`, maxRetries: 0, defaultHeaders: headers });
  const storedRows = () => gw.gateway.runtime.services.get(Services.Records).all<{ id: string; status: string }>('SELECT id, status FROM stored_responses');

  before(async () => {
    chatMock = await startMockOpenAI();
    nativeMock = await startMockOpenAIStateful();
    gw = await startGateway({
      plugins: [{ use: ResponsesPlugin, options: { contextWindows: { 'tiny-model': 20 }, maxChainDepth: 3 } }, TestPrincipalPlugin],
    });
  });
  after(async () => {
    await gw?.stop();
    await chatMock?.close();
    await nativeMock?.close();
  });
  beforeEach(() => {
    chatMock.reset();
    nativeMock.reset();
  });

  describe('translated through chat', () => {
    it('answers a Response object built from the chat completion', async () => {
      const res = await create({ model: 'llama-3.1-8b', input: 'hi' });
      expect(res.status, res.text).to.equal(200);
      const r = res.json;
      expect(r.id).to.match(/^resp_[0-9a-f]{48}$/);
      expect(r).to.include({ object: 'response', status: 'completed', model: 'llama-3.1-8b', output_text: 'echo: hi', error: null, incomplete_details: null, previous_response_id: null, store: true, temperature: 1, top_p: 1, truncation: 'disabled', tool_choice: 'auto', parallel_tool_calls: true, instructions: null });
      expect(r.created_at).to.be.a('number');
      expect(r.output).to.have.length(1);
      expect(r.output[0]).to.deep.include({ type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'echo: hi', annotations: [] }] });
      expect(r.output[0].id).to.match(/^msg_/);
      expect(r.usage).to.have.all.keys('input_tokens', 'input_tokens_details', 'output_tokens', 'output_tokens_details', 'total_tokens');
      expect(r.usage.total_tokens).to.equal(r.usage.input_tokens + r.usage.output_tokens);
      expect(r.metadata).to.deep.equal({});
      expect(res.headers.get('x-gw-provider')).to.equal('groq');
      expect(res.headers.get('x-gw-last-used-option-index')).to.equal('config');
      expect(chatMock.requests[0]!.path).to.equal('/v1/chat/completions');
      expect(chatMock.requests[0]!.body).to.deep.equal({ model: 'llama-3.1-8b', messages: [{ role: 'user', content: 'hi' }] });
    });

    it('translates instructions, sampling, items, tools and text format into the chat body', async () => {
      const schema = { type: 'object', properties: { city: { type: 'string' } } };
      const res = await create({
        model: 'llama-3.1-8b',
        instructions: 'Be brief.',
        input: [
          { role: 'user', content: [{ type: 'input_text', text: 'Look: ' }, { type: 'input_image', image_url: 'https://x/cat.png', detail: 'low' }] },
          { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'A cat.' }] },
          { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{"city":"Oslo"}' },
          { type: 'function_call', call_id: 'call_2', name: 'weather', arguments: '{"city":"Rome"}' },
          { type: 'function_call_output', call_id: 'call_1', output: 'rain' },
          { type: 'function_call_output', call_id: 'call_2', output: { sky: 'clear' } },
          { type: 'reasoning', id: 'rs_1', summary: [] },
          { role: 'developer', content: 'Use metric units.' },
        ],
        temperature: 0.3,
        top_p: 0.9,
        max_output_tokens: 64,
        user: 'u-1',
        text: { format: { type: 'json_schema', name: 'city', schema, strict: true } },
        tools: [{ type: 'function', name: 'weather', description: 'Weather', parameters: schema, strict: false }],
        tool_choice: { type: 'function', name: 'weather' },
        parallel_tool_calls: false,
        metadata: { team: 'a' },
      });
      expect(res.status, res.text).to.equal(200);
      expect(chatMock.requests[0]!.body).to.deep.equal({
        model: 'llama-3.1-8b',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'Look: ' }, { type: 'image_url', image_url: { url: 'https://x/cat.png', detail: 'low' } }] },
          { role: 'assistant', content: 'A cat.' },
          {
            role: 'assistant', content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
              { id: 'call_2', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: 'rain' },
          { role: 'tool', tool_call_id: 'call_2', content: '{"sky":"clear"}' },
          { role: 'developer', content: 'Use metric units.' },
        ],
        temperature: 0.3,
        top_p: 0.9,
        max_completion_tokens: 64,
        user: 'u-1',
        response_format: { type: 'json_schema', json_schema: { name: 'city', schema, strict: true } },
        tools: [{ type: 'function', function: { name: 'weather', description: 'Weather', parameters: schema, strict: false } }],
        parallel_tool_calls: false,
        tool_choice: { type: 'function', function: { name: 'weather' } },
      });
      expect(res.json).to.deep.include({ instructions: 'Be brief.', temperature: 0.3, top_p: 0.9, max_output_tokens: 64, user: 'u-1', metadata: { team: 'a' }, parallel_tool_calls: false });
    });

    it('maps tool calls to function_call output items', async () => {
      const res = await create({ model: 'm', input: 'weather?', tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object' } }] });
      expect(res.status, res.text).to.equal(200);
      expect(res.json.output).to.have.length(1);
      expect(res.json.output[0]).to.deep.include({ type: 'function_call', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' });
      expect(res.json.output[0].call_id).to.match(/^call_mock_/);
      expect(res.json.output_text).to.equal('');
    });

    it('a chat answer cut by the token limit is incomplete (max_output_tokens)', async () => {
      chatMock.next({
        status: 200,
        body: {
          id: 'c1', object: 'chat.completion', created: 1, model: 'm',
          choices: [{ index: 0, message: { role: 'assistant', content: 'Once upon' }, finish_reason: 'length', logprobs: null }],
          usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7, prompt_tokens_details: { cached_tokens: 3 }, completion_tokens_details: { reasoning_tokens: 1 } },
        },
      });
      const res = await create({ model: 'm', input: 'story', max_output_tokens: 2 });
      expect(res.json).to.deep.include({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output_text: 'Once upon' });
      expect(res.json.usage).to.deep.equal({ input_tokens: 5, input_tokens_details: { cached_tokens: 3 }, output_tokens: 2, output_tokens_details: { reasoning_tokens: 1 }, total_tokens: 7 });
      expect((await retrieve(res.json.id)).json.status).to.equal('incomplete');
    });

    const untranslatable: [string, unknown, string][] = [
      ['a built-in tool', { tools: [{ type: 'web_search' }] }, 'body.tools.0.type: "web_search" needs a provider with a native Responses API'],
      ['an item reference', { input: [{ type: 'item_reference', id: 'msg_1' }] }, 'body.input.0.type: "item_reference" needs a provider with a native Responses API'],
      ['a file input', { input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file-1' }] }] }, 'body.input.0.content.0.type: "input_file" needs a provider'],
      ['an image by file id', { input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-1' }] }] }, 'body.input.0.content.0.image_url: is required'],
      ['a built-in tool choice', { tool_choice: { type: 'file_search' } }, 'body.tool_choice: {"type":"file_search"} needs a provider'],
      ['an item without type or role', { input: [{ content: 'x' }] }, 'body.input.0.type: is required (or role, for a message)'],
      ['a message with an unknown role', { input: [{ role: 'robot', content: 'x' }] }, 'body.input.0.role: must be one of'],
      ['a function call without call_id', { input: [{ type: 'function_call', name: 'f', arguments: '{}' }] }, 'body.input.0.call_id: is required'],
    ];
    for (const [what, extra, message] of untranslatable) {
      it(`answers 400 for ${what}, without calling the provider or storing`, async () => {
        const before = (await storedRows()).length;
        const res = await create({ model: 'm', input: 'x', ...(extra as object) });
        expect(res.status, res.text).to.equal(400);
        expect(res.json.error.message).to.include(message);
        expect(chatMock.requests).to.have.length(0);
        expect((await storedRows()).length).to.equal(before);
      });
    }
  });

  describe('body validation (§2.2, §8)', () => {
    const invalid: [string, Record<string, unknown>, string][] = [
      ['a missing model', { model: undefined }, 'body.model: is required'],
      ['a missing input', { input: undefined }, 'body.input: is required'],
      ['an empty input array', { input: [] }, 'body.input: must be a string or a non-empty array of input items'],
      ['a temperature over 2', { temperature: 2.1 }, 'body.temperature: must be a number >= 0 and <= 2 or null'],
      ['a negative temperature', { temperature: -0.1 }, 'body.temperature: must be a number >= 0 and <= 2 or null'],
      ['top_p over 1', { top_p: 1.01 }, 'body.top_p: must be a number >= 0 and <= 1 or null'],
      ['max_output_tokens of 0', { max_output_tokens: 0 }, 'body.max_output_tokens: must be an integer >= 1 and <= 9007199254740991 or null'],
      ['17 metadata pairs', { metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) }, 'body.metadata: must have at most 16 key-value pairs'],
      ['a 65-character metadata key', { metadata: { ['k'.repeat(65)]: 'v' } }, 'key must be at most 64 characters'],
      ['a 513-character metadata value', { metadata: { k: 'v'.repeat(513) } }, 'body.metadata.k: must be at most 512 characters'],
      ['a metadata value that is not a string', { metadata: { k: 1 } }, 'body.metadata.k: must be a string'],
      ['an unknown truncation', { truncation: 'sometimes' }, 'body.truncation: must be'],
      ['a function tool without a name', { tools: [{ type: 'function' }] }, 'body.tools.0.name: is required for a function tool'],
      ['an unknown text format', { text: { format: { type: 'yaml' } } }, 'body.text.format.type: must be one of "text", "json_object", "json_schema"'],
      ['store that is not a boolean', { store: 'yes' }, 'body.store: must be a boolean or null'],
    ];
    for (const [what, extra, message] of invalid) {
      it(`answers 400 for ${what}`, async () => {
        const res = await create({ model: 'm', input: 'x', ...extra });
        expect(res.status, res.text).to.equal(400);
        expect(res.json.error.message).to.include(message);
        expect(chatMock.requests).to.have.length(0);
      });
    }

    it('accepts the edges: 16 pairs, 64/512 characters, temperature 0 and 2, top_p 0 and 1', async () => {
      const metadata = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`${i}`.padEnd(64, 'k'), 'v'.repeat(512)]));
      for (const extra of [{ temperature: 0, top_p: 0 }, { temperature: 2, top_p: 1 }]) {
        const res = await create({ model: 'm', input: 'x', metadata, ...extra });
        expect(res.status, res.text).to.equal(200);
        expect(res.json.metadata).to.deep.equal(metadata);
      }
    });

    it('a body that is not JSON object, and a missing gateway key', async () => {
      expect((await create([1])).json.error.message).to.equal('body: must be a JSON object');
      const { 'x-gw-api-key': _k, ...noKey } = viaChat();
      expect((await create({ model: 'm', input: 'x' }, noKey)).status).to.equal(401);
    });
  });

  describe('stored responses', () => {
    it('round trip: create, retrieve (also through the SDK), delete', async () => {
      const created = await create({ model: 'm', input: 'remember me', metadata: { k: 'v' } });
      const got = await retrieve(created.json.id);
      expect(got.status).to.equal(200);
      expect(got.json).to.deep.equal(created.json);
      const viaSdk = await sdk(viaChat()).responses.retrieve(created.json.id);
      expect(viaSdk.output_text).to.equal('echo: remember me');
      expect(viaSdk.metadata).to.deep.equal({ k: 'v' });

      const deleted = await call('DELETE', `${gw.url}/v1/responses/${created.json.id}`, viaChat());
      expect(deleted.json).to.deep.equal({ id: created.json.id, object: 'response', deleted: true });
      expect((await retrieve(created.json.id)).status).to.equal(404);
      expect((await call('DELETE', `${gw.url}/v1/responses/${created.json.id}`, viaChat())).status).to.equal(404);
    });

    it('store: false keeps nothing', async () => {
      const created = await create({ model: 'm', input: 'forget me', store: false });
      expect(created.status).to.equal(200);
      expect(created.json.store).to.equal(false);
      const res = await retrieve(created.json.id);
      expect(res.status).to.equal(404);
      expect(res.json.error.code).to.equal('response_not_found');
    });

    it('is in_progress while the provider works, then completed', async () => {
      chatMock.next({ delayMs: 300 });
      const pending = create({ model: 'm', input: 'slow' });
      let seen: string | undefined;
      for (let i = 0; i < 50 && seen === undefined; i++) {
        await new Promise((r) => setTimeout(r, 10));
        seen = (await storedRows()).find((row) => row.status === 'in_progress')?.id;
      }
      expect(seen, 'an in_progress record').to.be.a('string');
      expect((await retrieve(seen!)).json.status).to.equal('in_progress');
      const done = await pending;
      expect(done.json.id).to.equal(seen);
      expect((await retrieve(seen!)).json.status).to.equal('completed');
    });

    it('a provider failure passes on with its status and is stored failed with error', async () => {
      chatMock.next({ status: 500 });
      const res = await create({ model: 'm', input: 'boom' });
      expect(res.status).to.equal(500);
      expect(res.json.provider).to.equal('groq');
      const id = res.headers.get('x-gw-response-id');
      expect(id).to.match(/^resp_/);
      const got = await retrieve(id!);
      expect(got.json.status).to.equal('failed');
      expect(got.json.error.message).to.be.a('string').and.not.equal('');
      expect(got.json.output).to.deep.equal([]);
    });

    it('an unreachable provider is a 502 and a failed record', async () => {
      const res = await create({ model: 'm', input: 'x' }, viaChat({ 'x-gw-custom-host': 'http://127.0.0.1:1/v1' }));
      expect(res.status).to.equal(502);
      const got = await retrieve(res.headers.get('x-gw-response-id')!);
      expect(got.json).to.deep.include({ status: 'failed' });
      expect(got.json.error.message).to.include('unreachable');
    });

    it('a client that gives up on a call in flight leaves a failed record (client_closed), not in_progress', async () => {
      chatMock.next({ hang: true });
      const abort = new AbortController();
      const pending = fetch(`${gw.url}/v1/responses`, { method: 'POST', signal: abort.signal, headers: viaChat(), body: JSON.stringify({ model: 'm', input: 'never mind' }) });
      pending.catch(() => undefined);
      let id: string | undefined;
      for (let i = 0; i < 100 && id === undefined; i++) {
        await new Promise((r) => setTimeout(r, 10));
        id = (await storedRows()).find((row) => row.status === 'in_progress')?.id;
      }
      expect(id, 'an in_progress record').to.be.a('string');
      abort.abort();
      let got: JsonReply | undefined;
      for (let i = 0; i < 100 && got?.json.status !== 'failed'; i++) {
        await new Promise((r) => setTimeout(r, 10));
        got = await retrieve(id!);
      }
      expect(got!.json).to.deep.include({ status: 'failed', error: { code: 'client_closed', message: 'client closed the request' } });
    });

    it('a translated call that times out leaves a failed record', async () => {
      chatMock.next({ hang: true });
      const res = await create({ model: 'm', input: 'too slow' }, viaChat({ 'x-gw-request-timeout': '80' }));
      expect(res.status).to.equal(408);
      const got = await retrieve(res.headers.get('x-gw-response-id')!);
      expect(got.json.status).to.equal('failed');
      expect(got.json.error.message).to.be.a('string').and.not.equal('');
    });

    it('include: file_search results only when asked; unknown values are a 400', async () => {
      const fileSearch = { type: 'file_search_call', id: 'fs_1', status: 'completed', queries: ['q'], results: [{ file_id: 'file-1', text: 'hit', score: 0.9 }] };
      nativeMock.next({
        status: 200,
        body: { id: 'resp_fs1', object: 'response', created_at: 1, status: 'completed', model: 'gpt-4o', output: [fileSearch], tools: [{ type: 'file_search', vector_store_ids: ['vs_1'] }] },
      });
      const created = await create({ model: 'gpt-4o', input: 'find', tools: [{ type: 'file_search', vector_store_ids: ['vs_1'] }] }, native());
      expect(created.status, created.text).to.equal(200);
      expect((await retrieve('resp_fs1')).json.output[0].results).to.equal(null);
      const withResults = await retrieve('resp_fs1', '?include=file_search_call.results');
      expect(withResults.json.output[0].results).to.deep.equal(fileSearch.results);
      const viaSdk = await sdk(native()).responses.retrieve('resp_fs1', { include: ['file_search_call.results', 'message.input_image.image_url'] });
      expect((viaSdk.output[0] as { results: unknown }).results).to.deep.equal(fileSearch.results);
      const bad = await retrieve('resp_fs1', '?include=everything');
      expect(bad.status).to.equal(400);
      expect(bad.json.error.message).to.include('query.include: "everything" is not one of');
    });

    it('records belong to the caller organisation and workspace', async () => {
      const as = (org: string, workspace?: string) => viaChat({ 'x-test-org': org, ...(workspace ? { 'x-test-workspace': workspace } : {}) });
      const created = await create({ model: 'm', input: 'private' }, as('org-a', 'ws-1'));
      const id = created.json.id;
      expect((await retrieve(id, '', as('org-a', 'ws-1'))).status).to.equal(200);
      expect((await retrieve(id, '', as('org-a'))).status, 'organisation-level key').to.equal(200);
      expect((await retrieve(id, '', as('org-a', 'ws-2'))).status).to.equal(404);
      expect((await retrieve(id, '', as('org-b'))).status).to.equal(404);
      expect((await call('DELETE', `${gw.url}/v1/responses/${id}`, as('org-b'))).status).to.equal(404);
      const chained = await create({ model: 'm', input: 'more', previous_response_id: id }, as('org-b'));
      expect(chained.status).to.equal(404);
    });
    it("a provider answering with an existing id never overwrites that record", async () => {
      const victim = await create({ model: 'm', input: 'mine' }, viaChat({ 'x-test-org': 'org-victim' }));
      nativeMock.next({ status: 200, body: { id: victim.json.id, object: 'response', created_at: 1, status: 'completed', model: 'x', output: [] } });
      const res = await create({ model: 'gpt-4o', input: 'steal' }, native({ 'x-test-org': 'org-thief' }));
      expect(res.status).to.equal(200);
      expect((await retrieve(victim.json.id, '', viaChat({ 'x-test-org': 'org-victim' }))).json).to.deep.equal(victim.json);
      expect((await retrieve(victim.json.id, '', native({ 'x-test-org': 'org-thief' }))).status).to.equal(404);
    });
  });

  describe('previous_response_id', () => {
    it('prepends the stored conversation (input and output, without earlier instructions)', async () => {
      const r1 = await create({ model: 'm', input: 'My name is Ada.', instructions: 'Be kind.' });
      const r2 = await create({ model: 'm', input: [{ role: 'user', content: 'And my job?' }], previous_response_id: r1.json.id });
      expect(r2.status, r2.text).to.equal(200);
      expect(r2.json.previous_response_id).to.equal(r1.json.id);
      const r3 = await create({ model: 'm', input: 'Summarise.', previous_response_id: r2.json.id, instructions: 'Be short.' });
      expect(chatMock.requests[2]!.body.messages).to.deep.equal([
        { role: 'system', content: 'Be short.' },
        { role: 'user', content: 'My name is Ada.' },
        { role: 'assistant', content: 'echo: My name is Ada.' },
        { role: 'user', content: 'And my job?' },
        { role: 'assistant', content: 'echo: And my job?' },
        { role: 'user', content: 'Summarise.' },
      ]);
      expect(r3.json.output_text).to.equal('echo: Summarise.');
    });

    it('carries function calls and their outputs along the chain', async () => {
      const r1 = await create({ model: 'm', input: 'weather?', tools: [{ type: 'function', name: 'w' }] });
      const callId = r1.json.output[0].call_id;
      const r2 = await create({ model: 'm', input: [{ type: 'function_call_output', call_id: callId, output: 'sunny' }], previous_response_id: r1.json.id });
      expect(r2.status, r2.text).to.equal(200);
      expect(chatMock.requests[1]!.body.messages).to.deep.equal([
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: null, tool_calls: [{ id: callId, type: 'function', function: { name: 'w', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: callId, content: 'sunny' },
      ]);
    });

    it('an unknown previous response is a 404 for translated requests', async () => {
      const res = await create({ model: 'm', input: 'x', previous_response_id: 'resp_nope' });
      expect(res.status).to.equal(404);
      expect(chatMock.requests).to.have.length(0);
    });

    it('a chain longer than maxChainDepth is a 400', async () => {
      let previous: string | undefined;
      for (let i = 0; i < 3; i++) previous = (await create({ model: 'm', input: `turn ${i}`, previous_response_id: previous })).json.id;
      expect((await create({ model: 'm', input: 'ok', previous_response_id: previous })).status).to.equal(200);
      const deeper = (await create({ model: 'm', input: 'x', previous_response_id: previous, store: true })).json.id;
      const res = await create({ model: 'm', input: 'too deep', previous_response_id: deeper });
      expect(res.status).to.equal(400);
      expect(res.json.error.message).to.equal('body.previous_response_id: starts a chain of more than 3 responses');
    });
  });

  describe('context window and truncation (§7)', () => {
    it('truncation disabled (default): an input over the window is a 400 before any call', async () => {
      const res = await create({ model: 'tiny-model', input: 'x'.repeat(81) });
      expect(res.status).to.equal(400);
      expect(res.json.error.code).to.equal('context_length_exceeded');
      expect(res.json.error.message).to.equal('input: about 21 tokens (characters / 4) exceed the 20-token context window of tiny-model; send truncation "auto" to drop the oldest items');
      expect(chatMock.requests).to.have.length(0);
      expect((await create({ model: 'tiny-model', input: 'x'.repeat(80) })).status).to.equal(200);
    });

    it('counts instructions and the previous conversation', async () => {
      const r1 = await create({ model: 'tiny-model', input: 'y'.repeat(30) });
      expect(r1.status).to.equal(200);
      const over = await create({ model: 'tiny-model', input: 'z'.repeat(20), previous_response_id: r1.json.id });
      expect(over.status).to.equal(400);
      const withInstructions = await create({ model: 'tiny-model', input: 'z', instructions: 'i'.repeat(80) });
      expect(withInstructions.status).to.equal(400);
    });

    it('truncation auto drops the oldest items until the input fits', async () => {
      const r1 = await create({ model: 'tiny-model', input: 'a'.repeat(30) });
      const res = await create({ model: 'tiny-model', input: 'b'.repeat(30), previous_response_id: r1.json.id, truncation: 'auto' });
      expect(res.status, res.text).to.equal(200);
      expect(res.json.truncation).to.equal('auto');
      expect(chatMock.requests[1]!.body.messages).to.deep.equal([
        { role: 'assistant', content: `echo: ${'a'.repeat(30)}` },
        { role: 'user', content: 'b'.repeat(30) },
      ]);
    });

    it('uses the built-in table (gpt-4o: 128000 tokens) and leaves unknown models unchecked', async () => {
      const big = 'w'.repeat(128_000 * 4 + 4);
      const res = await create({ model: 'gpt-4o-2024-08-06', input: big });
      expect(res.status).to.equal(400);
      expect(res.json.error.message).to.include('128000-token context window of gpt-4o-2024-08-06');
      expect((await create({ model: 'unknown-model', input: big })).status).to.equal(200);
    });
  });

  describe('native Responses API', () => {
    it('forwards the body to {custom_host}/responses and stores the provider answer', async () => {
      const body = { model: 'gpt-4o', input: 'hello', temperature: 0.5, metadata: { a: 'b' }, reasoning: { effort: 'low' } };
      const res = await create(body, native());
      expect(res.status, res.text).to.equal(200);
      expect(nativeMock.requests[0]!.path).to.equal('/v1/responses');
      expect(nativeMock.requests[0]!.body).to.deep.equal(body);
      expect(nativeMock.requests[0]!.headers['authorization']).to.equal('Bearer sk-test');
      expect(res.json.id).to.match(/^resp_mock/);
      expect(res.json.output_text).to.equal('echo: hello');
      expect(res.headers.get('x-gw-provider')).to.equal('openai');
      const got = await retrieve(res.json.id, '', native());
      expect(got.json).to.deep.equal(res.json);
      expect(chatMock.requests).to.have.length(0);
    });

    it('works through the SDK', async () => {
      const response = await sdk(native()).responses.create({ model: 'gpt-4o', input: 'via sdk' });
      expect(response.output_text).to.equal('echo: via sdk');
      expect(response.status).to.equal('completed');
    });

    it('expands a stored chain itself (input items, no previous_response_id upstream)', async () => {
      const r1 = await create({ model: 'gpt-4o', input: 'first' }, native());
      const r2 = await create({ model: 'gpt-4o', input: 'second', previous_response_id: r1.json.id }, native());
      expect(r2.status, r2.text).to.equal(200);
      expect(nativeMock.requests[1]!.body).to.deep.equal({
        model: 'gpt-4o',
        input: [{ role: 'user', content: 'first' }, { role: 'assistant', content: 'echo: first' }, { role: 'user', content: 'second' }],
      });
      expect(r2.json.previous_response_id).to.equal(r1.json.id);
    });

    it('a chain started through chat continues natively, and the other way round', async () => {
      const r1 = await create({ model: 'gpt-4o', input: 'via chat' });
      const r2 = await create({ model: 'gpt-4o', input: 'now native', previous_response_id: r1.json.id }, native());
      expect(nativeMock.requests[0]!.body.input).to.have.length(3);
      const r3 = await create({ model: 'gpt-4o', input: 'back to chat', previous_response_id: r2.json.id });
      expect(r3.status).to.equal(200);
      expect(chatMock.requests[1]!.body.messages.map((m: { content: string }) => m.content)).to.deep.equal(['via chat', 'echo: via chat', 'now native', 'echo: now native', 'back to chat']);
    });

    it('an unknown previous_response_id is left for the provider to resolve', async () => {
      const res = await create({ model: 'gpt-4o', input: 'x', previous_response_id: 'resp_upstream_only' }, native());
      expect(res.status).to.equal(200);
      expect(nativeMock.requests[0]!.body.previous_response_id).to.equal('resp_upstream_only');
    });

    it('a provider error passes on and is stored failed; a misfit answer is a 502 naming the field', async () => {
      nativeMock.next({ status: 429, body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded', param: null } } });
      const limited = await create({ model: 'gpt-4o', input: 'x' }, native());
      expect(limited.status).to.equal(429);
      expect(limited.json.error).to.include({ message: 'Rate limit reached', code: 'rate_limit_exceeded' });
      const failed = await retrieve(limited.headers.get('x-gw-response-id')!, '', native());
      expect(failed.json).to.deep.include({ status: 'failed', error: { code: 'rate_limit_exceeded', message: 'Rate limit reached' } });

      nativeMock.next({ status: 200, body: { id: 'resp_bad', object: 'response', created_at: 1, status: 'thinking', output: [] } });
      const misfit = await create({ model: 'gpt-4o', input: 'x' }, native());
      expect(misfit.status).to.equal(502);
      expect(misfit.json.error.message).to.include('status: must be one of "completed", "failed", "in_progress", "incomplete"');
    });

    it('request_timeout bounds the native call (408)', async () => {
      nativeMock.next({ hang: true });
      const res = await create({ model: 'gpt-4o', input: 'x' }, native({ 'x-gw-request-timeout': '80' }));
      expect(res.status).to.equal(408);
    });

    it('a strategy config goes through the chat pipeline even when it names openai', async () => {
      const config = { strategy: { mode: 'fallback' }, targets: [{ provider: 'openai', api_key: 'sk-x', custom_host: `${chatMock.url}/v1` }] };
      const res = await create({ model: 'gpt-4o', input: 'routed' }, configHeaders(config));
      expect(res.status, res.text).to.equal(200);
      expect(chatMock.requests[0]!.path).to.equal('/v1/chat/completions');
      expect(res.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[0]');
      expect(nativeMock.requests).to.have.length(0);
    });
  });

  describe('streams', () => {
    it('translated: chat chunks become Responses events; the final object is stored', async () => {
      const res = await fetch(`${gw.url}/v1/responses`, { method: 'POST', headers: viaChat(), body: JSON.stringify({ model: 'm', input: 'stream me', stream: true }) });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.include('text/event-stream');
      const events = parseEvents(await res.text());
      expect(events.map((e) => e.event)).to.deep.equal([
        'response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added',
        ...events.filter((e) => e.event === 'response.output_text.delta').map(() => 'response.output_text.delta'),
        'response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed',
      ]);
      expect(events.map((e) => e.data.sequence_number)).to.deep.equal(events.map((_, i) => i));
      const deltas = events.filter((e) => e.event === 'response.output_text.delta').map((e) => e.data.delta).join('');
      expect(deltas).to.equal('echo: stream me');
      const final = events.at(-1)!.data.response;
      expect(final).to.include({ status: 'completed', output_text: 'echo: stream me' });
      expect(final.usage.total_tokens).to.be.greaterThan(0);
      expect(chatMock.requests[0]!.body).to.deep.include({ stream: true, stream_options: { include_usage: true } });
      expect((await retrieve(final.id)).json).to.deep.equal(final);
    });

    it('translated through the SDK, with a tool call', async () => {
      const stream = await sdk(viaChat()).responses.create({ model: 'm', input: 'weather', stream: true, tools: [{ type: 'function', name: 'w', parameters: {}, strict: false }] });
      const types: string[] = [];
      let args = '';
      let final: OpenAI.Responses.Response | undefined;
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === 'response.function_call_arguments.delta') args += event.delta;
        if (event.type === 'response.completed') final = event.response;
      }
      expect(types).to.include.members(['response.output_item.added', 'response.function_call_arguments.done', 'response.output_item.done']);
      expect(args).to.equal('{"city":"Paris"}');
      expect(final!.output[0]).to.deep.include({ type: 'function_call', name: 'w', arguments: '{"city":"Paris"}' });
    });

    it('translated: a provider stream cut mid-way ends with error + response.failed, stored failed', async () => {
      chatMock.next({ streamCutAfter: 2 });
      const res = await fetch(`${gw.url}/v1/responses`, { method: 'POST', headers: viaChat(), body: JSON.stringify({ model: 'm', input: 'cut me off please', stream: true }) });
      const events = parseEvents(await res.text());
      expect(events.at(-2)!.event).to.equal('error');
      const final = events.at(-1)!;
      expect(final.event).to.equal('response.failed');
      expect(final.data.response.status).to.equal('failed');
      expect(final.data.response.error.message).to.be.a('string');
      expect((await retrieve(final.data.response.id)).json.status).to.equal('failed');
    });

    it('native: events pass through; the final object is stored with output_text', async () => {
      const r1 = await create({ model: 'gpt-4o', input: 'one' }, native());
      const res = await fetch(`${gw.url}/v1/responses`, { method: 'POST', headers: native(), body: JSON.stringify({ model: 'gpt-4o', input: 'two', stream: true, previous_response_id: r1.json.id }) });
      expect(res.headers.get('content-type')).to.include('text/event-stream');
      const events = parseEvents(await res.text());
      expect(events[0]!.event).to.equal('response.created');
      expect(events[0]!.data.response.previous_response_id).to.equal(r1.json.id);
      const completed = events.at(-1)!;
      expect(completed.event).to.equal('response.completed');
      expect(completed.data.response.output_text).to.equal('echo: two');
      const stored = await retrieve(completed.data.response.id, '', native());
      expect(stored.json).to.deep.include({ status: 'completed', output_text: 'echo: two', previous_response_id: r1.json.id });
      expect(nativeMock.requests[1]!.body.input).to.have.length(3);
    });

    it('native: a stream that breaks is stored failed and ends with an error event', async () => {
      nativeMock.next({ streamCutAfter: 3 });
      const res = await fetch(`${gw.url}/v1/responses`, { method: 'POST', headers: native(), body: JSON.stringify({ model: 'gpt-4o', input: 'x', stream: true }) });
      const events = parseEvents(await res.text());
      expect(events.at(-1)!.event).to.equal('error');
      const id = events[0]!.data.response.id;
      expect((await retrieve(id, '', native())).json.status).to.equal('failed');
    });
  });

  it('a client that goes away mid-stream leaves a failed record (client_closed)', async () => {
    const slow = await startMockOpenAI({ streamChunkDelayMs: 150 });
    try {
      const abort = new AbortController();
      const res = await fetch(`${gw.url}/v1/responses`, {
        method: 'POST', signal: abort.signal,
        headers: viaChat({ 'x-gw-custom-host': `${slow.url}/v1` }),
        body: JSON.stringify({ model: 'm', input: 'a long story', stream: true }),
      });
      const reader = res.body!.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      const id = /"id":"(resp_[0-9a-f]+)"/.exec(first)![1]!;
      abort.abort();
      let status: string | undefined;
      for (let i = 0; i < 100 && status !== 'failed'; i++) {
        await new Promise((r) => setTimeout(r, 10));
        status = (await retrieve(id)).json.status;
      }
      const got = await retrieve(id);
      expect(got.json.status).to.equal('failed');
      expect(got.json.error.code).to.equal('client_closed');
      expect(got.json.error.message).to.match(/client closed/);
    } finally {
      await slow.close();
    }
  });
});
