/**
 * undici's connector with the outbound host policy in front: runs once per new connection (a
 * pooled connection costs nothing). The host name is judged before anything else; the addresses
 * are judged inside the `lookup` that node:net calls while connecting, so the address judged is
 * the address connected to (a name cannot resolve one way for the check and another for the
 * socket). A refusal fails the connection before any socket connects.
 */
import { buildConnector } from 'undici';
import { policyLookup } from './outbound-lookup.js';
import type { OutboundPolicy } from './outbound-policy.js';

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
