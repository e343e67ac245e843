/**
 * Guardrails on streams: input guardrails before the stream starts; output guardrails either hold
 * the stream (a blocking hook: checked before any byte is sent) or let it pass and log the verdict.
 */
import { expect } from 'chai';
import { APIError } from 'openai';
import type { GuardrailRecord } from '../../../../core/index.js';
import GuardrailsRunnerPlugin from '../../../../plugins/guardrails/runner/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { configHeaders, startGateway, type TestGateway } from '../../../helpers/gateway.js';
import { chat, closeAll, eventually, leaf, recordsObserver, sdkClient, send, sseData, startGuardedGateway, TestChecks } from './harness.js';

/** Streams a request; times the first body byte and the end. */
async function timedStream(gw: TestGateway, config: unknown, body: unknown) {
  const started = performance.now();
  const res = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: configHeaders(config), body: JSON.stringify(body) });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let firstByteMs: number | undefined;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    firstByteMs ??= performance.now() - started;
    text += decoder.decode(value, { stream: true });
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text, firstByteMs: firstByteMs ?? 0, totalMs: performance.now() - started };
}

function streamedContent(text: string): string {
  return sseData(text).filter((d) => d !== '[DONE]').map((d) => JSON.parse(d).choices?.[0]?.delta?.content ?? '').join('');
}

const CHUNK_DELAY_MS = 40;

