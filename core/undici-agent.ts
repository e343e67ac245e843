/** The undici Agent of the shared transport (imported on first use by transport.ts). */
import { Agent } from 'undici';
import { policyConnector } from './outbound-connector.js';
import { OutboundPolicy } from './outbound-policy.js';
import type { TransportOptions } from './transport.js';

export function createAgent(options: TransportOptions): Agent {
  return new Agent({
    connections: options.connections ?? 256,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 30_000,
    keepAliveMaxTimeout: 600_000,
    headersTimeout: options.headersTimeoutMs ?? 600_000,
    bodyTimeout: options.bodyTimeoutMs ?? 300_000,
    pipelining: 1,
    connect: policyConnector(options.policy ?? new OutboundPolicy()),
  });
}
