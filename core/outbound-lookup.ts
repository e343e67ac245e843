/**
 * A DNS lookup with the outbound host policy in front, for node:net / node:http connections (the
 * shared transport's connector and a WebSocket client alike): the addresses are judged inside the
 * `lookup` that node:net calls while connecting, so the address judged is the address connected to.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns';
import type { OutboundPolicy } from './outbound-policy.js';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node:net / node:http connections (a WebSocket client's too) that refuses a host
 * resolving to an address the policy denies. IP literals are not looked up: judge the host first
 * with `policy.judgeHost`.
 */
export function policyLookup(policy: OutboundPolicy) {
  return (hostname: string, lookupOptions: LookupOptions, callback: LookupCallback): void => {
    const all: LookupAllOptions = { ...lookupOptions, all: true };
    dnsLookup(hostname, all, (error, addresses) => {
      if (error) return callback(error, []);
      const refusal = policy.judgeResolved(hostname, addresses);
      if (refusal) return callback(refusal as unknown as NodeJS.ErrnoException, []);
      if (lookupOptions.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}
