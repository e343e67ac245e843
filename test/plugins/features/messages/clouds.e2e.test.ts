/**
 * feature.messages on the clouds that host Claude: Claude on Vertex AI natively (rawPredict /
 * streamRawPredict with the client's body), Gemini on Vertex and non-Claude Bedrock models through chat
 * (generateContent; Converse), against the loopback Vertex and Bedrock mocks (which check tokens and
 * SigV4 signatures).
 */
import { expect } from 'chai';
import { MOCK_AWS, startMockBedrock, type MockBedrock } from '../../../fixtures/mock-bedrock.js';
import type { VertexMock } from '../../../fixtures/mock-vertex.js';
import { startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { startMock, vertexConfig } from '../../../providers/vertex-ai/service-account.js';
import { messagesClient } from './messages-client.js';

const CLAUDE_ON_VERTEX = 'claude-3-5-sonnet-v2@20241022';
const GEMINI = 'gemini-2.0-flash-001';
const NOVA_ON_BEDROCK = 'amazon.nova-lite-v1:0';
// Claude on Bedrock speaks Messages natively: test/providers/bedrock/claude-messages.e2e.test.ts.

describe('feature.messages on Vertex AI and Bedrock (end to end)', () => {
  let gw: TestGateway;
  let vertex: VertexMock;
  let bedrock: MockBedrock;
  const client = (config: Record<string, unknown>) => messagesClient(gw.url, { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify(config) });
  const ask = (model: string, extra: Record<string, unknown> = {}) => ({ model, max_tokens: 64, messages: [{ role: 'user', content: 'hello' }], ...extra });

  before(async () => {
    gw = await startGateway();
    vertex = await startMock({});
    bedrock = await startMockBedrock();
  });
  after(async () => {
    await gw?.stop();
    await vertex?.close();
    await bedrock?.close();
  });

  it('sends Claude on Vertex the client body natively (model in the URL, vertex anthropic_version)', async () => {
    const body = ask(CLAUDE_ON_VERTEX, { system: 'Be brief.', top_k: 4 });
    const { message, headers } = await client(vertexConfig(vertex)).create(body);
    const rec = vertex.requests[vertex.requests.length - 1]!;
    expect(rec.path).to.match(new RegExp(`/publishers/anthropic/models/${CLAUDE_ON_VERTEX}:rawPredict$`));
    const { model: _model, ...rest } = body;
    expect(rec.body).to.deep.equal({ anthropic_version: 'vertex-2023-10-16', ...rest });
    expect(message.type).to.equal('message');
    expect(message.content[0].type).to.equal('text');
    expect(headers.get('x-gw-provider')).to.equal('vertex-ai');
  });

  it('streams Claude on Vertex natively through streamRawPredict', async () => {
    const { events, message } = await client(vertexConfig(vertex)).stream(ask(CLAUDE_ON_VERTEX));
    const rec = vertex.requests[vertex.requests.length - 1]!;
    expect(rec.path).to.match(/:streamRawPredict$/);
    expect(rec.body.stream).to.equal(true);
    expect(events[0]!.event).to.equal('message_start');
    expect(events[events.length - 1]!.event).to.equal('message_stop');
    expect(message.content[0].text).to.be.a('string').and.not.equal('');
  });

  it('reaches Gemini on Vertex through chat (generateContent) and answers a Message', async () => {
    const { message } = await client(vertexConfig(vertex)).create(ask(GEMINI));
    const rec = vertex.requests[vertex.requests.length - 1]!;
    expect(rec.path).to.match(new RegExp(`/publishers/google/models/${GEMINI}:generateContent$`));
    expect(message).to.deep.include({ type: 'message', role: 'assistant', stop_reason: 'end_turn' });
    expect(message.content[0].type).to.equal('text');
    expect(message.usage.output_tokens).to.be.greaterThan(0);
  });

  it('reaches a non-Claude Bedrock model through chat (Converse), plain and streamed', async () => {
    const config = {
      provider: 'bedrock', custom_host: bedrock.url, cloudA_region: MOCK_AWS.region,
      cloudA_access_key_id: MOCK_AWS.accessKeyId, cloudA_secret_access_key: MOCK_AWS.secretAccessKey,
    };
    const plain = await client(config).create(ask(NOVA_ON_BEDROCK));
    expect(bedrock.requests[bedrock.requests.length - 1]!.path).to.contain('/converse');
    expect(plain.message.content[0].type).to.equal('text');
    const streamed = await client(config).stream(ask(NOVA_ON_BEDROCK));
    expect(bedrock.requests[bedrock.requests.length - 1]!.path).to.contain('/converse-stream');
    expect(streamed.message.content[0].text).to.equal(plain.message.content[0].text);
    expect(streamed.message.stop_reason).to.equal('end_turn');
  });
});