describe('guardrails.runner: streams', () => {
  let gw: TestGateway;
  let mocks: MockOpenAI[];
  const records: GuardrailRecord[][] = [];
  const noEcho = (deny: boolean) => ({ id: 'no-echo', deny, 'test.forbid': { word: 'echo' } });
  const stream = (text: string) => chat(text, { stream: true });

  before(async () => {
    gw = await startGuardedGateway({ plugins: [recordsObserver(records)] });
    mocks = await Promise.all([startMockOpenAI({ streamChunkDelayMs: CHUNK_DELAY_MS }), startMockOpenAI()]);
  });
  afterEach(() => {
    mocks.forEach((m) => m.reset());
    records.length = 0;
  });
  after(async () => {
    await closeAll(mocks);
    await gw.stop();
  });

  describe('input guardrails', () => {
    it('deny with a 446 JSON answer before any stream starts', async () => {
      const res = await send(gw, leaf(mocks[1]!, { input_guardrails: [{ id: 'no-secret', deny: true, 'test.forbid': { word: 'secret' } }] }), stream('the secret'));
      expect(res.status).to.equal(446);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      expect(res.json.hook_results.before_request_hooks[0].id).to.equal('no-secret');
      expect(mocks[1]!.requests).to.have.length(0);
    });

    it('a failure without deny streams the answer with status 246 (no hook_results in the stream)', async () => {
      const res = await send(gw, leaf(mocks[1]!, { input_guardrails: [{ id: 'no-secret', 'test.forbid': { word: 'secret' } }] }), stream('the secret'));
      expect(res.status).to.equal(246);
      expect(streamedContent(res.text)).to.equal('echo: the secret');
      expect(res.text).to.not.contain('hook_results');
      expect(records[0]!.map((r) => r.result.verdict)).to.deep.equal([false]);
    });
  });

  describe('with a blocking output guardrail the stream is held', () => {
    it('releases a stream that passes, unchanged, only after it was checked whole', async () => {
      const config = leaf(mocks[0]!, { output_guardrails: [{ id: 'no-secret', deny: true, 'test.forbid': { word: 'secret' } }] });
      const res = await timedStream(gw, config, stream('one two three four'));
      expect(res.status).to.equal(200);
      expect(res.contentType).to.match(/^text\/event-stream/);
      expect(streamedContent(res.text)).to.equal('echo: one two three four');
      expect(sseData(res.text).at(-1)).to.equal('[DONE]');
      // Held: nothing is sent before the provider finished (7 events, 40 ms apart).
      expect(res.firstByteMs).to.be.above(5 * CHUNK_DELAY_MS);
      expect(res.totalMs - res.firstByteMs).to.be.below(2 * CHUNK_DELAY_MS);
    });

    it('the OpenAI SDK parses a released stream', async () => {
      const client = await sdkClient(gw, leaf(mocks[1]!, { output_guardrails: [{ id: 'no-secret', deny: true, 'test.forbid': { word: 'secret' } }] }));
      const s = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi there' }], stream: true });
      let text = '';
      let finish: string | null | undefined;
      for await (const chunk of s) {
        text += chunk.choices[0]?.delta?.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
      expect(text).to.equal('echo: hi there');
      expect(finish).to.equal('stop');
    });

    it('turns a failing stream into a 446 JSON answer before any byte, which the SDK raises', async () => {
      const config = leaf(mocks[1]!, { output_guardrails: [noEcho(true)] });
      const res = await send(gw, config, stream('hello'));
      expect(res.status).to.equal(446);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      expect(res.json.hook_results.after_request_hooks[0]).to.include({ id: 'no-echo', verdict: false });
      expect(res.text).to.not.contain('chat.completion.chunk');
      const client = await sdkClient(gw, config);
      const error = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }], stream: true }).then(() => undefined, (e: unknown) => e);
      expect(error).to.be.instanceOf(APIError);
      expect((error as APIError).status).to.equal(446);
    });

    it('replays a redacted stream, which the SDK reads as the redacted text', async () => {
      const config = leaf(mocks[1]!, {
        output_guardrails: [{ id: 'mask', 'test.redact': { word: 'Falcon', replacement: '[project]' } }, { id: 'no-secret', deny: true, 'test.forbid': { word: 'secret' } }],
      });
      const client = await sdkClient(gw, config);
      const s = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Falcon launches Falcon soon' }], stream: true });
      let text = '';
      let chunks = 0;
      for await (const chunk of s) {
        chunks++;
        text += chunk.choices[0]?.delta?.content ?? '';
      }
      expect(text).to.equal('echo: [project] launches [project] soon');
      expect(chunks).to.be.above(2);
    });

    it('answers 246 (still a stream) when a non-blocking guardrail fails next to a blocking one that passes', async () => {
      const config = leaf(mocks[1]!, { output_guardrails: [{ id: 'no-secret', deny: true, 'test.forbid': { word: 'secret' } }, noEcho(false)] });
      const res = await send(gw, config, stream('hello'));
      expect(res.status).to.equal(246);
      expect(streamedContent(res.text)).to.equal('echo: hello');
    });

    it('after_request_hooks with deny hold the stream too', async () => {
      const config = leaf(mocks[1]!, { after_request_hooks: [{ id: 'short', deny: true, checks: [{ id: 'test.maxWords', parameters: { max: 2 } }] }] });
      expect((await send(gw, config, stream('hi'))).status).to.equal(200);
      expect((await send(gw, config, stream('one two three'))).status).to.equal(446);
    });

    it('falls back to the next target when the held stream is denied', async () => {
      const config = { strategy: { mode: 'fallback' }, targets: [leaf(mocks[1]!, { output_guardrails: [noEcho(true)] }), leaf(mocks[1]!)] };
      const res = await send(gw, config, stream('hello'));
      expect(res.status).to.equal(200);
      expect(res.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[1]');
      expect(streamedContent(res.text)).to.equal('echo: hello');
    });

    it('a provider stream that breaks while held becomes a 502 before any byte (and can fall back)', async () => {
      mocks[1]!.next({ streamCutAfter: 2 });
      const single = await send(gw, leaf(mocks[1]!, { output_guardrails: [noEcho(true)] }), stream('hello'));
      expect(single.status).to.equal(502);
      expect(single.json.error.code).to.equal('bad_gateway');
      mocks[1]!.next({ streamCutAfter: 2 });
      const config = { strategy: { mode: 'fallback' }, output_guardrails: [{ id: 'x', deny: true, 'test.forbid': { word: 'zzz' } }], targets: [leaf(mocks[1]!), leaf(mocks[1]!)] };
      const fellBack = await send(gw, config, stream('hello'));
      expect(fellBack.status).to.equal(200);
      expect(streamedContent(fellBack.text)).to.equal('echo: hello');
    });
  });

  describe('without a blocking output guardrail the stream passes', () => {
    it('streams chunk by chunk, then computes the verdict for the logs (not sent)', async () => {
      const config = leaf(mocks[0]!, { output_guardrails: [noEcho(false)] });
      const res = await timedStream(gw, config, stream('one two three four'));
      expect(res.status).to.equal(200);
      expect(streamedContent(res.text)).to.equal('echo: one two three four');
      expect(res.text).to.not.contain('hook_results');
      // Not held: the first byte comes long before the end.
      expect(res.totalMs - res.firstByteMs).to.be.above(3 * CHUNK_DELAY_MS);
      const list = records[0]!;
      await eventually(() => list.length === 1);
      expect(list[0]).to.deep.include({ array: 'output_guardrails', inResponse: false });
      expect(list[0]!.result).to.include({ id: 'no-echo', verdict: false });
      expect(list[0]!.result.checks[0]!.data).to.deep.equal({ word: 'echo', found: true });
    });
  });

  describe('a stream longer than maxHeldStreamBytes', () => {
    let small: TestGateway;
    before(async () => {
      small = await startGateway({ plugins: [{ use: GuardrailsRunnerPlugin, options: { maxHeldStreamBytes: 2048 } }, TestChecks] });
    });
    after(() => small.stop());

    it('is denied unchecked (446) rather than released unchecked', async () => {
      const long = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
      const res = await send(small, leaf(mocks[1]!, { output_guardrails: [noEcho(true)] }), stream(long));
      expect(res.status).to.equal(446);
      expect(res.json.hook_results.after_request_hooks[0].checks[0].error.message).to.contain('maxHeldStreamBytes (2048)');
      const short = await send(small, leaf(mocks[1]!, { output_guardrails: [{ id: 'x', deny: true, 'test.forbid': { word: 'zzz' } }] }), stream('hi'));
      expect(short.status).to.equal(200);
    });
  });
});
