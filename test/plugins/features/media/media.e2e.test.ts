/**
 * feature.media end to end with the official `openai` SDK as the client: image generation (JSON and
 * streamed partial images), image edits (multipart with a file and a mask), speech (audio bytes
 * streamed through as they come; stream_format sse), transcriptions (JSON, text, stream) and
 * translations, against the OpenAI mock and the Azure mock (deployment URLs). Also: bad input
 * (400 naming the field), a form over the body limit (413), provider errors passed on, retries and
 * fallbacks sending the same file again, unsupported providers, and one log row per call.
 */
import OpenAI, { toFile } from 'openai';
import { expect } from 'chai';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { startAzureMock, type MockAzure } from '../../../fixtures/mock-azure.js';
import type { ParsedForm } from '../../../fixtures/openai-media-wire.js';
import { startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { RequestLogsService } from '../../../../plugins/observe/logs/contract.js';

const AUDIO = 'RIFF-mock-wave-bytes-0123456789';
const SPEECH_CHUNK_DELAY_MS = 150;

describe('feature.media: images and audio through the gateway (openai SDK, end to end)', () => {
  let mock: MockOpenAI;
  let slow: MockOpenAI;
  let azure: MockAzure;
  let gw: TestGateway;

  const target = (m: MockOpenAI = mock, extra: Record<string, unknown> = {}) => ({ provider: 'openai', api_key: 'sk-test', custom_host: `${m.url}/v1`, ...extra });
  const azureTarget = (deployment: string) => ({
    provider: 'azure-openai', api_key: 'az-key', resource_name: 'res', deployment_id: deployment, api_version: '2025-04-01-preview', custom_host: azure.url,
  });
  const client = (config: unknown, headers: Record<string, string> = {}) => new OpenAI({
    apiKey: 'sk-unused', baseURL: `${gw.url}/v1`, maxRetries: 0,
    defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify(config), ...headers },
  });
  const audioFile = (name = 'hello.wav', content = AUDIO) => toFile(Buffer.from(content), name, { type: 'audio/wav' });
  const apiError = async (run: () => Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> => {
    try {
      await run();
    } catch (e) {
      expect(e).to.be.instanceOf(OpenAI.APIError);
      return e as InstanceType<typeof OpenAI.APIError>;
    }
    return expect.fail('expected an APIError');
  };
  const formOf = (m: { requests: { body: unknown }[] }, i = 0) => m.requests[i]!.body as ParsedForm;
  /** A raw form post (what the SDK would never send), for the bad-input cases. */
  const postForm = (path: string, form: FormData, config: unknown = target()) => fetch(`${gw.url}${path}`, {
    method: 'POST', body: form, headers: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify(config) },
  });

  before(async () => {
    mock = await startMockOpenAI();
    slow = await startMockOpenAI({ streamChunkDelayMs: SPEECH_CHUNK_DELAY_MS });
    azure = await startAzureMock();
    gw = await startGateway();
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
    await slow?.close();
    await azure?.close();
  });
  beforeEach(() => {
    mock.reset();
    slow.reset();
    azure.reset();
  });

  describe('images', () => {
    it('images.generate: the JSON body passes on, the answer comes back', async () => {
      const res = await client(target()).images.generate({ model: 'gpt-image-1', prompt: 'a red fox', n: 2, size: '1024x1024' });
      expect(res.data).to.have.length(2);
      expect(Buffer.from(res.data![0]!.b64_json!, 'base64').toString()).to.equal('image:a red fox');
      expect(mock.requests[0]!.path).to.equal('/v1/images/generations');
      expect(mock.requests[0]!.body).to.deep.include({ model: 'gpt-image-1', prompt: 'a red fox', n: 2, size: '1024x1024' });
    });

    it('images.generate with stream: true streams the partial images and the completed event', async () => {
      const stream = await client(target()).images.generate({ model: 'gpt-image-1', prompt: 'a boat', stream: true, partial_images: 2 });
      const types: string[] = [];
      for await (const event of stream) types.push(event.type);
      expect(types).to.deep.equal(['image_generation.partial_image', 'image_generation.partial_image', 'image_generation.completed']);
    });

    it('images.edit: the form (image file, mask, prompt) reaches the provider whole', async () => {
      const image = await toFile(Buffer.from('PNG-mock-image-bytes'), 'cat.png', { type: 'image/png' });
      const mask = await toFile(Buffer.from('PNG-mask'), 'mask.png', { type: 'image/png' });
      const res = await client(target()).images.edit({ model: 'gpt-image-1', image, mask, prompt: 'add a hat', n: 1 });
      expect(Buffer.from(res.data![0]!.b64_json!, 'base64').toString()).to.equal('image:add a hat|cat.png(20)|mask:mask.png');
      const form = formOf(mock);
      expect(mock.requests[0]!.path).to.equal('/v1/images/edits');
      expect(form.fields).to.deep.include({ model: 'gpt-image-1', prompt: 'add a hat', n: '1' });
      expect(form.files['image']![0]).to.deep.equal({ filename: 'cat.png', contentType: 'image/png', content: 'PNG-mock-image-bytes' });
      expect(form.files['mask']![0]!.content).to.equal('PNG-mask');
    });

    it('images.edit takes several images (image[])', async () => {
      const a = await toFile(Buffer.from('one'), 'a.png', { type: 'image/png' });
      const b = await toFile(Buffer.from('three'), 'b.png', { type: 'image/png' });
      const res = await client(target()).images.edit({ model: 'gpt-image-1', image: [a, b], prompt: 'merge' });
      expect(Buffer.from(res.data![0]!.b64_json!, 'base64').toString()).to.equal('image:merge|a.png(3),b.png(5)');
    });
  });

  describe('speech', () => {
    it('audio.speech.create: the audio is streamed through, its first chunk arrives long before its end', async () => {
      const started = performance.now();
      const response = await client(target(slow)).audio.speech.create({ model: 'gpt-4o-mini-tts', voice: 'alloy', input: 'Hello there, streamed world' });
      expect(response.headers.get('content-type')).to.equal('audio/mpeg');
      const reader = response.body!.getReader();
      const chunks: Uint8Array[] = [];
      let firstAt = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (chunks.length === 0) firstAt = performance.now() - started;
        chunks.push(value);
      }
      const endAt = performance.now() - started;
      expect(Buffer.concat(chunks).toString()).to.equal('ID3-mock-audio:Hello there, streamed world');
      // The mock pauses 150 ms between its 4 chunks: a buffered answer would arrive after 450 ms whole.
      expect(endAt).to.be.greaterThan(3 * SPEECH_CHUNK_DELAY_MS);
      expect(firstAt).to.be.lessThan(endAt - 2 * SPEECH_CHUNK_DELAY_MS);
      expect(chunks.length).to.be.greaterThan(1);
    });

    it('response_format picks the audio type the provider answers with', async () => {
      const response = await client(target()).audio.speech.create({ model: 'tts-1', voice: 'nova', input: 'hi', response_format: 'wav' });
      expect(response.headers.get('content-type')).to.equal('audio/wav');
      expect(Buffer.from(await response.arrayBuffer()).toString()).to.equal('ID3-mock-audio:hi');
    });

    it('stream_format "sse" answers speech events, ending with speech.audio.done', async () => {
      const response = await client(target()).audio.speech.create({ model: 'gpt-4o-mini-tts', voice: 'alloy', input: 'events please', stream_format: 'sse' });
      expect(response.headers.get('content-type')).to.contain('text/event-stream');
      const text = await response.text();
      const events = text.trim().split('\n\n').map((e) => JSON.parse(e.slice('data: '.length)));
      expect(events.at(-1).type).to.equal('speech.audio.done');
      const audio = Buffer.concat(events.slice(0, -1).map((e) => Buffer.from(e.audio, 'base64'))).toString();
      expect(audio).to.equal('ID3-mock-audio:events please');
    });

    it('audio cut by the provider mid-answer: the client sees the body fail, not a short file as whole', async () => {
      slow.next({ streamCutAfter: 2 });
      const response = await client(target(slow)).audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'this will be cut off' });
      let failed = false;
      try {
        await response.arrayBuffer();
      } catch {
        failed = true;
      }
      expect(failed).to.equal(true);
    });
  });

  describe('transcriptions and translations', () => {
    it('audio.transcriptions.create: the file and fields reach the provider; the JSON answer comes back', async () => {
      const res = await client(target()).audio.transcriptions.create({ model: 'whisper-1', file: await audioFile(), language: 'en', temperature: 0.2 });
      expect(res.text).to.equal(`transcription of hello.wav (${AUDIO.length} bytes) by whisper-1 in en`);
      const form = formOf(mock);
      expect(mock.requests[0]!.path).to.equal('/v1/audio/transcriptions');
      expect(form.fields).to.deep.include({ model: 'whisper-1', language: 'en', temperature: '0.2' });
      expect(form.files['file']![0]).to.deep.equal({ filename: 'hello.wav', contentType: 'audio/wav', content: AUDIO });
    });

    it('response_format text answers plain text, passed through', async () => {
      const text = await client(target()).audio.transcriptions.create({ model: 'whisper-1', file: await audioFile(), response_format: 'text' });
      expect(text).to.equal(`transcription of hello.wav (${AUDIO.length} bytes) by whisper-1`);
    });

    it('timestamp_granularities[] passes on as a repeated form field', async () => {
      await client(target()).audio.transcriptions.create({
        model: 'whisper-1', file: await audioFile(), response_format: 'verbose_json', timestamp_granularities: ['word', 'segment'],
      });
      expect(formOf(mock).fields['timestamp_granularities']).to.deep.equal(['word', 'segment']);
    });

    it('stream: true streams transcript.text.delta events and the done event', async () => {
      const stream = await client(target()).audio.transcriptions.create({ model: 'gpt-4o-transcribe', file: await audioFile('s.wav'), stream: true });
      let text = '';
      let done: string | undefined;
      for await (const event of stream) {
        if (event.type === 'transcript.text.delta') text += event.delta;
        if (event.type === 'transcript.text.done') done = event.text;
      }
      expect(done).to.equal(`transcription of s.wav (${AUDIO.length} bytes) by gpt-4o-transcribe`);
      expect(text).to.equal(done);
    });

    it('audio.translations.create', async () => {
      const res = await client(target()).audio.translations.create({ model: 'whisper-1', file: await audioFile('de.wav') });
      expect(res.text).to.equal(`translation of de.wav (${AUDIO.length} bytes) by whisper-1`);
      expect(mock.requests[0]!.path).to.equal('/v1/audio/translations');
    });

    it("a target's override_params apply to a form: the form is written anew for the attempt", async () => {
      await client(target(mock, { override_params: { model: 'whisper-large' } })).audio.transcriptions.create({ model: 'whisper-1', file: await audioFile() });
      expect(formOf(mock).fields['model']).to.equal('whisper-large');
      expect(formOf(mock).files['file']![0]!.content).to.equal(AUDIO);
    });
  });

  describe('routing, retries and errors', () => {
    it('a retry sends the same file again', async () => {
      mock.next({ status: 503 });
      const res = await client({ ...target(), retry: { attempts: 2, on_status_codes: [503] } })
        .audio.transcriptions.create({ model: 'whisper-1', file: await audioFile() });
      expect(res.text).to.contain('hello.wav');
      expect(mock.requests).to.have.length(2);
      expect(mock.requests[0]!.rawBody).to.contain(AUDIO);
      expect(formOf(mock, 1).files['file']![0]!.content).to.equal(AUDIO);
    });

    it('a fallback to Azure sends the same form to the deployment URL', async () => {
      mock.next({ status: 500 });
      const config = { strategy: { mode: 'fallback' }, targets: [target(), azureTarget('whisper')] };
      const res = await client(config).audio.transcriptions.create({ model: 'whisper-1', file: await audioFile('fb.wav') });
      expect(res.text).to.equal(`transcription of fb.wav (${AUDIO.length} bytes) by whisper-1`);
      expect(azure.requests[0]!.path).to.equal('/openai/deployments/whisper/audio/transcriptions?api-version=2025-04-01-preview');
      expect(azure.requests[0]!.headers['api-key']).to.equal('az-key');
      expect(formOf(azure).files['file']![0]!.content).to.equal(AUDIO);
    });

    it("a provider's error is passed on with its status and message", async () => {
      mock.next({ status: 400, body: { error: { message: 'Your prompt was rejected by the safety system.', type: 'invalid_request_error', param: 'prompt', code: 'content_policy_violation' } } });
      const e = await apiError(() => client(target()).images.generate({ model: 'dall-e-3', prompt: 'something' }));
      expect(e.status).to.equal(400);
      expect(e.message).to.contain('rejected by the safety system');
      expect(e.code).to.equal('content_policy_violation');
    });

    it('a provider without the endpoint answers 400 unsupported_endpoint naming it', async () => {
      const anthropic = { provider: 'anthropic', api_key: 'sk-ant', custom_host: `${mock.url}/v1` };
      const e = await apiError(() => client(anthropic).audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'x' }));
      expect(e.status).to.equal(400);
      expect(e.code).to.equal('unsupported_endpoint');
      expect(e.message).to.contain('createSpeech');
      const form = await apiError(async () => client(anthropic).audio.transcriptions.create({ model: 'whisper-1', file: await audioFile() }));
      expect(form.code).to.equal('unsupported_endpoint');
      expect(mock.requests).to.have.length(0);
    });

    it('Azure: images, speech and translations on deployment URLs', async () => {
      const img = await client(azureTarget('dalle')).images.generate({ prompt: 'azure sky' });
      expect(Buffer.from(img.data![0]!.b64_json!, 'base64').toString()).to.equal('image:azure sky');
      const speech = await client(azureTarget('tts')).audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'from azure' });
      expect(Buffer.from(await speech.arrayBuffer()).toString()).to.equal('ID3-mock-audio:from azure');
      const tr = await client(azureTarget('whisper')).audio.translations.create({ model: 'whisper-1', file: await audioFile('az.wav') });
      expect(tr.text).to.contain('translation of az.wav');
      const edit = await client(azureTarget('img')).images.edit({ image: await toFile(Buffer.from('P'), 'p.png', { type: 'image/png' }), prompt: 'p' });
      expect(edit.data).to.have.length(1);
      expect(azure.requests.map((r) => r.path)).to.deep.equal([
        '/openai/deployments/dalle/images/generations?api-version=2025-04-01-preview',
        '/openai/deployments/tts/audio/speech?api-version=2025-04-01-preview',
        '/openai/deployments/whisper/audio/translations?api-version=2025-04-01-preview',
        '/openai/deployments/img/images/edits?api-version=2025-04-01-preview',
      ]);
    });

    it('a transcription stream cut by the provider ends with an error event, not as if whole', async () => {
      mock.next({ streamCutAfter: 2 });
      const form = new FormData();
      form.set('model', 'gpt-4o-transcribe');
      form.set('stream', 'true');
      form.set('file', new Blob([AUDIO], { type: 'audio/wav' }), 'cut.wav');
      const reply = await postForm('/v1/audio/transcriptions', form);
      expect(reply.status).to.equal(200);
      const events = (await reply.text()).trim().split('\n\n');
      expect(events).to.have.length(3);
      expect(JSON.parse(events[1]!.replace(/^(event: .*\n)?data: /, '')).type).to.equal('transcript.text.delta');
      const last = JSON.parse(events[2]!.slice('data: '.length));
      expect(last.error.message).to.match(/provider openai/);
    });

    it('the cache keys a form by its file digest: the same file hits, another file misses', async () => {
      const config = { ...target(), cache: { mode: 'simple' } };
      const first = await client(config).audio.transcriptions.create({ model: 'whisper-1', file: await audioFile('c.wav', 'cache-me') }).withResponse();
      const again = await client(config).audio.transcriptions.create({ model: 'whisper-1', file: await audioFile('c.wav', 'cache-me') }).withResponse();
      const other = await client(config).audio.transcriptions.create({ model: 'whisper-1', file: await audioFile('c.wav', 'cache-you') }).withResponse();
      expect(first.response.headers.get('x-gw-cache-status')).to.equal('MISS');
      expect(again.response.headers.get('x-gw-cache-status')).to.equal('HIT');
      expect(again.data.text).to.equal(first.data.text);
      expect(other.response.headers.get('x-gw-cache-status')).to.equal('MISS');
      expect(mock.requests).to.have.length(2);
    });

    it('request_timeout applies: a provider too slow to answer speech gives 408', async () => {
      mock.next({ delayMs: 1000 });
      const e = await apiError(() => client({ ...target(), request_timeout: 150 }).audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'late' }));
      expect(e.status).to.equal(408);
    });

    it('form field names that would reach a prototype are dropped', async () => {
      const form = new FormData();
      form.set('model', 'whisper-1');
      form.append('__proto__[]', 'x');
      form.set('constructor', 'y');
      form.set('file', new Blob([AUDIO], { type: 'audio/wav' }), 'p.wav');
      const reply = await postForm('/v1/audio/transcriptions', form);
      expect(reply.status).to.equal(200);
      expect(Object.keys(formOf(mock).fields)).to.deep.equal(['model']);
    });

    it('writes one log row per call, with its endpoint', async () => {
      const trace = `media-log-${Date.now()}`;
      const c = client(target(), { 'x-gw-trace-id': trace });
      await c.images.generate({ prompt: 'logged' });
      await (await c.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'logged' })).arrayBuffer();
      await c.audio.transcriptions.create({ model: 'whisper-1', file: await audioFile() });
      await gw.gateway.runtime.services.get(RequestLogsService).flush();
      const reply = await fetch(`${gw.url}/v1/logs?trace_id=${trace}`, { headers: { 'x-gw-api-key': TEST_API_KEY } });
      const rows = ((await reply.json()) as { data: { endpoint: string; status: number; path: string }[] }).data;
      expect(rows.map((r) => r.endpoint).sort()).to.deep.equal(['createSpeech', 'createTranscription', 'imageGenerate']);
      expect(rows.every((r) => r.status === 200)).to.equal(true);

      // Audio cut after its head: the row says the call failed, though the client got a 200 head.
      const cutTrace = `${trace}-cut`;
      slow.next({ streamCutAfter: 1 });
      const cut = await client(target(slow), { 'x-gw-trace-id': cutTrace }).audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'cut short' });
      await cut.arrayBuffer().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 50));
      await gw.gateway.runtime.services.get(RequestLogsService).flush();
      const cutRows = ((await (await fetch(`${gw.url}/v1/logs?trace_id=${cutTrace}`, { headers: { 'x-gw-api-key': TEST_API_KEY } })).json()) as { data: { status: number }[] }).data;
      expect(cutRows).to.have.length(1);
      expect(cutRows[0]!.status).to.equal(502);
    });
  });

  describe('bad input', () => {
    const bad = async (run: () => Promise<unknown>, param: string, rule: RegExp) => {
      const e = await apiError(run);
      expect(e.status, e.message).to.equal(400);
      expect((e.error as { param?: string }).param).to.equal(param);
      expect(e.message).to.match(rule);
    };

    it('JSON bodies: missing and out-of-range fields are named', async () => {
      const c = client(target());
      await bad(() => c.images.generate({ model: 'dall-e-3' } as never), 'prompt', /prompt.*required/);
      await bad(() => c.images.generate({ prompt: 'x', n: 11 }), 'n', /<= 10/);
      await bad(() => c.images.generate({ prompt: 'x', size: '10x10' as never }), 'size', /must be one of/);
      await bad(() => c.images.generate({ prompt: 'x', response_format: 'gif' as never }), 'response_format', /must be one of/);
      await bad(() => c.audio.speech.create({ model: 'tts-1', input: 'x' } as never), 'voice', /voice.*required/);
      await bad(() => c.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'x', speed: 5 }), 'speed', /<= 4/);
      await bad(() => c.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'x'.repeat(4097) }), 'input', /4096/);
      await bad(() => c.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'x', stream: true } as never), 'stream', /not supported/);
      expect(mock.requests).to.have.length(0);
    });

    it('forms: a missing file, a file sent as text, bad numbers and enums are named', async () => {
      const c = client(target());
      await bad(() => c.audio.transcriptions.create({ model: 'whisper-1' } as never), 'file', /file.*required/);
      await bad(async () => c.audio.transcriptions.create({ file: await audioFile() } as never), 'model', /model.*required/);
      await bad(async () => c.audio.transcriptions.create({ model: 'whisper-1', file: await audioFile(), temperature: 3 }), 'temperature', /<= 1/);
      await bad(async () => c.audio.transcriptions.create({ model: 'whisper-1', file: await audioFile(), response_format: 'mp3' as never }), 'response_format', /must be one of/);
      await bad(async () => c.audio.translations.create({ model: 'whisper-1', file: await audioFile(), stream: true } as never), 'stream', /not supported/);
      await bad(async () => c.images.edit({ image: await audioFile(), prompt: '' }), 'prompt', /prompt/);

      const asText = new FormData();
      asText.set('model', 'whisper-1');
      asText.set('file', 'not a file');
      const reply = await postForm('/v1/audio/transcriptions', asText);
      expect(reply.status).to.equal(400);
      expect(((await reply.json()) as { error: { param: string; message: string } }).error).to.deep.include({ param: 'file' });

      const empty = new FormData();
      empty.set('model', 'whisper-1');
      empty.set('file', new Blob([]), 'empty.wav');
      const emptyReply = await postForm('/v1/audio/transcriptions', empty);
      expect(emptyReply.status).to.equal(400);
      expect(((await emptyReply.json()) as { error: { message: string } }).error.message).to.contain('empty');
      expect(mock.requests).to.have.length(0);
    });

    it('a form route given JSON answers 415; a broken form 400', async () => {
      const json = await fetch(`${gw.url}/v1/audio/transcriptions`, {
        method: 'POST', body: JSON.stringify({ model: 'whisper-1' }),
        headers: { 'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify(target()) },
      });
      expect(json.status).to.equal(415);
      expect(((await json.json()) as { error: { message: string } }).error.message).to.contain('multipart/form-data');
      const broken = await fetch(`${gw.url}/v1/audio/transcriptions`, {
        method: 'POST', body: '--x\r\ncontent-disposition: form-data; name="model"\r\n\r\nwhisper-1',
        headers: { 'content-type': 'multipart/form-data; boundary=x', 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify(target()) },
      });
      expect(broken.status).to.equal(400);
      expect(mock.requests).to.have.length(0);
    });

    it('an unauthenticated form is refused before it is read', async () => {
      const form = new FormData();
      form.set('model', 'whisper-1');
      form.set('file', new Blob([AUDIO]), 'a.wav');
      const reply = await fetch(`${gw.url}/v1/audio/transcriptions`, { method: 'POST', body: form, headers: { 'x-gw-api-key': 'wrong' } });
      expect(reply.status).to.equal(401);
    });
  });
});

