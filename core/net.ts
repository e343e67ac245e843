/**
 * Refuses to fetch URLs that point into private networks (loopback, RFC 1918, link-local such as
 * cloud metadata at 169.254.169.254, unique-local IPv6): URLs found in prompts and answers come
 * from users and models, and the gateway must not become a way into its own network.
 * Best effort: the name is resolved here and again when connecting. Used by the URL guardrails.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

export async function pointsToPrivateNetwork(hostname: string): Promise<boolean> {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (isIP(host)) return isPrivateAddress(host);
  const addresses = await lookup(host, { all: true });
  return addresses.some((a) => isPrivateAddress(a.address));
}

export function isPrivateAddress(address: string): boolean {
  if (isIP(address) === 4) {
    const [a = 0, b = 0] = address.split('.').map(Number);
    return a === 0 || a === 10 || a === 127 || a >= 224
      || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  const v6 = address.toLowerCase();
  if (v6 === '::' || v6 === '::1') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v6);
  if (mapped) return isPrivateAddress(mapped[1]!);
  return v6.startsWith('fc') || v6.startsWith('fd') || /^fe[89ab]/.test(v6);
}
