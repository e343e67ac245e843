/**
 * Token limits end to end: each answer's prompt + completion tokens are added to its window once
 * written (JSON usage, a stream's usage chunk, or an estimate for streams without one), and the
 * window is refused once spent.
 */
import { expect } from 'chai';
import OpenAI from 'openai';
import sinon from 'sinon';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, TEST_API_KEY, type JsonReply, type TestGateway } from '../../../helpers/gateway.js';
import { chat, createPolicy, leaf, settle, startLimitsGateway } from './harness.js';

const T0 = Date.parse('2025-01-08T10:20:30.000Z');

function tokenPolicy(value: number): Record<string, unknown> {
  return { conditions: [{ key: 'endpoint_type', value: ['chatComplete', 'complete'] }], group_by: [{ key: 'api_key' }], type: 'tokens', unit: 'rpm', value };
}

const remaining = (reply: JsonReply) => Number(reply.headers.get('x-ratelimit-remaining'));

/** The content of a streamed chat answer, from its SSE text. */
function streamedContent(text: string): string {
  let content = '';
  for (const line of text.split('\n')) {
    if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
    const chunk = JSON.parse(line.slice(6));
    for (const choice of chunk.choices ?? []) content += choice.delta?.content ?? '';
  }
  return content;
}

describe('policy.rate-limits: token limits (end to end)', () => {
  let mock: MockOpenAI;
  let gw: TestGateway;
  let clock: sinon.SinonFakeTimers;
  /** prompt + completion tokens of one CHAT_BODY answer, as the mock counts them. */
  let perAnswer: number;

  before(async () => {
    mock = await startMockOpenAI();
    const probe = await startLimitsGateway();
    perAnswer = (await chat(probe, mock)).json.usage.total_tokens;
    await probe.stop();
    expect(perAnswer).to.be.greaterThan(0);
  });
  after(async () => {
    await mock?.close();
  });
  beforeEach(async () => {
    clock = sinon.useFakeTimers({ now: T0, toFake: ['Date'] });
    gw = await startLimitsGateway();
  });
  afterEach(async () => {
    clock.restore();
    await gw?.stop();
  });

  it('counts each JSON answer\'s usage and refuses once the window is spent', async () => {
    const value = 2 * perAnswer + 1;
    await createPolicy(gw, tokenPolicy(value));
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) {
      const reply = await chat(gw, mock);
      expect(reply.status).to.equal(200);
      seen.push(remaining(reply));
      await settle();
    }
    expect(seen).to.deep.equal([value, value - perAnswer, value - 2 * perAnswer]);
    const refused = await chat(gw, mock);
    expect(refused.status).to.equal(429);
    expect(refused.json.error.message).to.match(new RegExp(`allows ${value} tokens per minute`));
    expect(refused.headers.get('retry-after')).to.equal('30');

    clock.tick(30_000);
    expect(remaining(await chat(gw, mock))).to.equal(value);
  });

  it('counts a stream\'s usage chunk (stream_options.include_usage), as the OpenAI SDK asks for it', async () => {
    const value = 1000;
    await createPolicy(gw, tokenPolicy(value));
    const client = new OpenAI({
      apiKey: 'sk-x', baseURL: `${gw.url}/v1`, maxRetries: 0,
      defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify(leaf(mock)) },
    });
    const stream = await client.chat.completions.create({ ...CHAT_BODY, messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
    let usage: number | undefined;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage.total_tokens;
    expect(usage).to.equal(perAnswer);
    await settle();
    expect(remaining(await chat(gw, mock))).to.equal(value - perAnswer);
  });

  it('estimates a stream without usage at 4 characters per token (prompt text + streamed text)', async () => {
    const value = 1000;
    await createPolicy(gw, tokenPolicy(value));
    const streamed = await chat(gw, mock, { body: { ...CHAT_BODY, stream: true } });
    expect(streamed.status).to.equal(200);
    const content = streamedContent(streamed.text);
    expect(content.length).to.be.greaterThan(0);
    const estimate = Math.ceil('hi'.length / 4) + Math.ceil(content.length / 4);
    await settle();
    expect(remaining(await chat(gw, mock))).to.equal(value - estimate);
  });

  it('counts text completions, and blocks a stream once the window is spent', async () => {
    await createPolicy(gw, tokenPolicy(1));
    const completion = await chat(gw, mock, { path: '/v1/completions', body: { model: 'gpt-3.5-turbo-instruct', prompt: 'Say hi' } });
    expect(completion.status).to.equal(200);
    await settle();
    const blocked = await chat(gw, mock, { body: { ...CHAT_BODY, stream: true } });
    expect(blocked.status).to.equal(429);
    expect(blocked.headers.get('content-type')).to.match(/application\/json/);
  });

  it('does not count cache hits (no provider call) nor errors without usage', async () => {
    const value = 1000;
    await createPolicy(gw, tokenPolicy(value));
    const config = { ...leaf(mock), cache: { mode: 'simple' } };
    const body = { ...CHAT_BODY, messages: [{ role: 'user', content: 'cached tokens' }] };
    const miss = await chat(gw, mock, { config, body });
    expect(miss.headers.get('x-gw-cache-status')).to.equal('MISS');
    const tokens = miss.json.usage.total_tokens;
    await settle();
    const hit = await chat(gw, mock, { config, body });
    expect(hit.headers.get('x-gw-cache-status')).to.equal('HIT');
    await settle();
    mock.next({ status: 500 });
    expect((await chat(gw, mock)).status).to.equal(500);
    await settle();
    expect(remaining(await chat(gw, mock))).to.equal(value - tokens);
  });
});
