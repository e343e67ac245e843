/**
 * Starts a real gateway (createGateway + serve on a loopback port) with a fresh data folder,
 * for end-to-end tests. Plugins given are added to the default preset (or replace the preset
 * plugin with the same id).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway, serve, type Gateway, type GatewaySettings, type Logger, type PluginEntry, type ServeOptions } from '../../host/index.js';
import type { Composition } from '../../host/compose.js';
import type { MockOpenAI } from '../fixtures/mock-openai.js';
import { onPostgres, schemaOfDataDir, type TestSchema } from './pg-schema.js';

export const TEST_API_KEY = 'gw-test-key';

export interface TestGateway {
  url: string;
  gateway: Gateway;
  dataDir: string;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Added to the default preset. */
  plugins?: PluginEntry[];
  /** Replaces the default composition entirely. */
  composition?: Composition;
  settings?: Partial<GatewaySettings>;
  env?: Record<string, string>;
  /** Connection limits of the server (defaults otherwise). */
  serve?: Partial<ServeOptions>;
  /** Where the gateway logs (none by default). */
  logger?: Logger;
}

export async function startGateway(options: StartOptions = {}): Promise<TestGateway> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gw-test-'));
  // On the PostgreSQL pass, a gateway given no database gets the schema of its data folder: its own
  // (dropped when it stops), or the one of a folder the test shares between gateways.
  const sharedDir = options.settings?.dataDir ?? options.env?.['GW_DATA_DIR'];
  const schema = onPostgres() && !options.env?.['GW_DATABASE_URL'] && !options.settings?.databaseUrl
    ? await schemaOfDataDir(sharedDir ?? dataDir)
    : undefined;
  const ownSchema = sharedDir === undefined ? schema : undefined;
  let gateway: Gateway;
  try {
    gateway = await createGateway({
      composition: onPostgres() ? onPostgresStore(options.composition ?? { plugins: options.plugins ?? [] }) : options.composition ?? { plugins: options.plugins ?? [] },
      env: { GW_DATA_DIR: dataDir, GW_BOOTSTRAP_API_KEY: TEST_API_KEY, GW_LOG_LEVEL: 'silent', ...schemaEnv(schema), ...options.env },
      settings: options.settings,
      logger: options.logger,
    });
  } catch (e) {
    await cleanUp(dataDir, ownSchema);
    throw e;
  }
  const running = await serve(gateway, { port: 0, host: '127.0.0.1', shutdownTimeoutMs: 2000, ...options.serve });
  return {
    url: running.url,
    gateway,
    dataDir,
    stop: async () => {
      await running.stop();
      await cleanUp(dataDir, ownSchema);
    },
  };
}

function schemaEnv(schema: TestSchema | undefined): Record<string, string> {
  return schema ? { GW_DATABASE_URL: schema.url } : {};
}

/** A composition naming the SQLite store explicitly names the PostgreSQL one instead. */
function onPostgresStore(composition: Composition): Composition {
  const swap = (entry: PluginEntry): PluginEntry => {
    if (entry === 'store.sqlite') return 'store.postgres';
    if (typeof entry === 'object' && entry.use === 'store.sqlite') return { use: 'store.postgres' };
    return entry;
  };
  return { ...composition, plugins: composition.plugins?.map(swap) };
}

async function cleanUp(dataDir: string, schema: TestSchema | undefined): Promise<void> {
  await rm(dataDir, { recursive: true, force: true });
  await schema?.drop();
}

/** Direct-mode headers pointing the gateway at a mock OpenAI provider. */
export function directHeaders(mock: MockOpenAI, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-gw-api-key': TEST_API_KEY,
    'x-gw-provider': 'openai',
    authorization: 'Bearer sk-test',
    'x-gw-custom-host': `${mock.url}/v1`,
    ...extra,
  };
}

/** Config-mode headers: the gateway key and a config object. */
export function configHeaders(config: unknown, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-gw-api-key': TEST_API_KEY,
    'x-gw-config': JSON.stringify(config),
    ...extra,
  };
}

export interface JsonReply {
  status: number;
  headers: Headers;
  json: any;
  text: string;
}

/** A fetch answer with its text and, when the text is JSON, the parsed body. */
export async function jsonReply(res: Response): Promise<JsonReply> {
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

/** A request with the test key; a body is sent as JSON. */
export async function call(gw: { url: string }, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<JsonReply> {
  const res = await fetch(gw.url + path, {
    method,
    headers: { 'x-gw-api-key': TEST_API_KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return jsonReply(res);
}

export async function postJson(base: string, path: string, body: unknown, headers: Record<string, string>): Promise<JsonReply> {
  const res = await fetch(base + path, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return jsonReply(res);
}

export const CHAT_BODY = Object.freeze({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
