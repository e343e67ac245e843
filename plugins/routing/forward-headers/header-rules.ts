/**
 * Which client headers may be forwarded to a provider. Names are compared lower-cased.
 * A name on these lists is refused when the config is validated (400), never skipped silently.
 */

/** An HTTP field name (RFC 9110 token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Exact names that are never forwarded, with the reason given to the user. */
const NEVER: ReadonlyMap<string, string> = new Map([
  ['authorization', 'the provider credential is set by the gateway from the config (api_key or the direct-mode Authorization)'],
  ['host', 'the gateway sets it for the provider\'s address'],
  ['content-length', 'the gateway sets it for the body it sends'],
  ['content-encoding', 'the gateway sends its own body encoding'],
  ['accept-encoding', 'the gateway reads provider answers and asks for the encodings it understands'],
  ['expect', 'the gateway sends the body at once'],
  ['forwarded', 'proxy headers are never passed to a provider'],
  // Hop-by-hop (RFC 9110 §7.6.1): they describe the client's connection, not the request.
  ['connection', 'hop-by-hop headers describe the client\'s connection'],
  ['keep-alive', 'hop-by-hop headers describe the client\'s connection'],
  ['te', 'hop-by-hop headers describe the client\'s connection'],
  ['trailer', 'hop-by-hop headers describe the client\'s connection'],
  ['transfer-encoding', 'hop-by-hop headers describe the client\'s connection'],
  ['upgrade', 'hop-by-hop headers describe the client\'s connection'],
]);

/** Prefixes that are never forwarded. */
const NEVER_PREFIXES: readonly (readonly [string, string])[] = [
  ['x-gw-', 'gateway headers (the gateway key, configs, tracing) are never passed to a provider'],
  ['x-forwarded-', 'proxy headers are never passed to a provider'],
  ['proxy-', 'hop-by-hop headers describe the client\'s connection'],
];

/** Why `name` may not be forwarded, or undefined when it may. */
export function forwardRule(name: string): string | undefined {
  if (!TOKEN.test(name)) return `"${name}" is not a valid header name`;
  const lower = name.toLowerCase();
  const reason = NEVER.get(lower);
  if (reason) return `"${name}" is never forwarded: ${reason}`;
  for (const [prefix, why] of NEVER_PREFIXES) {
    if (lower.startsWith(prefix)) return `"${name}" is never forwarded: ${why}`;
  }
  return undefined;
}

const lists = new WeakMap<readonly string[], readonly string[]>();

/**
 * The lower-cased, de-duplicated names of a checked list, cached by the list's identity so that a
 * cached config is normalised once, not per request. Undefined until `remember` accepted the list.
 */
export function checkedNames(list: readonly string[]): readonly string[] | undefined {
  return lists.get(list);
}

/** Caches the names of a list that passed `forwardRule`. */
export function remember(list: readonly string[]): readonly string[] {
  const names = [...new Set(list.map((n) => n.toLowerCase()))];
  lists.set(list, names);
  return names;
}

/** The forwardable names of a list that was never checked (not cached). */
export function allowedNames(list: readonly string[]): readonly string[] {
  return [...new Set(list.filter((n) => forwardRule(n) === undefined).map((n) => n.toLowerCase()))];
}

/**
 * Whether the client's `Connection` header lists `name`: such a header is hop-by-hop for this
 * request (RFC 9110 §7.6.1) and must not travel further, whatever the config says.
 */
export function listedInConnection(connection: string | undefined, name: string): boolean {
  if (connection === undefined) return false;
  const value = connection.toLowerCase();
  if (value === 'keep-alive' || value === 'close') return false;
  for (const token of value.split(',')) if (token.trim() === name) return true;
  return false;
}
