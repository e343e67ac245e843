/**
 * The exact cache key and the provider identity it covers.
 *
 *   key = sha256 hex of the canonical JSON {body, endpoint, identity, namespace}
 *   body      the body as sent upstream, without `stream` / `stream_options` (a plain and a
 *             streamed request share an entry)
 *   identity  the target's provider fields (provider, custom_host, deployment and cloud fields);
 *             credentials enter only as sha256 digests, so no secret is ever part of a key or a log
 * Trace/span headers and metadata are not request body fields, so they never reach the key.
 */
import { sha256Hex, type KeyRoles, type Target } from '../../../core/index.js';
import { canonicalJson } from '../common/canonical-json.js';

/** Provider fields whose values are secrets (or name one): only their digest enters the identity. */
const SECRET_FIELD = /key|secret|token|authorization|service_account/i;

/** Body fields that choose the answer's format, not its content. */
export const FORMAT_FIELDS: ReadonlySet<string> = new Set(['stream', 'stream_options']);

/** Digests of the secrets seen lately: the same key arrives on request after request. */
const secretDigests = new Map<string, string>();
const MAX_SECRET_DIGESTS = 1024;

function secretDigest(value: unknown): string {
  const text = typeof value === 'string' ? value : canonicalJson(value);
  let digest = secretDigests.get(text);
  if (digest === undefined) {
    digest = 'sha256:' + sha256Hex(text).slice(0, 32);
    if (secretDigests.size >= MAX_SECRET_DIGESTS) secretDigests.delete(secretDigests.keys().next().value!);
    secretDigests.set(text, digest);
  }
  return digest;
}

/** Identities of frozen targets (the kernel routes a resolved-again config over the same objects). */
const identities = new WeakMap<Target, string>();

/** Canonical JSON of what identifies the upstream that answers for this target. */
export function providerIdentity(target: Target, roles: KeyRoles): string {
  let identity = identities.get(target);
  if (identity === undefined) {
    identity = identityOf(target, roles);
    if (Object.isFrozen(target)) identities.set(target, identity);
  }
  return identity;
}

/** The target's credential keys (as the plugins owning them declare), secrets as digests. */
function identityOf(target: Target, roles: KeyRoles): string {
  const fields: Record<string, unknown> = {};
  for (const name in target) {
    if (!roles.isCredential(name)) continue;
    const value = target[name];
    if (value === undefined) continue;
    fields[name] = SECRET_FIELD.test(name) ? secretDigest(value) : value;
  }
  return canonicalJson(fields);
}

/** Canonical JSON of a body without its format fields. */
export function canonicalBody(body: Readonly<Record<string, unknown>>): string {
  return canonicalJson(body, FORMAT_FIELDS);
}

/** The exact key; the material is itself canonical JSON (its keys are written in sorted order). */
export function cacheKey(endpoint: string, identity: string, namespace: string | undefined, bodyJson: string): string {
  return sha256Hex(`{"body":${bodyJson},"endpoint":${JSON.stringify(endpoint)},"identity":${identity},"namespace":${JSON.stringify(namespace ?? null)}}`);
}
