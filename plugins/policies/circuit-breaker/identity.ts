/**
 * A target's breaker identity: the same on every request and every gateway instance for the same
 * upstream at the same place in the config, and free of secrets (the key only enters hashed).
 *
 *   sha256(JSON [provider, custom_host, sha256(api_key), override_params.model, $path, name]), 32 hex chars
 */
import { sha256Hex, type Target } from '../../../core/index.js';

/** The fields the identity is made of; a cached identity is reused while they are unchanged. */
export interface IdentityFields {
  readonly provider: string | undefined;
  readonly customHost: string | undefined;
  readonly apiKey: string | undefined;
  readonly model: string | undefined;
  readonly name: string | undefined;
}

export function identityFields(target: Target): IdentityFields {
  return {
    provider: target.provider,
    customHost: target.custom_host,
    apiKey: target.api_key,
    model: modelOf(target),
    name: target.name,
  };
}

/** True when `target` still has exactly these fields (plain string comparisons, no allocation). */
export function sameFields(fields: IdentityFields, target: Target): boolean {
  return fields.provider === target.provider
    && fields.customHost === target.custom_host
    && fields.apiKey === target.api_key
    && fields.model === modelOf(target)
    && fields.name === target.name;
}

export function targetIdentity(fields: IdentityFields, path: string): string {
  const keyHash = fields.apiKey === undefined ? '' : sha256Hex(fields.apiKey).slice(0, 32);
  const material = JSON.stringify([fields.provider ?? '', fields.customHost ?? '', keyHash, fields.model ?? '', path, fields.name ?? '']);
  return sha256Hex(material).slice(0, 32);
}

function modelOf(target: Target): string | undefined {
  const model = target.override_params?.['model'];
  return typeof model === 'string' ? model : undefined;
}

