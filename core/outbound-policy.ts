/**
 * Which hosts the gateway may connect to. Every outbound connection (providers, custom_host,
 * webhooks, key sets, token endpoints) is judged here by the transport, on the host name before
 * it is resolved and on every address it resolves to, so a name that points at a denied address
 * is refused too. Deny wins over allow; when an allow list is set, anything it does not name is
 * refused. The default deny list (link-local and cloud metadata) always applies.
 */
import type { LookupAddress } from 'node:dns';
import { familyOf, unbracket, type AddressFamily } from './addresses.js';
import { Errors, type GatewayError } from './errors.js';
import { HostRules } from './host-rules.js';

export const DEFAULT_OUTBOUND_DENY: readonly string[] = Object.freeze([
  '169.254.0.0/16', 'fe80::/10', 'fd00:ec2::254/128', '100.100.100.200/32', 'metadata.google.internal', 'metadata.goog',
]);

export interface OutboundRules {
  /** When set (and not empty), only hosts it names may be reached. */
  allow?: HostRules;
  /** Refused hosts, on top of the default deny list. */
  deny?: HostRules;
}

export class OutboundPolicy {
  readonly #deny: readonly HostRules[];
  readonly #allow: HostRules | undefined;

  constructor(rules: OutboundRules = {}) {
    const defaults = HostRules.parse(DEFAULT_OUTBOUND_DENY, 'the default deny list');
    this.#deny = rules.deny && !rules.deny.empty ? [defaults, rules.deny] : [defaults];
    this.#allow = rules.allow && !rules.allow.empty ? rules.allow : undefined;
  }

  /**
   * Before resolving: an IP literal is judged whole; a host name by the name rules of the deny
   * lists (its addresses are judged by `judgeResolved`). A refusal, or undefined.
   */
  judgeHost(host: string): GatewayError | undefined {
    const bare = unbracket(host);
    const family = familyOf(bare);
    if (family) return this.#judgeAddress(bare, bare, family, false);
    for (const list of this.#deny) {
      const rule = list.matchName(bare);
      if (rule !== undefined) return refused(`"${bare}"`, rule, list);
    }
    return undefined;
  }

  /** After resolving `host`: every address must pass (one denied address refuses the name). */
  judgeResolved(host: string, addresses: readonly LookupAddress[]): GatewayError | undefined {
    const nameAllowed = this.#allow?.matchName(host) !== undefined;
    for (const { address, family } of addresses) {
      const refusal = this.#judgeAddress(host, address, family === 6 ? 'ipv6' : 'ipv4', nameAllowed);
      if (refusal) return refusal;
    }
    return undefined;
  }

  #judgeAddress(host: string, address: string, family: AddressFamily, nameAllowed: boolean): GatewayError | undefined {
    const shown = host === address ? `"${host}"` : `"${host}" (address ${address})`;
    for (const list of this.#deny) {
      const rule = list.matchAddress(address, family);
      if (rule !== undefined) return refused(shown, rule, list);
    }
    const allow = this.#allow;
    if (allow && !nameAllowed && allow.matchAddress(address, family) === undefined) {
      return Errors.outboundHostDenied(`outbound host ${shown} is refused: it matches no rule of ${allow.source}`);
    }
    return undefined;
  }
}

function refused(shown: string, rule: string, list: HostRules): GatewayError {
  return Errors.outboundHostDenied(`outbound host ${shown} is refused: it matches rule "${rule}" of ${list.source}`);
}
