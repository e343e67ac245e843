/** feature.prompts end to end: versions, patch, render, the prompt completions route and prompt_id in configs. */
import { expect } from 'chai';
import OpenAI from 'openai';
import sinon from 'sinon';
import PromptsPlugin from '../../../../plugins/features/prompts/index.js';
import {
  configHeaders, directHeaders, jsonReply, postJson, startGateway, TEST_API_KEY, type JsonReply, type TestGateway,
} from '../../../helpers/gateway.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import TestPrincipalPlugin from './principal-plugin.js';

const KEY = { 'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY };

const GREETING = Object.freeze({
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'You are {{persona}}. Answer in {{language}}.' },
    { role: 'user', content: [{ type: 'text', text: 'Hello, I am {{user.name}}{{#vip}} (VIP){{/vip}}.' }] },
  ],
  temperature: 0.2,
  max_tokens: 50,
});

async function request(method: string, url: string, body?: unknown, headers: Record<string, string> = KEY): Promise<JsonReply> {
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return jsonReply(res);
}

describe('feature.prompts (end to end)', () => {
  let gw: TestGateway;
  let mock: MockOpenAI;
  let n = 0;
  /** A fresh prompt id per test: the store outlives the tests of this file. */
  let id: string;
  const put = (body: unknown, headers?: Record<string, string>, pid = id) => request('PUT', `${gw.url}/v1/prompts/${pid}`, body, headers);
  const get = (query = '', headers?: Record<string, string>, pid = id) => request('GET', `${gw.url}/v1/prompts/${pid}${query}`, undefined, headers);
  const render = (body: unknown, headers?: Record<string, string>, pid = id) => request('POST', `${gw.url}/v1/prompts/${pid}/render`, body, headers);
  const openai = () => ({ provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1` });

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startGateway({ plugins: [PromptsPlugin, TestPrincipalPlugin] });
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });
  beforeEach(() => {
    mock.reset();
    id = `greeting-${++n}`;
  });

  describe('PUT and GET /v1/prompts/:promptId', () => {
    it('each PUT creates the next version; GET answers the latest or a given one', async () => {
      const v1 = await put(GREETING);
      expect(v1.status, v1.text).to.equal(200);
      expect(v1.json).to.deep.equal({ id, version: 1 });
      const v2 = await put({ ...GREETING, temperature: 0.7 });
      expect(v2.json).to.deep.equal({ id, version: 2 });

      const latest = await get();
      expect(latest.status).to.equal(200);
      expect(latest.json).to.include({ id, object: 'prompt', version: 2 });
      expect(latest.json.created_at).to.be.a('number');
      expect(latest.json.template).to.deep.equal({ ...GREETING, temperature: 0.7 });
      expect(latest.json.variables).to.have.members(['persona', 'language', 'user.name']);
      expect(latest.json.optional_variables).to.deep.equal(['vip']);

      const first = await get('?version=1');
      expect(first.json.version).to.equal(1);
      expect(first.json.template.temperature).to.equal(0.2);
    });

    it('an unknown prompt or version is a 404; a bad version query a 400', async () => {
      expect((await get()).status).to.equal(404);
      await put(GREETING);
      const missing = await get('?version=9');
      expect(missing.status).to.equal(404);
      expect(missing.json.error.code).to.equal('prompt_not_found');
      for (const q of ['?version=0', '?version=x', '?version=1.5', '?version=1e300']) {
        const res = await get(q);
        expect(res.status, q).to.equal(400);
        expect(res.json.error.message).to.equal('query.version: must be an integer from 1 to 9007199254740991');
      }
    });

    const invalid: [string, unknown, string][] = [
      ['a body that is not an object', [GREETING], 'body: must be a JSON object'],
      ['no model', { messages: GREETING.messages }, 'body.model: is required'],
      ['neither messages nor prompt', { model: 'm' }, 'body.messages: is required (or prompt, for a text-completion template)'],
      ['both messages and prompt', { ...GREETING, prompt: 'x' }, 'body.prompt: cannot be set together with messages'],
      ['empty messages', { ...GREETING, messages: [] }, 'body.messages: must have at least 1 item(s)'],
      ['a message with an unknown role', { ...GREETING, messages: [{ role: 'robot', content: 'x' }] }, 'body.messages.0.role: must be one of'],
      ['an unclosed section', { ...GREETING, messages: [{ role: 'user', content: 'Hi {{#name}}' }] }, 'body.messages.0.content: is not a valid template: Unclosed section "name"'],
      ['an unclosed tag in a text part', { ...GREETING, messages: [{ role: 'user', content: [{ type: 'text', text: 'x {{name' }] }] }, 'body.messages.0.content.0.text: is not a valid template: Unclosed tag'],
      ['a partial', { ...GREETING, messages: [{ role: 'user', content: '{{> header}}' }] }, 'partials are not supported'],
      ['a temperature over 2', { ...GREETING, temperature: 2.5 }, 'body.temperature: must be a number >= 0 and <= 2 or null'],
      ['top_p over 1', { ...GREETING, top_p: 1.5 }, 'body.top_p: must be a number >= 0 and <= 1 or null'],
      ['5 stop sequences', { ...GREETING, stop: ['a', 'b', 'c', 'd', 'e'] }, 'body.stop: must be a string, an array of at most 4 strings or null'],
      ['n of 0', { ...GREETING, n: 0 }, 'body.n: must be an integer >= 1 and <= 128 or null'],
      ['variables in a template', { ...GREETING, variables: {} }, 'body.variables: is not a template field'],
      ['patch that is not a boolean', { ...GREETING, patch: 'yes' }, 'body.patch: must be a boolean'],
    ];
    for (const [what, body, message] of invalid) {
      it(`answers 400 for ${what} and stores nothing`, async () => {
        const res = await put(body);
        expect(res.status, res.text).to.equal(400);
        expect(res.json.error.message).to.include(message);
        expect((await get()).status).to.equal(404);
      });
    }

    it('answers 400 for a prompt id with characters outside [A-Za-z0-9_.-]', async () => {
      const res = await put(GREETING, KEY, 'bad%40id');
      expect(res.status).to.equal(400);
      expect(res.json.error.param).to.equal('promptId');
    });

    it('stores a text-completion template (prompt instead of messages)', async () => {
      const res = await put({ model: 'gpt-3.5-turbo-instruct', prompt: ['Say {{word}}', 'twice'], max_tokens: 5, logprobs: 2 });
      expect(res.status, res.text).to.equal(200);
      expect((await get()).json.variables).to.deep.equal(['word']);
    });
  });

  describe('patch (v1.11.2)', () => {
    it('backfills fields the request leaves out from the latest version', async () => {
      await put(GREETING);
      await put({ ...GREETING, max_tokens: 80 });
      const res = await put({ temperature: 0.9, seed: 7, patch: true });
      expect(res.json).to.deep.equal({ id, version: 3 });
      expect((await get()).json.template).to.deep.equal({ ...GREETING, max_tokens: 80, temperature: 0.9, seed: 7 });
    });

    it('without patch, left-out fields are gone', async () => {
      await put(GREETING);
      await put({ model: 'gpt-4o', messages: GREETING.messages });
      expect((await get()).json.template).to.deep.equal({ model: 'gpt-4o', messages: GREETING.messages });
    });

    it('messages and prompt are one slot: a patch with prompt replaces the messages', async () => {
      await put(GREETING);
      const res = await put({ prompt: 'Complete: {{x}}', patch: true });
      expect(res.status, res.text).to.equal(200);
      const template = (await get()).json.template;
      expect(template).to.not.have.property('messages');
      expect(template).to.include({ prompt: 'Complete: {{x}}', model: 'gpt-4o-mini', temperature: 0.2 });
    });

    it('a patch of a prompt that does not exist yet must be a complete template', async () => {
      const res = await put({ temperature: 1, patch: true });
      expect(res.status).to.equal(400);
      expect(res.json.error.message).to.equal('body.model: is required');
    });
  });

  describe('POST /v1/prompts/:promptId/render (§4.13)', () => {
    it('renders variables without HTML escaping; root hyperparameters override the template', async () => {
      await put(GREETING);
      const res = await render({
        variables: { persona: 'a <b>"helpful"</b> & kind bot', language: 'French', user: { name: "O'Brien" }, vip: true },
        temperature: 0.9,
        stream: false,
        max_completion_tokens: 20,
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.json).to.deep.equal({
        success: true,
        data: {
          model: 'gpt-4o-mini',
          messages: [
            { role: 'system', content: 'You are a <b>"helpful"</b> & kind bot. Answer in French.' },
            { role: 'user', content: [{ type: 'text', text: "Hello, I am O'Brien (VIP)." }] },
          ],
          temperature: 0.9,
          max_tokens: 50,
          stream: false,
          max_completion_tokens: 20,
        },
      });
    });

    it('renders numbers and booleans as text and objects as JSON; an absent section renders nothing', async () => {
      await put({ model: 'm', messages: [{ role: 'user', content: '{{n}} {{flag}} {{obj}}{{#vip}} VIP{{/vip}}{{^vip}} regular{{/vip}}' }] });
      const res = await render({ variables: { n: 3.5, flag: false, obj: { a: [1] } } });
      expect(res.json.data.messages[0].content).to.equal('3.5 false {"a":[1]} regular');
    });

    it('a missing variable is a 400 naming it', async () => {
      await put(GREETING);
      const res = await render({ variables: { persona: 'p', user: { name: 'n' } } });
      expect(res.status).to.equal(400);
      expect(res.json.error.message).to.equal(`body.variables.language: is required by prompt "${id}" (version 1)`);
      expect(res.json.error.param).to.equal('variables.language');
      const nested = await render({ variables: { persona: 'p', language: 'l', user: {} } });
      expect(nested.json.error.param).to.equal('variables.user.name');
    });

    it('variables is required and must be an object; hyperparameters are range-checked', async () => {
      await put(GREETING);
      expect((await render({})).json.error.message).to.equal('body.variables: is required');
      expect((await render({ variables: 'x' })).json.error.message).to.equal('body.variables: must be an object');
      const hot = await render({ variables: {}, temperature: 5 });
      expect(hot.status).to.equal(400);
      expect(hot.json.error.param).to.equal('temperature');
    });

    it('renders a pinned version; an unknown prompt is a 404', async () => {
      await put(GREETING);
      await put({ model: 'm2', messages: [{ role: 'user', content: 'v2 {{x}}' }] });
      const v1 = await render({ variables: { persona: 'p', language: 'l', user: { name: 'n' } }, version: 1 });
      expect(v1.json.data.model).to.equal('gpt-4o-mini');
      expect(v1.json.data).to.not.have.property('version');
      const latest = await render({ variables: { x: 'y' } });
      expect(latest.json.data.messages[0].content).to.equal('v2 y');
      expect((await render({ variables: {} }, KEY, 'nope')).status).to.equal(404);
    });

    it('the rendered chat body is accepted unchanged by /v1/chat/completions', async () => {
      await put(GREETING);
      const { json } = await render({ variables: { persona: 'terse', language: 'English', user: { name: 'Ada' } } });
      const res = await postJson(gw.url, '/v1/chat/completions', json.data, directHeaders(mock));
      expect(res.status, res.text).to.equal(200);
      expect(mock.requests[0]!.body).to.deep.equal(json.data);
      expect(res.json.object).to.equal('chat.completion');
    });

    it('the rendered text-completion body is accepted unchanged by /v1/completions', async () => {
      await put({ model: 'gpt-3.5-turbo-instruct', prompt: 'Say {{word}}', max_tokens: 5 });
      const { json } = await render({ variables: { word: 'hi' } });
      expect(json.data).to.deep.equal({ model: 'gpt-3.5-turbo-instruct', prompt: 'Say hi', max_tokens: 5 });
      const res = await postJson(gw.url, '/v1/completions', json.data, directHeaders(mock));
      expect(res.status, res.text).to.equal(200);
      expect(res.json.object).to.equal('text_completion');
    });
  });

  describe('POST /v1/prompts/:promptId/completions', () => {
    it('renders and runs the chat body with the caller config', async () => {
      await put(GREETING);
      const res = await postJson(gw.url, `/v1/prompts/${id}/completions`, { variables: { persona: 'p', language: 'l', user: { name: 'Ada' } }, temperature: 1 }, directHeaders(mock));
      expect(res.status, res.text).to.equal(200);
      expect(res.json.object).to.equal('chat.completion');
      expect(res.headers.get('x-gw-provider')).to.equal('openai');
      expect(mock.requests[0]!.path).to.equal('/v1/chat/completions');
      expect(mock.requests[0]!.body.messages[0].content).to.equal('You are p. Answer in l.');
      expect(mock.requests[0]!.body.temperature).to.equal(1);
      expect(mock.requests[0]!.body).to.not.have.property('variables');
    });

    it('streams when asked, and keeps the trace id of the call', async () => {
      await put({ model: 'm', messages: [{ role: 'user', content: 'say {{w}}' }] });
      const res = await fetch(`${gw.url}/v1/prompts/${id}/completions`, {
        method: 'POST', headers: directHeaders(mock, { 'x-gw-trace-id': 'trace-p1' }), body: JSON.stringify({ variables: { w: 'x' }, stream: true }),
      });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.include('text/event-stream');
      expect(res.headers.get('x-gw-trace-id')).to.equal('trace-p1');
      const text = await res.text();
      expect(text).to.include('chat.completion.chunk');
      expect(text.trim().endsWith('data: [DONE]')).to.equal(true);
    });

    it('a text-completion template goes to /v1/completions', async () => {
      await put({ model: 'gpt-3.5-turbo-instruct', prompt: 'Say {{word}}' });
      const res = await postJson(gw.url, `/v1/prompts/${id}/completions`, { variables: { word: 'hi' } }, directHeaders(mock));
      expect(res.status, res.text).to.equal(200);
      expect(mock.requests[0]!.path).to.equal('/v1/completions');
    });

    it('a missing variable is a 400 before any provider call; a provider error passes on', async () => {
      await put(GREETING);
      const res = await postJson(gw.url, `/v1/prompts/${id}/completions`, { variables: {} }, directHeaders(mock));
      expect(res.status).to.equal(400);
      expect(mock.requests).to.have.length(0);
      mock.next({ status: 429 });
      const limited = await postJson(gw.url, `/v1/prompts/${id}/completions`, { variables: { persona: 'p', language: 'l', user: { name: 'n' } } }, directHeaders(mock));
      expect(limited.status).to.equal(429);
      expect(limited.json.provider).to.equal('openai');
    });
  });

  describe('prompt_id in a config', () => {
    const chat = (body: unknown, config: Record<string, unknown>) => postJson(gw.url, '/v1/chat/completions', body, configHeaders({ ...openai(), ...config }));

    it('renders the template before validation: a body with only variables is enough', async () => {
      await put(GREETING);
      const res = await chat({ variables: { persona: 'p', language: 'German', user: { name: 'Ada' } } }, { prompt_id: id });
      expect(res.status, res.text).to.equal(200);
      const sent = mock.requests[0]!.body;
      expect(sent.model).to.equal('gpt-4o-mini');
      expect(sent.messages[0].content).to.equal('You are p. Answer in German.');
      expect(sent.temperature).to.equal(0.2);
      expect(sent).to.not.have.property('variables');
    });

    it("the client's own fields win over the template's", async () => {
      await put(GREETING);
      const messages = [{ role: 'user', content: 'my own' }];
      const res = await chat({ variables: {}, model: 'gpt-4o', temperature: 1.1, messages }, { prompt_id: id });
      expect(res.status, res.text).to.equal(200);
      expect(mock.requests[0]!.body).to.deep.equal({ model: 'gpt-4o', messages, temperature: 1.1, max_tokens: 50 });
    });

    it('pins a version with id@version and works through the openai SDK', async () => {
      await put({ model: 'm1', messages: [{ role: 'user', content: 'one {{x}}' }] });
      await put({ model: 'm2', messages: [{ role: 'user', content: 'two {{x}}' }] });
      const client = new OpenAI({
        apiKey: 'unused', baseURL: `${gw.url}/v1`, maxRetries: 0,
        defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify({ ...openai(), prompt_id: `${id}@1` }) },
      });
      const completion = await client.chat.completions.create({ variables: { x: 'y' } } as never);
      expect(completion.object).to.equal('chat.completion');
      expect(mock.requests[0]!.body.model).to.equal('m1');
      expect(mock.requests[0]!.body.messages[0].content).to.equal('one y');
    });

    it('renders for streams too', async () => {
      await put({ model: 'm', messages: [{ role: 'user', content: '{{x}}' }], stream: true });
      const res = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: configHeaders({ ...openai(), prompt_id: id }), body: JSON.stringify({ variables: { x: 'y' } }) });
      expect(res.headers.get('content-type')).to.include('text/event-stream');
      expect(await res.text()).to.include('[DONE]');
    });

    it('a missing variable, an unknown prompt or the wrong endpoint is a 400', async () => {
      await put(GREETING);
      const missing = await chat({ variables: { persona: 'p' } }, { prompt_id: id });
      expect(missing.status).to.equal(400);
      expect(missing.json.error.param).to.equal('variables.language');
      const unknown = await chat({ variables: {} }, { prompt_id: 'no-such-prompt' });
      expect(unknown.status).to.equal(400);
      expect(unknown.json.error.message).to.equal('config.prompt_id: no prompt "no-such-prompt"');
      const wrong = await postJson(gw.url, '/v1/completions', { variables: {} }, configHeaders({ ...openai(), prompt_id: id }));
      expect(wrong.status).to.equal(400);
      expect(wrong.json.error.message).to.include('is a chat template: send it to /v1/chat/completions');
      const notObject = await chat({ variables: 'x' }, { prompt_id: id });
      expect(notObject.json.error.message).to.equal('body.variables: must be an object');
      expect(mock.requests).to.have.length(0);
    });

    it('config rules: prompt_id only at the root, in the id[@version] form', async () => {
      const nested = await postJson(gw.url, '/v1/chat/completions', { variables: {} }, configHeaders({ strategy: { mode: 'single' }, targets: [{ ...openai(), prompt_id: 'x' }] }));
      expect(nested.status).to.equal(400);
      expect(nested.json.error.message).to.equal('config.targets.0.prompt_id: is only supported at the root of a config');
      for (const ref of ['a b', 'x@0', 'x@', 'x@1.5']) {
        const res = await chat({ variables: {} }, { prompt_id: ref });
        expect(res.status, ref).to.equal(400);
        expect(res.json.error.param).to.equal('prompt_id');
      }
    });

    it('without prompt_id the body is validated as always', async () => {
      const res = await chat({ model: 'm', variables: {} }, {});
      expect(res.status).to.equal(400);
      expect(res.json.error.message).to.include('body.messages: is required');
    });
  });

  describe('organisations', () => {
    it('prompts belong to the caller organisation', async () => {
      const orgA = { ...KEY, 'x-test-org': 'org-a' };
      const orgB = { ...KEY, 'x-test-org': 'org-b' };
      await put(GREETING, orgA);
      expect((await get('', orgA)).status).to.equal(200);
      expect((await get('', orgB)).status).to.equal(404);
      expect((await put({ model: 'b', messages: [{ role: 'user', content: 'b' }] }, orgB)).json.version).to.equal(1);
      expect((await get('', orgA)).json.template.model).to.equal('gpt-4o-mini');
    });

    it('the gateway key is required', async () => {
      const res = await request('GET', `${gw.url}/v1/prompts/${id}`, undefined, { 'content-type': 'application/json' });
      expect(res.status).to.equal(401);
    });
  });
});

describe('feature.prompts with two gateway instances', () => {
  let a: TestGateway | undefined;
  let b: TestGateway | undefined;
  after(async () => {
    await b?.stop();
    await a?.stop();
  });

  it('another instance renders a new version after at most latestTtlMs', async () => {
    a = await startGateway({ plugins: [{ use: PromptsPlugin, options: { latestTtlMs: 60_000 } }] });
    b = await startGateway({ plugins: [PromptsPlugin], env: { GW_DATA_DIR: a.dataDir } });
    const put = (gw: TestGateway, content: string) => request('PUT', `${gw.url}/v1/prompts/shared`, { model: 'm', messages: [{ role: 'user', content }] });
    const rendered = async (gw: TestGateway) => (await request('POST', `${gw.url}/v1/prompts/shared/render`, { variables: {} })).json.data.messages[0].content;
    // Only Date is faked: the cache reads the clock, the servers keep their real timers.
    const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    try {
      await put(a, 'one');
      expect(await rendered(a)).to.equal('one');
      expect((await put(b, 'two')).json.version).to.equal(2);
      expect(await rendered(b)).to.equal('two');
      clock.tick(59_999);
      expect(await rendered(a)).to.equal('one');
      clock.tick(1);
      expect(await rendered(a)).to.equal('two');
    } finally {
      clock.restore();
    }
  });
});
