/** observe.logs end to end: every request recorded, with the documented fields, readable through /v1/logs. */
import { expect } from 'chai';
import OpenAI from 'openai';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, configHeaders, postJson, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import GuardrailsRunnerPlugin from '../../../../plugins/guardrails/runner/index.js';
import { getJson, logService, mockHeaders, startObserved } from './harness.js';

describe('observe.logs end to end', () => {
  let mock: MockOpenAI;
  let gw: TestGateway;

  before(async () => {
    mock = await startMockOpenAI();
    // The guardrail runner, for hook results (a no-op when the default preset already loads it).
    gw = await startObserved({ extra: [GuardrailsRunnerPlugin] });
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  const logs = async (query = '') => {
    await logService(gw).flush();
    return getJson(gw.url, `/v1/logs${query}`);
  };

  it('records every request under load: 500 requests, 500 rows', async () => {
    const traceTag = `load-${Date.now()}`;
    const total = 500;
    let next = 0;
    const worker = async () => {
      while (next < total) {
        const i = next++;
        const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock, { 'x-gw-trace-id': `${traceTag}-${i}`, 'x-gw-metadata': JSON.stringify({ run: traceTag }) }));
        expect(reply.status).to.equal(200);
      }
    };
    await Promise.all(Array.from({ length: 25 }, worker));
    const reply = await logs(`?metadata=${encodeURIComponent(JSON.stringify({ run: traceTag }))}&page_size=1`);
    expect(reply.status).to.equal(200);
    expect(reply.json.total_count).to.equal(total);
    expect(logService(gw).stats()).to.include({ dropped: 0, failed: 0, queued: 0 });
  });

  it('records the documented fields of a chat request', async () => {
    const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock, {
      'x-gw-trace-id': 'trace-fields-1', 'x-gw-span-id': 'span-a', 'x-gw-parent-span-id': 'span-root', 'x-gw-span-name': 'my-span',
      'x-gw-metadata': JSON.stringify({ team: 'blue' }),
    }));
    expect(reply.status).to.equal(200);
    const { json } = await logs('?trace_id=trace-fields-1');
    expect(json.total_count).to.equal(1);
    const log = json.data[0];
    const usage = reply.json.usage;
    expect(log).to.include({
      object: 'log', trace_id: 'trace-fields-1', span_id: 'span-a', parent_span_id: 'span-root', span_name: 'my-span',
      method: 'POST', path: '/v1/chat/completions', endpoint: 'chatComplete', ai_service: 'openai', provider: 'openai',
      model: 'gpt-4o-mini', target: 'config', status: 200, error_code: null, stream: false, cache_status: 'DISABLED',
      retry_count: 0, organisation_id: 'default', workspace_id: null, config_id: null,
    });
    expect(log.api_key_id).to.be.a('string');
    expect(log.metadata).to.deep.equal({ team: 'blue' });
    expect(log.usage).to.deep.equal({ prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens, total_tokens: usage.total_tokens });
    expect(log.latency_ms).to.be.greaterThan(0);
    expect(log.upstream_latency_ms).to.be.greaterThan(0).and.at.most(log.latency_ms);
    expect(log.cost).to.equal(null);
    expect(Date.parse(log.created_at)).to.be.closeTo(Date.now(), 10_000);
    expect(log.id).to.match(/^[0-9a-f-]{36}$/);
  });

  it('records failures: provider errors, network errors and refused requests', async () => {
    mock.next({ status: 500 });
    await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock, { 'x-gw-trace-id': 'trace-fail-500' }));
    mock.next({ reset: true });
    await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock, { 'x-gw-trace-id': 'trace-fail-reset' }));
    await postJson(gw.url, '/v1/chat/completions', { model: 'x', messages: [] }, mockHeaders(mock, { 'x-gw-trace-id': 'trace-fail-400' }));
    await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock, { 'x-gw-trace-id': 'trace-fail-401', 'x-gw-api-key': 'wrong' }));
    const byTrace = async (id: string) => (await logs(`?trace_id=${id}`)).json.data[0];
    expect(await byTrace('trace-fail-500')).to.include({ status: 500, ai_service: 'openai' });
    expect(await byTrace('trace-fail-reset')).to.include({ status: 502, error_code: 'bad_gateway' });
    expect(await byTrace('trace-fail-400')).to.include({ status: 400, error_code: 'invalid_body', ai_service: null });
    // Not attributable to any organisation: nobody's logs show it.
    expect(await byTrace('trace-fail-401')).to.equal(undefined);
    expect(logService(gw).stats().failed).to.equal(0);
  });

  it('counts retries and the time of every try', async () => {
    mock.next({ status: 503, delayMs: 30 });
    const config = { provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1`, retry: { attempts: 2 } };
    const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders(config, { 'x-gw-trace-id': 'trace-retry' }));
    expect(reply.status).to.equal(200);
    const log = (await logs('?trace_id=trace-retry')).json.data[0];
    expect(log.retry_count).to.equal(1);
    expect(log.upstream_latency_ms).to.be.at.least(30);
  });

  it('reads stream usage from the final usage chunk, and leaves it unknown without include_usage', async () => {
    const client = new OpenAI({ apiKey: 'sk-x', baseURL: gw.url + '/v1', defaultHeaders: mockHeaders(mock, { 'x-gw-trace-id': 'trace-stream-usage' }), maxRetries: 0 });
    const stream = await client.chat.completions.create({ ...CHAT_BODY, messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    const plain = new OpenAI({ apiKey: 'sk-x', baseURL: gw.url + '/v1', defaultHeaders: mockHeaders(mock, { 'x-gw-trace-id': 'trace-stream-plain' }), maxRetries: 0 });
    for await (const _ of await plain.chat.completions.create({ ...CHAT_BODY, messages: [{ role: 'user', content: 'hi' }], stream: true })) { /* read it all */ }

    const withUsage = (await logs('?trace_id=trace-stream-usage')).json.data[0];
    expect(withUsage).to.include({ stream: true, status: 200 });
    expect(withUsage.usage).to.deep.equal({ prompt_tokens: usage!.prompt_tokens, completion_tokens: usage!.completion_tokens, total_tokens: usage!.total_tokens });
    const without = (await logs('?trace_id=trace-stream-plain')).json.data[0];
    expect(without.usage).to.deep.equal({ prompt_tokens: null, completion_tokens: null, total_tokens: null });
  });

  it('records the model sent upstream (after override_params), and a stored config id', async () => {
    const config = { provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1`, override_params: { model: 'gpt-4o' } };
    await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders(config, { 'x-gw-trace-id': 'trace-override' }));
    const log = (await logs('?trace_id=trace-override')).json.data[0];
    expect(log.model).to.equal('gpt-4o');
    // A config id is recorded whether or not a stored config answers to it (here none does: the request fails).
    await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, { 'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': 'pc-stored-1', 'x-gw-trace-id': 'trace-config-id' });
    const stored = (await logs('?trace_id=trace-config-id')).json.data[0];
    expect(stored.config_id).to.equal('pc-stored-1');
    expect(stored.status).to.be.at.least(400);
  });

  it('keeps guardrail hook results without the checks\' data (bodies are off)', async () => {
    const config = {
      provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1`,
      input_guardrails: [{ id: 'words', 'default.wordCount': { minWords: 1, maxWords: 50 } }],
    };
    const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders(config, { 'x-gw-trace-id': 'trace-hooks' }));
    expect(reply.status).to.equal(200);
    const log = (await logs('?trace_id=trace-hooks')).json.data[0];
    expect(log.hook_results).to.have.length(1);
    expect(log.hook_results[0]).to.include({ id: 'words', array: 'input_guardrails', verdict: true, target: 'config', in_response: true });
    expect(log.hook_results[0].checks[0]).to.include({ id: 'default.wordCount', verdict: true });
    expect(log.hook_results[0].checks[0]).not.to.have.property('data');
  });

  it('records the tokens of an answer an output guardrail denied (446): the provider spent them', async () => {
    const config = {
      provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1`,
      output_guardrails: [{ id: 'never', deny: true, 'default.regexMatch': { rule: '^this will not match$' } }],
    };
    const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders(config, { 'x-gw-trace-id': 'trace-denied-usage' }));
    expect(reply.status).to.equal(446);
    const log = (await logs('?trace_id=trace-denied-usage')).json.data[0];
    expect(log.status).to.equal(446);
    expect(log.usage.total_tokens).to.be.a('number').above(0);
    expect(log.usage.prompt_tokens! + log.usage.completion_tokens!).to.equal(log.usage.total_tokens);
  });

  it('reads the usage of a guarded answer (hook_results spliced after it) as the provider sent it', async () => {
    const config = {
      provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1`,
      output_guardrails: [{ id: 'any', 'default.wordCount': { minWords: 0 } }],
    };
    const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders(config, { 'x-gw-trace-id': 'trace-guarded-usage' }));
    expect(reply.status).to.equal(200);
    expect(reply.json.hook_results.after_request_hooks).to.have.length(1);
    const log = (await logs('?trace_id=trace-guarded-usage')).json.data[0];
    const { prompt_tokens, completion_tokens, total_tokens } = reply.json.usage;
    expect(log.usage).to.deep.equal({ prompt_tokens, completion_tokens, total_tokens });
  });

  it('GET /v1/logs/:id: one log with log_format; bodies are not recorded by default', async () => {
    await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock, { 'x-gw-trace-id': 'trace-detail' }));
    const listed = (await logs('?trace_id=trace-detail')).json.data[0];
    const detail = await getJson(gw.url, `/v1/logs/${listed.id}`);
    expect(detail.status).to.equal(200);
    expect(detail.json).to.deep.include({ ...listed, log_format: 'openai', request: { body: null }, response: { body: null } });
    const missing = await getJson(gw.url, '/v1/logs/00000000-0000-4000-8000-000000000000');
    expect(missing.status).to.equal(404);
    expect(missing.json.error.code).to.equal('log_not_found');
  });

  it('filters by status, provider, model, time range and metadata, and pages newest first', async () => {
    const tag = `filters-${Date.now()}`;
    const headers = (i: number) => mockHeaders(mock, { 'x-gw-trace-id': `${tag}-${i}`, 'x-gw-metadata': JSON.stringify({ tag, i: String(i % 2) }) });
    const before = Date.now();
    for (let i = 0; i < 5; i++) {
      if (i === 3) mock.next({ status: 429 });
      await postJson(gw.url, '/v1/chat/completions', i === 4 ? { ...CHAT_BODY, model: 'gpt-4.1' } : CHAT_BODY, headers(i));
    }
    const meta = (m: Record<string, string>) => `metadata=${encodeURIComponent(JSON.stringify(m))}`;
    const page0 = (await logs(`?${meta({ tag })}&page_size=2`)).json;
    expect(page0).to.include({ object: 'list', total_count: 5, current_page: 0, page_size: 2 });
    expect(page0.data.map((l: any) => l.trace_id)).to.deep.equal([`${tag}-4`, `${tag}-3`]);
    const page2 = (await logs(`?${meta({ tag })}&page_size=2&current_page=2`)).json;
    expect(page2.data.map((l: any) => l.trace_id)).to.deep.equal([`${tag}-0`]);
    expect((await logs(`?${meta({ tag })}&status_code=429`)).json.data.map((l: any) => l.trace_id)).to.deep.equal([`${tag}-3`]);
    expect((await logs(`?${meta({ tag })}&model=gpt-4.1`)).json.total_count).to.equal(1);
    expect((await logs(`?${meta({ tag, i: '1' })}`)).json.total_count).to.equal(2);
    expect((await logs(`?${meta({ tag })}&provider=anthropic`)).json.total_count).to.equal(0);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await logs(`?${meta({ tag })}&time_of_generation_min=${future}`)).json.total_count).to.equal(0);
    expect((await logs(`?${meta({ tag })}&time_of_generation_min=${new Date(before - 1000).toISOString()}&time_of_generation_max=${future}`)).json.total_count).to.equal(5);
  });

  it('refuses bad queries with a 400 naming the parameter', async () => {
    for (const [query, param] of [
      ['?page_size=0', 'page_size'], ['?page_size=101', 'page_size'], ['?current_page=-1', 'current_page'],
      ['?status_code=abc', 'status_code'], ['?time_of_generation_min=yesterday', 'time_of_generation_min'],
      ['?time_of_generation_max=99999999999999999999', 'time_of_generation_max'], ['?time_of_generation_min=%2B275760-09-13T00:00:00Z', 'time_of_generation_min'],
      ['?metadata=[1]', 'metadata'], ['?colour=red', 'colour'],
    ] as const) {
      const reply = await getJson(gw.url, `/v1/logs${query}`);
      expect(reply.status, query).to.equal(400);
      expect(reply.json.error.param, query).to.equal(param);
    }
  });

  it('needs a gateway key', async () => {
    expect((await getJson(gw.url, '/v1/logs', {})).status).to.equal(401);
    expect((await getJson(gw.url, '/v1/logs', { 'x-gw-api-key': 'nope' })).status).to.equal(401);
  });

  it('does not log reads of the logs themselves', async () => {
    const before = logService(gw).stats().written;
    await getJson(gw.url, '/v1/logs');
    await logService(gw).flush();
    expect(logService(gw).stats().written).to.equal(before);
  });
});
