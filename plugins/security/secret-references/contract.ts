/**
 * Secret references as other plugins use them (integrations, MCP servers): import this file (the
 * key, or the types) and nothing else of the family. A plugin that maps secrets finds the service
 * on use (`services.find`); without one, it falls back to its own environment-variable reading.
 */
import { serviceKey } from '../../../core/index.js';

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
