/**
 * IP address classification and CIDR ranges, the one place that knows which addresses are
 * loopback, private, link-local or cloud metadata. Used by the outbound host policy (transport)
 * and by the URL guardrails. Matching is node:net's BlockList, which also judges an IPv4-mapped
 * IPv6 address (`::ffff:169.254.169.254`, `::ffff:a9fe:a9fe`) as the IPv4 address it carries.
 */
import { BlockList, isIP } from 'node:net';

export type AddressFamily = 'ipv4' | 'ipv6';

/** A CIDR range as written (`10.0.0.0/8`, `::1/128`; a bare address is a single-address range). */
export class CidrRange {
  readonly #list = new BlockList();

  private constructor(readonly text: string, readonly family: AddressFamily) {}

  /** The range, or a sentence saying why `text` is not one. */
  static parse(text: string): CidrRange | string {
    const slash = text.indexOf('/');
    const address = unbracket(slash === -1 ? text : text.slice(0, slash));
    const version = isIP(address);
    if (version === 0) return `"${address}" is not an IPv4 or IPv6 address`;
    const family: AddressFamily = version === 4 ? 'ipv4' : 'ipv6';
    const max = version === 4 ? 32 : 128;
    const prefixText = slash === -1 ? String(max) : text.slice(slash + 1);
    if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) return `prefix "/${prefixText}" must be a whole number 0..${max}`;
    const range = new CidrRange(text, family);
    range.#list.addSubnet(address, Number(prefixText), family);
    return range;
  }

  /** `address` must be an IP address (see `familyOf`). */
  contains(address: string, family: AddressFamily): boolean {
    return this.#list.check(address, family);
  }
}

/** The family of an IP address, or undefined for anything else (a host name). */
export function familyOf(address: string): AddressFamily | undefined {
  const version = isIP(address);
  return version === 4 ? 'ipv4' : version === 6 ? 'ipv6' : undefined;
}

export function unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

export type AddressClass = 'metadata' | 'loopback' | 'link-local' | 'private' | 'reserved' | 'public';

/** Checked in this order: the first class with a matching range wins (metadata before link-local). */
const CLASS_RANGES: readonly (readonly [AddressClass, readonly string[]])[] = [
  // AWS, GCP, Azure, Oracle (169.254.169.254), AWS over IPv6 (fd00:ec2::254), Alibaba (100.100.100.200).
  ['metadata', ['169.254.169.254/32', 'fd00:ec2::254/128', '100.100.100.200/32']],
  ['loopback', ['127.0.0.0/8', '::1/128']],
  ['link-local', ['169.254.0.0/16', 'fe80::/10']],
  // RFC 1918, carrier-grade NAT (RFC 6598), unique-local IPv6.
  ['private', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7']],
  // "This network", multicast and the reserved block above it, the unspecified and multicast IPv6.
  ['reserved', ['0.0.0.0/8', '224.0.0.0/3', '::/128', 'ff00::/8']],
];

const COMPILED = CLASS_RANGES.map(([name, texts]) => [name, texts.map((t) => CidrRange.parse(t) as CidrRange)] as const);

/** What kind of address `address` is; anything that is not an IP address is 'public' (not ours to judge). */
export function classifyAddress(address: string): AddressClass {
  const bare = unbracket(address);
  // A zone (`fe80::1%eth0`) says which interface, not which address.
  const zone = bare.indexOf('%');
  const host = zone === -1 ? bare : bare.slice(0, zone);
  const family = familyOf(host);
  if (!family) return 'public';
  for (const [name, ranges] of COMPILED) {
    for (const range of ranges) if (range.contains(host, family)) return name;
  }
  return 'public';
}

/** Loopback, private, link-local, metadata or reserved: not a place a URL from a user should lead to. */
export function isPrivateAddress(address: string): boolean {
  return classifyAddress(address) !== 'public';
}
