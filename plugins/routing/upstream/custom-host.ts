/**
 * The `customHostAllow` option: the hosts a config's `custom_host` may name, checked when the
 * config is validated (a 400 before anything is sent). Host names match the name entries, IP
 * literals the CIDR entries; nothing is resolved here: what a name resolves to is the outbound
 * host policy's business, when connecting.
 */
import type { HostRules } from '../../../core/index.js';

/** Why `customHost` is refused, or undefined when the rules allow it. */
export function customHostProblem(customHost: string, allowed: HostRules): string | undefined {
  let host: string;
  try {
    host = new URL(customHost).hostname;
  } catch {
    return undefined; // not a URL: the config schema reports that
  }
  if (allowed.matchHost(host) !== undefined) return undefined;
  const entries = allowed.empty ? 'it is empty, so no custom_host is allowed' : `entries: ${allowed.entries.join(', ')}`;
  return `host "${host}" is not allowed by ${allowed.source} (${entries})`;
}
