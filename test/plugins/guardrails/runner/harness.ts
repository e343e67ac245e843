/**
 * Shared set-up of the guardrail runner tests: small test checks (registered by a plugin made with
 * defineGuardrailPlugin, as an organisation would), a gateway with the runner, mock providers,
 * config leaves, and an observer of the guardrail records kept in ctx.values.
 */
import type OpenAI from 'openai';
import {
  defineCheck, defineGuardrailPlugin, GuardrailResultsKey, Stage, Type,
  type GuardrailRecord, type Plugin, type PluginApi,
} from '../../../../core/index.js';
import GuardrailsRunnerPlugin from '../../../../plugins/guardrails/runner/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, configHeaders, postJson, startGateway, type JsonReply, type TestGateway } from '../../../helpers/gateway.js';

const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve) => {
  const t = setTimeout(resolve, ms);
  signal?.addEventListener('abort', () => {
    clearTimeout(t);
    resolve();
  }, { once: true });
});

/** What the test checks saw, for assertions (calls in order, and aborted signals). */
export const seen = {
  calls: [] as { id: string; phase: string; text: string; metadata: Record<string, string> }[],
  aborted: [] as string[],
  reset() {
    this.calls.length = 0;
    this.aborted.length = 0;
  },
};

const textOf = (input: { response?: { text: string }; request: { text: string } }) => input.response ? input.response.text : input.request.text;

