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
  /**
   * Whether `reference` names something `resolve` would look up for the organisation (a stored
   * reference, or an environment variable name it reads), without fetching anything: what a plugin
   * checks when a mapping is written. Optional: without it, every reference is accepted.
   */
  exists?(reference: string, organisationId: string): boolean;
}

export const SecretReferencesService = serviceKey<SecretReferences>('secret-references');

/**
 * The embedded default of a plugin that maps secrets when no SecretReferences plugin is loaded:
 * environment variables whose names start with `prefix` (so that no mapping can read GW_SECRET_KEY).
 */
export function envSecretReferences(env: Readonly<Record<string, string | undefined>>, prefix: string): SecretReferences {
  return { resolve: (reference) => (reference.startsWith(prefix) ? env[reference] : undefined) };
}

/** The registered SecretReferences service, looked up on every use (a plugin applied later still counts), else `fallback`. */
export function secretReferencesOr(services: { find<T>(key: ServiceKey<T>): T | undefined }, fallback: SecretReferences): SecretReferences {
  return { resolve: (reference, requester) => (services.find(SecretReferencesService) ?? fallback).resolve(reference, requester) };
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Why a mapping may not name `reference` (undefined when it may), checked when the mapping is
 * written: an environment variable starting with `envPrefix` always may; anything else needs the
 * SecretReferences service, and must be a reference it knows in the organisation.
 */
export function referenceProblem(reference: string, organisationId: string, envPrefix: string, service: SecretReferences | undefined): string | undefined {
  if (reference.startsWith(envPrefix) && ENV_NAME.test(reference)) return undefined;
  if (service === undefined) return `must name an environment variable starting with ${envPrefix}`;
  if (service.exists !== undefined && !service.exists(reference, organisationId)) {
    return `no secret reference "${reference}" in this organisation (give the slug of a stored secret reference, or an environment variable starting with ${envPrefix})`;
  }
  return undefined;
}
