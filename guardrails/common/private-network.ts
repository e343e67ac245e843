/**
 * Refuses to fetch URLs that point into private networks (loopback, RFC 1918, link-local such as
 * cloud metadata at 169.254.169.254, unique-local IPv6): URLs found in prompts and answers come
 * from users and models, and the gateway must not become a way into its own network.
 * Best effort: the name is resolved here and again when connecting (where the outbound host
 * policy judges the address actually used). Used by the URL guardrails.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPrivateAddress } from '../../core/index.js';

export async function pointsToPrivateNetwork(hostname: string): Promise<boolean> {
  // URL hostnames keep IPv6 addresses in brackets.
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (isIP(host)) return isPrivateAddress(host);
  const addresses = await lookup(host, { all: true });
  return addresses.some((a) => isPrivateAddress(a.address));
}
