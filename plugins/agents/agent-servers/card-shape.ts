/**
 * What an A2A agent card says about where the agent listens, and the card as the gateway answers
 * it. Both card shapes of the installed @a2a-js/sdk are read:
 *   v0.3: `url` + `preferredTransport` (default JSONRPC), `additionalInterfaces[] {url, transport}`,
 *         `protocolVersion`; `security` + `securitySchemes` with a `type` discriminator;
 *         `supportsAuthenticatedExtendedCard`.
 *   v1.0: `supportedInterfaces[] {url, protocolBinding, protocolVersion, tenant}`;
 *         `securityRequirements` + proto-JSON `securitySchemes`; `capabilities.extendedAgentCard`.
 * (A v1.0 SDK server answering a v0.3 client sends the v0.3 shape with `supportedInterfaces` too.)
 * Only JSON-RPC interfaces can be proxied: the gateway's endpoint speaks JSON-RPC over HTTP, so
 * gRPC and HTTP+JSON interfaces are left out of the answered card.
 */
import { Errors } from '../../../core/index.js';

export type Card = Record<string, unknown>;

const JSONRPC = 'JSONRPC';
/** The header clients send the gateway key in, advertised as the card's only security scheme. */
const KEY_HEADER = 'x-gw-api-key';
const SCHEME = 'gatewayApiKey';

export interface JsonRpcInterface {
  url: string;
  /** major.minor, e.g. `0.3`, `1.0`. */
  version: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isJsonRpc = (binding: unknown) => typeof binding === 'string' && binding.toUpperCase() === JSONRPC;

/** v0.3 cards have a top-level `url`; v1.0 cards only `supportedInterfaces`. */
export function isLegacyCard(card: Card): boolean {
  return typeof card['url'] === 'string';
}

/** `0.3.0` → `0.3`; undefined for something that is not a version. */
export function majorMinor(version: unknown): string | undefined {
  if (typeof version !== 'string') return undefined;
  const m = /^(\d{1,3})\.(\d{1,3})(?:\.\d{1,3})?$/.exec(version.trim());
  return m ? `${Number(m[1])}.${Number(m[2])}` : undefined;
}

/** Throws a 502 naming the server unless `value` looks like an agent card of either version. */
export function checkCard(value: unknown, slug: string): Card {
  const shaped = isObject(value) && typeof value['name'] === 'string'
    && (typeof value['url'] === 'string' || Array.isArray(value['supportedInterfaces']));
  if (!shaped) {
    throw Errors.badGateway(`agent server "${slug}" answered something that is not an A2A agent card (it needs "name" and "url" or "supportedInterfaces")`, slug);
  }
  return value;
}

/** A 502 naming the server unless the card offers at least one JSON-RPC interface (the only kind proxied). */
export function checkProxiable(card: Card, cardUrl: string, slug: string): Card {
  if (jsonRpcInterfaces(card, cardUrl).length === 0) {
    throw Errors.badGateway(`agent server "${slug}" offers no JSON-RPC interface (only gRPC or HTTP+JSON), which this gateway cannot proxy`, slug);
  }
  return card;
}

/** The agent's JSON-RPC endpoints (absolute, http(s)), with their protocol versions. */
export function jsonRpcInterfaces(card: Card, cardUrl: string): JsonRpcInterface[] {
  const found: JsonRpcInterface[] = [];
  const add = (url: unknown, version: unknown) => {
    if (typeof url !== 'string') return;
    let absolute: URL;
    try {
      absolute = new URL(url, cardUrl);
    } catch {
      return;
    }
    if (absolute.protocol !== 'http:' && absolute.protocol !== 'https:') return;
    const entry = { url: absolute.href, version: majorMinor(version) ?? '0.3' };
    if (!found.some((f) => f.url === entry.url && f.version === entry.version)) found.push(entry);
  };
  if (Array.isArray(card['supportedInterfaces'])) {
    for (const i of card['supportedInterfaces']) if (isObject(i) && isJsonRpc(i['protocolBinding'])) add(i['url'], i['protocolVersion']);
  }
  if (isLegacyCard(card)) {
    if (isJsonRpc(card['preferredTransport'] ?? JSONRPC)) add(card['url'], card['protocolVersion']);
    if (Array.isArray(card['additionalInterfaces'])) {
      for (const i of card['additionalInterfaces']) if (isObject(i) && isJsonRpc(i['transport'])) add(i['url'], card['protocolVersion']);
    }
  }
  return found;
}

/**
 * The endpoint for a call of protocol `requested` (the client's A2A-Version; absent means 0.3):
 * the interface of that version, else the first one.
 */
export function pickInterface(interfaces: readonly JsonRpcInterface[], requested: string | undefined): JsonRpcInterface | undefined {
  const version = majorMinor(requested) ?? '0.3';
  return interfaces.find((i) => i.version === version) ?? interfaces[0];
}

/**
 * The card as the gateway answers it: every JSON-RPC endpoint is `endpoint` (the gateway's own for
 * this agent), other transports are left out; what the gateway does not proxy is switched off
 * (push notifications: the agent would call a client's webhook from outside the gateway's outbound
 * rules; the extended card: it is fetched with the gateway's credentials); the agent's security
 * schemes give way to the gateway key (the gateway authenticates to the agent itself); signatures
 * are dropped (the rewritten card would not verify against them).
 */
export function rewriteCard(card: Card, endpoint: string): Card {
  const out = structuredClone(card);
  const legacy = isLegacyCard(card);
  if (Array.isArray(out['supportedInterfaces'])) {
    const seen = new Set<string>();
    out['supportedInterfaces'] = out['supportedInterfaces']
      .filter((i): i is Record<string, unknown> => isObject(i) && isJsonRpc(i['protocolBinding']))
      .map((i): Record<string, unknown> => ({ ...i, url: endpoint }))
      .filter((i) => {
        const key = `${String(i['protocolVersion'] ?? '')}\n${String(i['tenant'] ?? '')}`;
        return seen.has(key) ? false : (seen.add(key), true);
      });
  }
  if (legacy) {
    out['url'] = endpoint;
    out['preferredTransport'] = JSONRPC;
    if ('additionalInterfaces' in out) out['additionalInterfaces'] = [{ url: endpoint, transport: JSONRPC }];
  }
  const capabilities = out['capabilities'];
  if (isObject(capabilities)) {
    if ('pushNotifications' in capabilities) capabilities['pushNotifications'] = false;
    if ('extendedAgentCard' in capabilities) capabilities['extendedAgentCard'] = false;
  }
  if ('supportsAuthenticatedExtendedCard' in out) out['supportsAuthenticatedExtendedCard'] = false;
  delete out['signatures'];
  gatewaySecurity(out, legacy);
  return out;
}

function gatewaySecurity(card: Card, legacy: boolean): void {
  const description = 'The gateway API key';
  if (legacy) {
    card['securitySchemes'] = { [SCHEME]: { type: 'apiKey', in: 'header', name: KEY_HEADER, description } };
    card['security'] = [{ [SCHEME]: [] }];
    delete card['securityRequirements'];
  } else {
    card['securitySchemes'] = { [SCHEME]: { apiKeySecurityScheme: { location: 'header', name: KEY_HEADER, description } } };
    card['securityRequirements'] = [{ schemes: { [SCHEME]: { list: [] } } }];
    delete card['security'];
  }
  // Skills name the agent's own schemes, which the card no longer has.
  if (Array.isArray(card['skills'])) {
    for (const skill of card['skills']) {
      if (isObject(skill)) {
        delete skill['security'];
        delete skill['securityRequirements'];
      }
    }
  }
}
