/**
 * undici's connector with the outbound host policy in front: runs once per new connection (a
 * pooled connection costs nothing). The host name is judged before anything else; the addresses
 * are judged inside the `lookup` that node:net calls while connecting, so the address judged is
 * the address connected to (a name cannot resolve one way for the check and another for the
 * socket). A refusal fails the connection before any socket connects.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns';
import { buildConnector } from 'undici';
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

export function policyConnector(policy: OutboundPolicy, options: buildConnector.BuildOptions = {}): buildConnector.connector {
  const lookup = policyLookup(policy);
  const connect = buildConnector({ ...options, lookup } as buildConnector.BuildOptions);
  return (connectOptions, callback) => {
    const refusal = policy.judgeHost(connectOptions.hostname);
    // Answered on a later tick, as a real connection failure would be: undici is mid-connect.
    if (refusal) queueMicrotask(() => callback(refusal, null));
    else connect(connectOptions, callback);
  };
}
