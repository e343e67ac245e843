/**
 * Set-up of the MCP gateway tests: a gateway with the registry and the endpoint (the default preset,
 * callers named freely through `x-test-principal` as in the registry's tests), servers registered
 * through the registry's real HTTP API, and the official SDK client pointed at the gateway.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import type { PluginEntry } from '../../../../core/index.js';
import { TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { call, startRegistry, type ControlState } from '../mcp-servers/harness.js';

export { as, call, controlState } from '../mcp-servers/harness.js';

export interface McpGatewayOptions {
  /** Options of agents.mcp-gateway. */
  options?: Record<string, unknown>;
  plugins?: PluginEntry[];
  state?: ControlState;
  env?: Record<string, string>;
}

export function startMcpGateway(o: McpGatewayOptions = {}): Promise<TestGateway> {
  const plugins: PluginEntry[] = [...(o.plugins ?? [])];
  if (o.options) plugins.push({ use: 'agents.mcp-gateway', options: o.options });
  return startRegistry({ plugins, state: o.state, env: o.env });
}

/** Registers a server through POST /v1/mcp-servers (as the bootstrap owner unless headers say otherwise). */
export async function registerServer(gw: TestGateway, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<{ id: string; slug: string }> {
  const created = await call(gw, 'POST', '/v1/mcp-servers', body, headers);
  expect(created.status, created.text).to.equal(200);
  return created.json;
}

export interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
}

/** The official client, initialised against `/v1/mcp/<ref>`, authenticating with `Authorization: Bearer <gateway key>`. */
export async function connect(gw: TestGateway, ref: string, headers: Record<string, string> = {}): Promise<Connected> {
  const transport = new StreamableHTTPClientTransport(new URL(`${gw.url}/v1/mcp/${ref}`), {
    requestInit: { headers: { authorization: `Bearer ${TEST_API_KEY}`, ...headers } },
  });
  const client = new Client({ name: 'gw-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** A raw MCP POST (for what the SDK would never send). */
export async function rawPost(gw: TestGateway, ref: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; text: string; json: any }> {
  const res = await fetch(`${gw.url}/v1/mcp/${ref}`, {
    method: 'POST',
    headers: { 'x-gw-api-key': TEST_API_KEY, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export const INITIALIZE = (version = '2025-06-18') => JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** The text of a tools/call result's first content item. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content[0]?.text ?? '';
}