/** Fails when the phase's text contains `word`. */
export const forbid = defineCheck({
  id: 'test.forbid',
  params: Type.Object({ word: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
  check(input, params) {
    const text = textOf(input);
    seen.calls.push({ id: 'test.forbid', phase: input.phase, text, metadata: { ...input.metadata } });
    const found = text.includes(params.word);
    return { verdict: !found, data: { word: params.word, found } };
  },
});

/** Waits `ms` (stops early when its signal aborts), then answers `verdict`. */
export const slow = defineCheck({
  id: 'test.slow',
  params: Type.Object({ ms: Type.Integer({ minimum: 0 }), verdict: Type.Boolean({ default: true }), label: Type.String({ default: 'slow' }) }),
  async check(input, params) {
    seen.calls.push({ id: 'test.slow', phase: input.phase, text: textOf(input), metadata: { ...input.metadata } });
    const signal = input.signal;
    await sleep(params.ms, signal);
    if (signal.aborted) seen.aborted.push(params.label);
    return { verdict: params.verdict, data: { slept: params.ms, label: params.label } };
  },
});

/** Throws (synchronously or from a promise). */
export const broken = defineCheck({
  id: 'test.broken',
  params: Type.Object({ async: Type.Boolean({ default: false }) }),
  check(_input, params) {
    if (params.async) return Promise.reject(new Error('check service down'));
    throw new Error('check exploded');
  },
});

/** Never answers (until its signal aborts). */
export const hang = defineCheck({
  id: 'test.hang',
  params: Type.Object({ timeout: Type.Optional(Type.Integer({ minimum: 1 })), failOnError: Type.Optional(Type.Boolean()) }),
  check(input) {
    return new Promise(() => {
      input.signal.addEventListener('abort', () => seen.aborted.push('hang'), { once: true });
    });
  },
});

/** Replaces `word` by `replacement` (a redaction); always passes. */
export const redact = defineCheck({
  id: 'test.redact',
  params: Type.Object({ word: Type.String({ minLength: 1 }), replacement: Type.String({ default: '[REDACTED]' }) }),
  check(input, params) {
    const text = textOf(input);
    const transformedText = text.split(params.word).join(params.replacement);
    return { verdict: true, data: { redacted: transformedText !== text }, transformedText };
  },
});

/** At most `max` words; its own rule: `max` must be even (to test `validate`). */
export const maxWords = defineCheck({
  id: 'test.maxWords',
  params: Type.Object({ max: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
  validate(params) {
    return params.max % 2 === 0 ? [] : [{ path: 'max', rule: 'must be even' }];
  },
  check(input, params) {
    const words = textOf(input).split(/\s+/).filter(Boolean).length;
    return { verdict: words <= params.max, data: { words, max: params.max } };
  },
});

/** Request phases only: passes when the metadata has `key`. */
export const requireMeta = defineCheck({
  id: 'test.requireMeta',
  params: Type.Object({ key: Type.String() }),
  phases: ['beforeRequest', 'input'],
  check(input, params) {
    return { verdict: params.key in input.metadata, data: { key: params.key } };
  },
});

/** Answer phases: passes when the answer's JSON (not its text) names `model`; reads it directly and from a copy. */
export const answerModel = defineCheck({
  id: 'test.answerModel',
  params: Type.Object({ model: Type.String() }),
  phases: ['output', 'afterRequest'],
  check(input, params) {
    const direct = (input.response?.json as { model?: unknown } | undefined)?.model;
    const copied = (JSON.parse(JSON.stringify(input.response)) as { json?: { model?: unknown } }).json?.model;
    return { verdict: direct === params.model, data: { direct: String(direct), copied: String(copied) } };
  },
});

export const TestChecks = defineGuardrailPlugin({
  id: 'test.guardrail-checks',
  checks: [forbid, slow, broken, hang, redact, maxWords, requireMeta, answerModel],
});

/** Keeps each request's guardrail records (the array in ctx.values, which detached hooks fill later). */
export function recordsObserver(into: GuardrailRecord[][]) {
  return class RecordsObserver implements Plugin {
    static readonly manifest = { id: 'test.guardrail-records', description: 'collects the guardrail records of ctx.values' };
    apply(api: PluginApi): void {
      api.hooks.respond.tap({ name: api.id, stage: Stage.OBSERVE }, (response, ctx) => {
        let list = ctx.values.get(GuardrailResultsKey);
        if (!list) ctx.values.set(GuardrailResultsKey, (list = []));
        into.push(list);
        return response;
      });
    }
  };
}

export async function startGuardedGateway(extra: Parameters<typeof startGateway>[0] = {}): Promise<TestGateway> {
  return startGateway({ ...extra, plugins: [GuardrailsRunnerPlugin, TestChecks, ...(extra.plugins ?? [])] });
}

export async function startMocks(count: number): Promise<MockOpenAI[]> {
  return Promise.all(Array.from({ length: count }, () => startMockOpenAI()));
}

export async function closeAll(mocks: readonly MockOpenAI[]): Promise<void> {
  await Promise.all(mocks.map((m) => m.close()));
}

/** A complete target pointing at a mock. */
export function leaf(mock: MockOpenAI, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1`, ...extra };
}

/** A chat body whose last user message is `text` (the mock answers `echo: <text>`). */
export function chat(text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...CHAT_BODY, messages: [{ role: 'user', content: text }], ...extra };
}

export function send(gw: TestGateway, config: unknown, body: unknown = CHAT_BODY, headers: Record<string, string> = {}): Promise<JsonReply> {
  return postJson(gw.url, '/v1/chat/completions', body, configHeaders(config, headers));
}

/** The data payloads of a server-sent-event body, in order. */
export function sseData(text: string): string[] {
  return text.split('\n\n').filter((e) => e.startsWith('data: ')).map((e) => e.slice('data: '.length));
}

/** An official OpenAI client speaking to the gateway in config mode. */
export async function sdkClient(gw: TestGateway, config: unknown, headers: Record<string, string> = {}): Promise<OpenAI> {
  const { default: OpenAIClass } = await import('openai');
  const { 'content-type': _ct, ...rest } = configHeaders(config, headers);
  return new OpenAIClass({ apiKey: 'sk-x', baseURL: `${gw.url}/v1`, defaultHeaders: rest, maxRetries: 0 });
}

/** Polls until `probe` is true (for results that arrive after the answer). */
export async function eventually(probe: () => boolean, timeoutMs = 2000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
