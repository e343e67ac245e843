/**
 * The gateway's public base URL, for the absolute endpoint written into agent cards: the option
 * `publicBaseUrl` when set (behind a proxy or a TLS terminator that changes the host), else the
 * request's own scheme and Host.
 */
import { Errors, type GatewayRequest } from '../../../core/index.js';

const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export function publicBase(request: GatewayRequest, configured: string | undefined): string {
  if (configured !== undefined) return configured.replace(/\/+$/, '');
  const host = request.headers['host'];
  if (!host || !HOST.test(host)) {
    throw Errors.invalidHeader('host', 'must be a host name and port, to build the agent endpoint URL (or set the plugin option publicBaseUrl)');
  }
  return `${request.secure === true ? 'https' : 'http'}://${host}`;
}

export function agentEndpoint(base: string, serverId: string): string {
  return `${base}/v1/agents/${encodeURIComponent(serverId)}`;
}