describe('feature.media: forms over the body limit', () => {
  let mock: MockOpenAI;
  let gw: TestGateway;
  const LIMIT = 64 * 1024;

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startGateway({ env: { GW_BODY_LIMIT: String(LIMIT) } });
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });

  const client = () => new OpenAI({
    apiKey: 'sk-unused', baseURL: `${gw.url}/v1`, maxRetries: 0,
    defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify({ provider: 'openai', api_key: 'sk', custom_host: `${mock.url}/v1` }) },
  });

  it('answers 413 for an upload over the limit, and nothing reaches the provider', async () => {
    const big = await toFile(Buffer.alloc(LIMIT + 1024, 0x61), 'big.wav', { type: 'audio/wav' });
    try {
      await client().audio.transcriptions.create({ model: 'whisper-1', file: big });
      expect.fail('expected 413');
    } catch (e) {
      expect(e).to.be.instanceOf(OpenAI.APIError);
      expect((e as InstanceType<typeof OpenAI.APIError>).status).to.equal(413);
      expect((e as InstanceType<typeof OpenAI.APIError>).code).to.equal('payload_too_large');
    }
    expect(mock.requests).to.have.length(0);
  });

  it('answers 413 for a chunked upload (no content-length) over the limit', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const enc = new TextEncoder();
        controller.enqueue(enc.encode('--b\r\ncontent-disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n--b\r\ncontent-disposition: form-data; name="file"; filename="a.wav"\r\ncontent-type: audio/wav\r\n\r\n'));
        for (let i = 0; i < 10; i++) controller.enqueue(new Uint8Array(16 * 1024).fill(0x61));
        controller.enqueue(enc.encode('\r\n--b--\r\n'));
        controller.close();
      },
    });
    const reply = await fetch(`${gw.url}/v1/audio/transcriptions`, {
      method: 'POST', body, duplex: 'half',
      headers: { 'content-type': 'multipart/form-data; boundary=b', 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify({ provider: 'openai', api_key: 'sk', custom_host: `${mock.url}/v1` }) },
    } as RequestInit);
    expect(reply.status).to.equal(413);
    expect(mock.requests).to.have.length(0);
  });

  it('a form within the limit still passes', async () => {
    const res = await client().audio.transcriptions.create({ model: 'whisper-1', file: await toFile(Buffer.from('small'), 's.wav') });
    expect(res.text).to.contain('s.wav (5 bytes)');
  });
});
