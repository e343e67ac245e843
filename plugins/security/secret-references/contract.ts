/**
 * Secret references as other plugins use them (integrations, MCP servers): import this file (the
 * key, or the types) and nothing else of the family. A plugin that maps secrets finds the service
 * on use (`services.find`); without one, it falls back to its own environment-variable reading.
 */
import { serviceKey, type ServiceKey } from '../../../core/index.js';

/** Who asks for a secret: the organisation it must belong to, and the workspace it is used in. */
export interface SecretRequester {
  organisationId: string;
  /** The caller's workspace; references outside `allowed_workspaces` refuse it (403). */
  workspaceId?: string | undefined;
}

export interface SecretReferences {
  /**
   * The secret's value by the reference's slug (or an environment variable name the `env` manager
   * accepts); undefined when no such reference exists. Throws a GatewayError naming the reference,
   * never the value: 403 when the requester's workspace may not use it, 502 when its secret
   * manager fails or does not hold the secret.
   */
  resolve(reference: string, requester: SecretRequester): string | undefined | Promise<string | undefined>;
}

export const SecretReferencesService = serviceKey<SecretReferences>('secret-references');

/**
 * The embedded default of a plugin that maps secrets when no SecretReferences plugin is loaded:
 * environment variables whose names start with `prefix` (so that no mapping can read GW_SECRET_KEY).
 */
export function envSecretReferences(env: Readonly<Record<string, string | undefined>>, prefix: string): SecretReferences {
  return { resolve: (reference) => (reference.startsWith(prefix) ? env[reference] : undefined) };
}

/**
 * The registered SecretReferences service, looked up on every use (a plugin applied later still
 * counts), else `fallback`. `external()` tells which one answers (write-time checks differ).
 */
export function secretReferencesOr(
  services: { find<T>(key: ServiceKey<T>): T | undefined }, fallback: SecretReferences,
): SecretReferences & { external(): boolean } {
  return {
    resolve: (reference, requester) => (services.find(SecretReferencesService) ?? fallback).resolve(reference, requester),
    external: () => services.find(SecretReferencesService) !== undefined,
  };
}
