/**
 * Set-up of the agent-server tests: a gateway (default preset, control plane stood in for by a test
 * header naming the caller, as in the integrations tests) with agents.agent-servers configured,
 * official @a2a-js/sdk clients pointed at the gateway, and small request helpers.
 */
import {
  ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, type Client,
} from '@a2a-js/sdk/client';
import { Role, type Message, type SendMessageRequest } from '@a2a-js/sdk';
import { randomUUID } from 'node:crypto';
import type { PluginEntry, Principal } from '../../../../core/index.js';
import { startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { SECRET_KEY, TestPrincipal } from '../../admin/integrations/harness.js';

export { as, call } from '../../admin/integrations/harness.js';

export interface AgentGatewayOptions {
  options?: Record<string, unknown>;
  env?: Record<string, string>;
  plugins?: PluginEntry[];
  dataDir?: string;
}

export function startAgentGateway(o: AgentGatewayOptions = {}): Promise<TestGateway> {
  return startGateway({
    composition: {
      plugins: [TestPrincipal, { use: 'agents.agent-servers', options: { reloadIntervalMs: 0, ...o.options } }, ...(o.plugins ?? [])],
      disable: ['admin.workspaces', 'admin.api-keys'],
    },
    env: { GW_SECRET_KEY: SECRET_KEY, ...o.env },
    settings: o.dataDir ? { dataDir: o.dataDir } : undefined,
  });
}

/** A fetch that adds `headers` to every request (how a client sends its gateway key). */
export function fetchWith(headers: Record<string, string>): typeof fetch {
  return (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) merged.set(name, value);
    return fetch(input, { ...init, headers: merged });
  };
}

export const KEY_HEADERS = { 'x-gw-api-key': TEST_API_KEY };

/** An official A2A client built from the gateway's rewritten card, sending `headers` on every call. */
export async function agentClient(gw: TestGateway, serverId: string, headers: Record<string, string> = KEY_HEADERS): Promise<Client> {
  const fetchImpl = fetchWith(headers);
  const factory = new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  });
  return factory.createFromUrl(`${gw.url}/v1/agent-servers/${serverId}/agent-card`, '');
}

export function userMessage(text: string): Message {
  return {
    messageId: randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER, metadata: undefined, extensions: [], referenceTaskIds: [],
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
  };
}

export function sendRequest(text: string): SendMessageRequest {
  return { tenant: '', message: userMessage(text), configuration: undefined, metadata: undefined };
}

/** The text of a message's first text part. */
export function textOf(message: Message | undefined): string | undefined {
  const part = message?.parts.find((p) => p.content?.$case === 'text');
  return part?.content?.$case === 'text' ? part.content.value : undefined;
}

/** A caller of organisation `default` with exactly these scopes (and workspace, when given). */
export function caller(scopes: string[], extra: Partial<Principal> = {}): Partial<Principal> {
  return { keyId: `k-${scopes.join('-') || 'none'}`, type: extra.workspaceId ? 'workspace-service' : 'organisation-service', scopes, ...extra };
}
