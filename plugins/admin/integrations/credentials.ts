/**
 * The route-config fields an integration contributes to a target: its provider, configurations
 * and credentials. Credentials are opened once per integration revision and kept in memory;
 * secret mappings are resolved when first needed and again after `secretTtlMs` (a resolver may
 * rotate them; environment variables never change while the gateway runs). A resolver may refuse
 * a reference in some workspaces, so fields with mappings are kept per (integration, workspace).
 */
import type { SecretReferences } from '../../security/secret-references/contract.js';
import { Errors, GatewayError, type SecretBox } from '../../../core/index.js';
import type { Integration, SecretPart } from './record.js';
import type { SecretMappingInput } from './schemas.js';

/** Where a secret reference resolves: the registered SecretReferences service, or environment variables. */
export type SecretSource = SecretReferences;

export type TargetFields = Readonly<Record<string, unknown>>;

interface Opened {
  fields: TargetFields;
  expiresAt: number;
}

/** The SecretBox context binding sealed credentials to their integration. */
export const sealContext = (id: string) => `integration:${id}`;

/**
 * A gateway-side problem that makes an integration unusable (wrong secret key, missing secret).
 * 500: the client cannot fix it; the message says what the operator must.
 */
export function integrationUnusable(message: string): GatewayError {
  return Errors.misconfigured(message, 'integration_unusable');
}

/** The cache slot of organisation-level callers (no workspace). */
const NO_WORKSPACE = '';

export class CredentialCache {
  /** integration → workspace (or NO_WORKSPACE; always it when the integration maps no secret) → fields. */
  readonly #opened = new WeakMap<Integration, Map<string, Opened>>();
  readonly #pending = new WeakMap<Integration, Map<string, Promise<TargetFields>>>();

  constructor(
    private readonly box: SecretBox,
    private readonly secrets: SecretSource,
    private readonly secretTtlMs: number,
  ) {}

  /** The integration's target fields for a caller in `workspaceId`: from memory after the first use. */
  fields(integration: Integration, workspaceId?: string): TargetFields | Promise<TargetFields> {
    const slot = integration.secretMappings.length > 0 ? workspaceId ?? NO_WORKSPACE : NO_WORKSPACE;
    const opened = this.#opened.get(integration)?.get(slot);
    if (opened && opened.expiresAt > Date.now()) return opened.fields;
    let pendings = this.#pending.get(integration);
    if (!pendings) this.#pending.set(integration, (pendings = new Map()));
    let pending = pendings.get(slot);
    if (!pending) {
      const mine = pendings;
      pending = this.#open(integration, slot === NO_WORKSPACE ? undefined : slot).then((fields) => {
        let bySlot = this.#opened.get(integration);
        if (!bySlot) this.#opened.set(integration, (bySlot = new Map()));
        const expiresAt = integration.secretMappings.length > 0 ? Date.now() + this.secretTtlMs : Number.POSITIVE_INFINITY;
        bySlot.set(slot, { fields, expiresAt });
        return fields;
      }).finally(() => mine.delete(slot));
      pendings.set(slot, pending);
    }
    return pending;
  }

  async #open(integration: Integration, workspaceId: string | undefined): Promise<TargetFields> {
    const fields: Record<string, unknown> = { provider: integration.provider, ...integration.configurations };
    const secret = this.#unseal(integration);
    if (secret.configurations) Object.assign(fields, secret.configurations);
    if (secret.key !== undefined) fields['api_key'] = secret.key;
    for (const mapping of integration.secretMappings) {
      const value = await this.#resolve(integration, mapping, workspaceId);
      fields[targetField(mapping.target_field)] = mapping.value_format === 'json' ? parseJson(value, integration, mapping) : value;
    }
    return Object.freeze(fields);
  }

  /** One mapping's value; every failure names the integration, the field and the reference, never a value. */
  async #resolve(integration: Integration, mapping: SecretMappingInput, workspaceId: string | undefined): Promise<string> {
    const where = `integration "@${integration.slug}" (${mapping.target_field} → secret reference "${mapping.secret_reference}")`;
    let value: string | undefined;
    try {
      value = await this.secrets.resolve(mapping.secret_reference, { organisationId: integration.organisationId, workspaceId });
    } catch (e) {
      if (e instanceof GatewayError) {
        throw new GatewayError({ status: e.status, type: e.type, code: e.code, retryable: e.retryable, message: `${where}: ${e.message}` });
      }
      throw e;
    }
    if (value === undefined) throw integrationUnusable(`${where}: no such secret reference, or its environment variable is not set`);
    return value;
  }

  #unseal(integration: Integration): SecretPart {
    if (integration.sealed === undefined) return {};
    try {
      return JSON.parse(this.box.decrypt(integration.sealed, sealContext(integration.id))) as SecretPart;
    } catch {
      throw integrationUnusable(
        `integration "@${integration.slug}" cannot be opened: its credentials were sealed with another secret key `
        + '(GW_SECRET_KEY or the data folder\'s secret.key); restore that key or store the credentials again',
      );
    }
  }
}

/** `key` → api_key; `configurations.<field>` (or `<field>`) → the field. */
export function targetField(target: string): string {
  if (target === 'key') return 'api_key';
  return target.startsWith('configurations.') ? target.slice('configurations.'.length) : target;
}

function parseJson(value: string, integration: Integration, mapping: SecretMappingInput): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw integrationUnusable(
      `integration "@${integration.slug}": secret reference "${mapping.secret_reference}" mapped to ${mapping.target_field} is not valid JSON (value_format "json")`,
    );
  }
}
