/** Shared set-up of the strategy tests: the three strategy plugins, mock providers, config leaves. */
import type OpenAI from 'openai';
import ConditionalStrategyPlugin from '../../../../plugins/strategies/conditional/index.js';
import FallbackStrategyPlugin from '../../../../plugins/strategies/fallback/index.js';
import LoadbalanceStrategyPlugin from '../../../../plugins/strategies/loadbalance/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, configHeaders, postJson, type JsonReply, type TestGateway } from '../../../helpers/gateway.js';

export const STRATEGY_PLUGINS = [LoadbalanceStrategyPlugin, FallbackStrategyPlugin, ConditionalStrategyPlugin];

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

export interface SendOptions {
  body?: unknown;
  path?: string;
  metadata?: Record<string, string>;
  headers?: Record<string, string>;
}

/** One config-mode request (chat completions unless told). */
export function send(gw: TestGateway, config: unknown, options: SendOptions = {}): Promise<JsonReply> {
  const extra: Record<string, string> = { ...options.headers };
  if (options.metadata) extra['x-gw-metadata'] = JSON.stringify(options.metadata);
  return postJson(gw.url, options.path ?? '/v1/chat/completions', options.body ?? CHAT_BODY, configHeaders(config, extra));
}

export const STREAM_BODY = Object.freeze({ ...CHAT_BODY, stream: true });

/** The data payloads of a server-sent-event body, in order. */
export function sseData(text: string): string[] {
  return text.split('\n\n').filter((e) => e.startsWith('data: ')).map((e) => e.slice('data: '.length));
}

/** How many requests each mock received. */
export function counts(mocks: readonly MockOpenAI[]): number[] {
  return mocks.map((m) => m.requests.length);
}

/** A deterministic stand-in for Math.random (mulberry32), so distribution tests never flake. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An official OpenAI client speaking to the gateway in config mode. */
export async function sdkClient(gw: TestGateway, config: unknown, headers: Record<string, string> = {}): Promise<OpenAI> {
  const { default: OpenAIClass } = await import('openai');
  const { 'content-type': _ct, ...rest } = configHeaders(config, headers);
  return new OpenAIClass({ apiKey: 'sk-x', baseURL: `${gw.url}/v1`, defaultHeaders: rest, maxRetries: 0 });
}
