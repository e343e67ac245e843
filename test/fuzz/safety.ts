/**
 * Keeps every fuzzed request on this machine: whatever a mutation did, each provider named is one
 * whose base URL is set, every URL is a loopback one, and no stored credential (integration,
 * virtual key) with a provider's public default host can be reached.
 */
const SAFE_PROVIDERS = ['openai', 'anthropic', 'azure-openai', 'cohere'];
const URL_KEYS = new Set(['custom_host', 'url', 'jwksUri', 'apiEndpoint', 'endpoint_url', 'base_url', 'webhook_url', 'image_url']);
const DROPPED_KEYS = new Set(['virtual_key', 'integration', 'integration_id', 'integration_slug']);
const LOOPBACK_URL = /^https?:\/\/(127\.\d+\.\d+\.\d+|\[::1\]|localhost)(:\d+)?(\/|$)/;

export function isLoopbackUrl(value: unknown): boolean {
  return typeof value === 'string' && LOOPBACK_URL.test(value);
}

/**
 * Makes a JSON value safe to send, in place, walking it without recursion. `hosts` are the
 * loopback base URLs a provider field may point at (the mock provider, a closed port).
 */
export function keepLocal(value: unknown, hosts: readonly string[], pick: (items: readonly string[]) => string): unknown {
  if (value === null || typeof value !== 'object') return value;
  const stack: object[] = [value];
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown>;
    for (const key of Object.keys(node)) {
      const v = node[key];
      if (DROPPED_KEYS.has(key) || /^(cloud[A-C]|vendorD)_/.test(key)) delete node[key];
      else if (URL_KEYS.has(key) && typeof v === 'string' && !isLoopbackUrl(v)) node[key] = pick(hosts);
      else if (typeof v === 'string' && v.includes('://') && !isLoopbackUrl(v)) node[key] = pick(hosts);
      else if (v !== null && typeof v === 'object') stack.push(v);
    }
    if (!Array.isArray(node) && 'provider' in node) {
      if (typeof node['provider'] !== 'string' || !SAFE_PROVIDERS.includes(node['provider'])) node['provider'] = pick(SAFE_PROVIDERS);
      if (!isLoopbackUrl(node['custom_host'])) node['custom_host'] = pick(hosts);
    }
  }
  return value;
}

/** Header values as fetch accepts them: printable latin-1, trimmed. */
export function headerValue(value: string): string {
  return value.replace(/[^\t\x20-\x7e\xa0-\xff]/g, '').trim();
}
