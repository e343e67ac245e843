/**
 * feature.messages through the kernel's lifecycle, with the official Anthropic SDK as the client
 * (sdk-client.ts): a Messages request is routed (fallback between translated and native targets),
 * retried, cached, checked by input and output guardrails and logged like a chat request, against
 * the loopback OpenAI and Anthropic mocks.
 */
import { expect } from 'chai';
import { RequestLogsService } from '../../../../plugins/observe/logs/contract.js';
import type { MockAnthropic } from '../../../fixtures/mock-anthropic.js';
import type { MockOpenAI } from '../../../fixtures/mock-openai.js';
import { TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { apiError } from './messages-client.js';
import { startMessagesUpstreams, type MessagesUpstreams } from './mocks.js';
import { sdkClient } from './sdk-client.js';

const CLAUDE = 'claude-mock-model';

describe('feature.messages in the lifecycle (end to end)', () => {
  let anthropic: MockAnthropic;
  let openai: MockOpenAI;
  let gw: TestGateway;

  const native = (extra: Record<string, unknown> = {}) => ({ provider: 'anthropic', api_key: 'sk-ant-test', custom_host: `${anthropic.url}/v1`, ...extra });
  const viaChat = (extra: Record<string, unknown> = {}) => ({ provider: 'openai', api_key: 'sk-openai-test', custom_host: `${openai.url}/v1`, ...extra });
  const client = (config: Record<string, unknown>, headers: Record<string, string> = {}) =>
    sdkClient(gw.url, { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify(config), ...headers });
  const ask = (text: string, extra: Record<string, unknown> = {}) => ({ model: CLAUDE, max_tokens: 64, messages: [{ role: 'user', content: text }], ...extra });

  let upstreams: MessagesUpstreams | undefined;
  before(async () => {
    upstreams = await startMessagesUpstreams();
    ({ anthropic, openai, gw } = upstreams);
  });
  after(() => upstreams?.stop());
  beforeEach(() => upstreams!.reset());

  it('falls back from a failing translated target to a native one', async () => {
    openai.next({ status: 503 });
    const config = { strategy: { mode: 'fallback' }, targets: [viaChat(), native()] };
    const { message, headers } = await client(config).create(ask('fall back'));
    expect(openai.requests).to.have.length(1);
    expect(anthropic.requests).to.have.length(1);
    expect(anthropic.requests[0]!.body).to.deep.equal(ask('fall back'));
    expect(message.id).to.match(/^msg_mock_/);
    expect(message.content).to.deep.equal([{ type: 'text', text: 'echo: fall back' }]);
    expect(headers.get('x-gw-provider')).to.equal('anthropic');
    expect(headers.get('x-gw-last-used-option-index')).to.equal('config.targets[1]');
  });

  it('falls back from a failing native target to a translated one, streamed', async () => {
    anthropic.next({ status: 500 });
    const config = { strategy: { mode: 'fallback' }, targets: [native(), viaChat()] };
    const { message, headers } = await client(config).stream(ask('streamed fallback'));
    expect(message.content).to.deep.equal([{ type: 'text', text: 'echo: streamed fallback' }]);
    expect(headers.get('x-gw-provider')).to.equal('openai');
  });

  it('retries a translated target', async () => {
    openai.next({ status: 500 });
    const { message, headers } = await client(viaChat({ retry: { attempts: 2 } })).create(ask('retry me'));
    expect(openai.requests).to.have.length(2);
    expect(message.content[0].text).to.equal('echo: retry me');
    expect(headers.get('x-gw-retry-attempt-count')).to.equal('1');
  });

  it('answers a repeated request from the cache (HIT) without calling the provider again', async () => {
    const config = viaChat({ cache: { mode: 'simple' } });
    const body = ask(`cache me ${Date.now()}`);
    const first = await client(config).create(body);
    expect(first.headers.get('x-gw-cache-status')).to.equal('MISS');
    const second = await client(config).create(body);
    expect(second.headers.get('x-gw-cache-status')).to.equal('HIT');
    expect(second.message).to.deep.equal(first.message);
    expect(openai.requests).to.have.length(1);
  });

  it('denies a request an input guardrail fails (446, Anthropic error shape, hook_results)', async () => {
    const config = native({ input_guardrails: [{ id: 'no-secrets', deny: true, 'default.contains': { words: ['password'], operator: 'none' } }] });
    const e = await apiError(() => client(config).create(ask('my password is hunter2')));
    expect(e.status).to.equal(446);
    expect(e.body!['type']).to.equal('error');
    expect(e.body!['error'].type).to.equal('invalid_request_error');
    expect(e.body!['hook_results'].before_request_hooks[0]).to.include({ id: 'no-secrets', verdict: false });
    expect(anthropic.requests).to.have.length(0);
    const ok = await client(config).create(ask('nothing to hide'));
    expect(ok.message.content[0].text).to.equal('echo: nothing to hide');
    // The Messages system prompt and tool results are request text too.
    expect((await apiError(() => client(config).create(ask('hi', { system: 'the password is 42' })))).status).to.equal(446);
    const toolTurn = [
      { role: 'user', content: 'look it up' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'password: 42' }] }] },
    ];
    const tools = [{ name: 'lookup', input_schema: { type: 'object' } }];
    expect((await apiError(() => client(config).create(ask('', { messages: toolTurn, tools })))).status).to.equal(446);
    expect(anthropic.requests).to.have.length(1);
  });

  it('checks a Message answer with output guardrails (446 on deny), plain and streamed (held, nothing sent)', async () => {
    const config = viaChat({ output_guardrails: [{ id: 'no-echo', deny: true, 'default.contains': { words: ['echo'], operator: 'none' } }] });
    const plain = await apiError(() => client(config).create(ask('hi')));
    expect(plain.status).to.equal(446);
    expect(plain.body!['hook_results'].after_request_hooks[0]).to.include({ id: 'no-echo', verdict: false });
    const streamed = await apiError(() => client(config).stream(ask('hi')));
    expect(streamed.status).to.equal(446);
    expect(streamed.body!['type']).to.equal('error');
  });

  it('rewrites the text of a held Messages stream when an output guardrail transforms it, events still named', async () => {
    // deny makes the hook blocking: the stream is held, checked and replayed.
    const config = native({ output_guardrails: [{ id: 'shout', deny: true, 'default.regexReplace': { rule: 'echo', replacement: 'ECHO' } }] });
    const { events, message } = await client(config).stream(ask('quiet please'));
    expect(message.content).to.deep.equal([{ type: 'text', text: 'ECHO: quiet please' }]);
    for (const e of events) expect(e.data.type).to.equal(e.event);
    expect(events[events.length - 1]!.event).to.equal('message_stop');
    const plain = await client(config).create(ask('quiet please'));
    expect(plain.message.content).to.deep.equal([{ type: 'text', text: 'ECHO: quiet please' }]);
    expect(plain.status).to.equal(200);
  });

  it('writes a request log row with the endpoint, provider and token usage', async () => {
    const traceId = `messages-log-${Date.now()}`;
    const { message } = await client(native(), { 'x-gw-trace-id': traceId }).create(ask('log me'));
    const streamTrace = `${traceId}-stream`;
    await client(viaChat(), { 'x-gw-trace-id': streamTrace }).stream(ask('log my stream'));
    const logs = gw.gateway.runtime.services.get(RequestLogsService);
    await logs.flush();
    const rows = async (trace: string) =>
      ((await (await fetch(`${gw.url}/v1/logs?trace_id=${trace}`, { headers: { 'x-gw-api-key': TEST_API_KEY } })).json()) as any).data;
    const [row] = await rows(traceId);
    expect(row).to.include({ status: 200, provider: 'anthropic', model: CLAUDE, endpoint: 'messages' });
    expect(row.usage).to.deep.include({ prompt_tokens: message.usage.input_tokens, completion_tokens: message.usage.output_tokens });
    const nativeStreamTrace = `${traceId}-native-stream`;
    const streamed = await client(native(), { 'x-gw-trace-id': nativeStreamTrace }).stream(ask('log my native stream'));
    await logs.flush();
    const [nativeRow] = await rows(nativeStreamTrace);
    // Input tokens from message_start (the stream's head), output tokens from message_delta.
    expect(nativeRow.usage).to.deep.include({ prompt_tokens: streamed.message.usage.input_tokens, completion_tokens: streamed.message.usage.output_tokens });
    const [streamRow] = await rows(streamTrace);
    expect(streamRow).to.include({ status: 200, provider: 'openai', endpoint: 'messages', stream: true });
    expect(streamRow.usage.completion_tokens).to.equal(Math.ceil('echo: log my stream'.length / 4));
  });
});
