/**
 * The Messages API natively for Claude on Bedrock: the official `@anthropic-ai/sdk` against the
 * gateway (config `provider: bedrock` with AWS keys), the gateway against the loopback mock Bedrock
 * (which verifies every SigV4 signature and answers InvokeModel, its stream and CountTokens for
 * Claude ids in Anthropic's format, event-stream framed).
 */
import Anthropic from '@anthropic-ai/sdk';
import { expect } from 'chai';
import { BEDROCK_ANTHROPIC_VERSION, MOCK_SIGNATURE, MOCK_THINKING_TEXT } from '../../fixtures/bedrock-claude-wire.js';
import { MOCK_AWS, startMockBedrock, type MockBedrock } from '../../fixtures/mock-bedrock.js';
import { startGateway, TEST_API_KEY, type TestGateway } from '../../helpers/gateway.js';

const CLAUDE = 'anthropic.claude-3-7-sonnet-20250219-v1:0';
const CLAUDE_PROFILE = 'us.anthropic.claude-sonnet-4-20250514-v1:0';
const NOVA = 'amazon.nova-lite-v1:0';
const FRAME_DELAY_MS = 40;

type Obj = Record<string, any>;
type ApiError = InstanceType<typeof Anthropic.APIError>;

describe('provider.bedrock: Messages natively for Claude (InvokeModel, end to end)', () => {
  let gw: TestGateway;
  let bedrock: MockBedrock;
  let slow: MockBedrock;
  const configOf = (mock: MockBedrock) => ({
    provider: 'bedrock', custom_host: mock.url, cloudA_region: MOCK_AWS.region,
    cloudA_access_key_id: MOCK_AWS.accessKeyId, cloudA_secret_access_key: MOCK_AWS.secretAccessKey,
  });
  const sdk = (mock: MockBedrock = bedrock, extra: Record<string, string> = {}) => new Anthropic({
    apiKey: 'unused', baseURL: gw.url, maxRetries: 0,
    defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify(configOf(mock)), ...extra },
  });
  const ask = (model: string, extra: Obj = {}) => ({ model, max_tokens: 256, messages: [{ role: 'user' as const, content: 'hello there' }], ...extra });
  const last = (mock: MockBedrock = bedrock) => mock.requests[mock.requests.length - 1]!;

  before(async () => {
    gw = await startGateway();
    bedrock = await startMockBedrock();
    slow = await startMockBedrock({ streamChunkDelayMs: FRAME_DELAY_MS });
  });
  after(async () => {
    await gw?.stop();
    await bedrock?.close();
    await slow?.close();
  });
  beforeEach(() => {
    bedrock.reset();
    slow.reset();
  });

  it('sends the client body to /invoke (model in the URL, bedrock anthropic_version) and answers the Message as it is', async () => {
    const body = ask(CLAUDE, { system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }], top_k: 4 });
    const { data, response } = await sdk().messages.create(body as Anthropic.MessageCreateParamsNonStreaming).withResponse();
    const rec = last();
    expect(rec.path).to.equal(`/model/${encodeURIComponent(CLAUDE)}/invoke`);
    expect(rec.headers['authorization']).to.match(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\//);
    const { model: _model, ...rest } = body;
    expect(rec.body).to.deep.equal({ anthropic_version: BEDROCK_ANTHROPIC_VERSION, ...rest });
    expect(data).to.deep.include({ id: 'msg_bdrk_mock1', type: 'message', model: CLAUDE, stop_reason: 'end_turn' });
    expect(data.content).to.deep.equal([{ type: 'text', text: 'echo: hello there' }]);
    expect(response.headers.get('x-gw-provider')).to.equal('bedrock');
  });

  it('takes inference-profile ids natively too, and turns anthropic-beta into the body\'s anthropic_beta array', async () => {
    const client = sdk(bedrock, { 'anthropic-beta': 'interleaved-thinking-2025-05-14, token-efficient-tools-2025-02-19' });
    await client.messages.create(ask(CLAUDE_PROFILE));
    const rec = last();
    expect(rec.path).to.equal(`/model/${encodeURIComponent(CLAUDE_PROFILE)}/invoke`);
    expect(rec.body.anthropic_beta).to.deep.equal(['interleaved-thinking-2025-05-14', 'token-efficient-tools-2025-02-19']);
    expect(rec.headers['anthropic-beta']).to.equal(undefined);
  });

  it('keeps the thinking block and its signature, plain and streamed', async () => {
    const body = ask(CLAUDE, { max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 } });
    const plain = await sdk().messages.create(body as Anthropic.MessageCreateParamsNonStreaming);
    expect(last().body.thinking).to.deep.equal({ type: 'enabled', budget_tokens: 1024 });
    expect(plain.content[0]).to.deep.equal({ type: 'thinking', thinking: MOCK_THINKING_TEXT, signature: MOCK_SIGNATURE });
    const streamed = await sdk().messages.stream(body as Anthropic.MessageCreateParamsNonStreaming).finalMessage();
    expect(streamed.content[0]).to.deep.equal({ type: 'thinking', thinking: MOCK_THINKING_TEXT, signature: MOCK_SIGNATURE });
    expect(streamed.content[1]).to.deep.include({ type: 'text', text: 'echo: hello there' });
  });

  it('streams through invoke-with-response-stream, each event as its frame arrives', async () => {
    const stream = sdk(slow).messages.stream(ask(CLAUDE));
    const arrivals: { type: string; at: number }[] = [];
    stream.on('streamEvent', (event) => void arrivals.push({ type: event.type, at: Date.now() }));
    const message = await stream.finalMessage();
    const rec = last(slow);
    expect(rec.path).to.equal(`/model/${encodeURIComponent(CLAUDE)}/invoke-with-response-stream`);
    expect(rec.body).to.not.have.property('stream');
    expect(rec.headers['accept']).to.equal('application/vnd.amazon.eventstream');
    expect(arrivals[0]!.type).to.equal('message_start');
    expect(arrivals[arrivals.length - 1]!.type).to.equal('message_stop');
    expect(arrivals.filter((a) => a.type === 'content_block_delta').length).to.be.greaterThanOrEqual(3);
    // Frames leave the mock FRAME_DELAY_MS apart: events that were buffered whole would arrive together.
    const spread = arrivals[arrivals.length - 1]!.at - arrivals[0]!.at;
    expect(spread).to.be.greaterThanOrEqual(FRAME_DELAY_MS * (arrivals.length - 2));
    expect(message.content).to.have.length(1);
    expect(message.content[0]).to.deep.include({ type: 'text', text: 'echo: hello there' });
    expect(message.usage.output_tokens).to.be.greaterThan(0);
  });

  it('writes each event as `event: <type>` + one-line `data:` on the wire', async () => {
    const res = await fetch(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify(configOf(bedrock)) },
      body: JSON.stringify({ ...ask(CLAUDE), stream: true }),
    });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.contain('text/event-stream');
    const text = await res.text();
    const blocks = text.split('\n\n').filter((b) => b !== '');
    for (const block of blocks) {
      const [eventLine, dataLine, ...more] = block.split('\n');
      expect(more).to.deep.equal([]);
      const type = /^event: (\w+)$/.exec(eventLine!)![1];
      expect(JSON.parse(dataLine!.replace(/^data: /, '')).type).to.equal(type);
    }
    expect(blocks[blocks.length - 1]).to.match(/^event: message_stop\n/);
    // Bedrock's own metrics in message_stop pass on with the event, as Bedrock sent it.
    expect(blocks[blocks.length - 1]).to.contain('amazon-bedrock-invocationMetrics');
  });

  it('ends a stream whose Bedrock exception comes mid-way with an Anthropic error event', async () => {
    bedrock.next({ streamExceptionAfter: 3, exceptionType: 'modelStreamErrorException', message: 'The model stream failed.' });
    const res = await fetch(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify(configOf(bedrock)) },
      body: JSON.stringify({ ...ask(CLAUDE), stream: true }),
    });
    const text = await res.text();
    const events = text.split('\n\n').filter((b) => b !== '').map((b) => /^event: (\w+)/.exec(b)![1]);
    expect(events.slice(0, 3)).to.deep.equal(['message_start', 'content_block_start', 'content_block_delta']);
    expect(events[events.length - 1]).to.equal('error');
    expect(events).to.not.include('message_stop');
    const error = JSON.parse(text.trim().split('\n\n').pop()!.split('\n')[1]!.replace(/^data: /, ''));
    expect(error.type).to.equal('error');
    expect(error.error.message).to.contain('The model stream failed.');

    bedrock.next({ streamExceptionAfter: 2 });
    const stream = sdk().messages.stream(ask(CLAUDE));
    const failure = await stream.finalMessage().then(() => undefined, (e: unknown) => e);
    expect(failure).to.be.instanceOf(Anthropic.APIError);
    expect((failure as ApiError).message).to.contain('Too many requests');
  });

  it('maps a Bedrock 4xx as the Bedrock adapter does (status, Anthropic error shape, provider named)', async () => {
    bedrock.next({ status: 403 });
    const failure = await sdk().messages.create(ask(CLAUDE)).then(() => undefined, (e: unknown) => e);
    expect(failure).to.be.instanceOf(Anthropic.PermissionDeniedError);
    const error = failure as ApiError;
    expect(error.status).to.equal(403);
    expect((error.error as Obj).type).to.equal('error');
    expect((error.error as Obj).error.type).to.equal('permission_error');
    expect((error.error as Obj).error.message).to.contain('access to the model');

    bedrock.next({ status: 400, body: { message: 'messages.0.content: Input should be a valid list' }, headers: { 'x-amzn-errortype': 'ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/' } });
    const invalid = await sdk().messages.create(ask(CLAUDE)).then(() => undefined, (e: unknown) => e);
    expect(invalid).to.be.instanceOf(Anthropic.BadRequestError);
    expect(((invalid as ApiError).error as Obj).error.message).to.equal('messages.0.content: Input should be a valid list');
  });

  it('refuses a bad signature upstream as a 403, never echoing the secret', async () => {
    const config = { ...configOf(bedrock), cloudA_secret_access_key: 'not-the-secret-key-0000' };
    const client = new Anthropic({ apiKey: 'unused', baseURL: gw.url, maxRetries: 0, defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify(config) } });
    const failure = await client.messages.create(ask(CLAUDE)).then(() => undefined, (e: unknown) => e);
    expect((failure as ApiError).status).to.equal(403);
    expect(JSON.stringify((failure as ApiError).error)).to.not.contain('not-the-secret-key-0000');
  });

  it('still reaches a non-Claude Bedrock model through chat (Converse)', async () => {
    const message = await sdk().messages.create(ask(NOVA));
    expect(last().path).to.equal(`/model/${encodeURIComponent(NOVA)}/converse`);
    expect(last().body).to.not.have.property('anthropic_version');
    expect(message.type).to.equal('message');
    expect(message.content[0]).to.deep.include({ type: 'text' });
    const streamed = await sdk().messages.stream(ask(NOVA)).finalMessage();
    expect(last().path).to.equal(`/model/${encodeURIComponent(NOVA)}/converse-stream`);
    expect(streamed.stop_reason).to.equal('end_turn');
  });

  it('counts tokens with Bedrock CountTokens for Claude, and estimates for other models', async () => {
    const client = sdk();
    const { data, response } = await client.messages.countTokens({ model: CLAUDE, messages: [{ role: 'user', content: 'hello there' }] }).withResponse();
    const rec = last();
    expect(rec.path).to.equal(`/model/${encodeURIComponent(CLAUDE)}/count-tokens`);
    const invoke = JSON.parse(Buffer.from(rec.body.input.invokeModel.body, 'base64').toString('utf8'));
    expect(invoke).to.deep.include({ anthropic_version: BEDROCK_ANTHROPIC_VERSION, messages: [{ role: 'user', content: 'hello there' }] });
    expect(invoke).to.not.have.property('model');
    expect(data.input_tokens).to.be.a('number').and.greaterThan(0);
    expect(response.headers.get('x-gw-token-count')).to.equal(null);

    const before = bedrock.requests.length;
    const estimate = await client.messages.countTokens({ model: NOVA, messages: [{ role: 'user', content: 'hello there' }] }).withResponse();
    expect(bedrock.requests.length).to.equal(before);
    expect(estimate.response.headers.get('x-gw-token-count')).to.equal('estimate');
  });
});
