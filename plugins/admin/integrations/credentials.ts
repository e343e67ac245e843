/**
 * The route-config fields an integration contributes to a target: its provider, configurations
 * and credentials. Credentials are opened once per integration revision and kept in memory;
 * secret mappings are resolved when first needed and again after `secretTtlMs` (a resolver may
 * rotate them; environment variables never change while the gateway runs).
 */
import type { SecretReferences } from '../../security/secret-references/contract.js';
import { Errors, GatewayError, type SecretBox } from '../../../core/index.js';
import type { Integration, SecretPart } from './record.js';

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

export class CredentialCache {
  readonly #opened = new WeakMap<Integration, Opened>();
  readonly #pending = new WeakMap<Integration, Promise<TargetFields>>();

  constructor(
    private readonly box: SecretBox,
    private readonly secrets: SecretSource,
    private readonly secretTtlMs: number,
  ) {}

  /** The integration's target fields: from memory after the first use. */
  fields(integration: Integration): TargetFields | Promise<TargetFields> {
    const opened = this.#opened.get(integration);
    if (opened && opened.expiresAt > Date.now()) return opened.fields;
    let pending = this.#pending.get(integration);
    if (!pending) {
      pending = this.#open(integration).finally(() => this.#pending.delete(integration));
      this.#pending.set(integration, pending);
    }
    return pending;
  }

  async #open(integration: Integration): Promise<TargetFields> {
    const fields: Record<string, unknown> = { provider: integration.provider, ...integration.configurations };
    const secret = this.#unseal(integration);
    if (secret.configurations) Object.assign(fields, secret.configurations);
    if (secret.key !== undefined) fields['api_key'] = secret.key;
    for (const mapping of integration.secretMappings) {
      const value = await this.secrets.resolve(mapping.secret_reference, { organisationId: integration.organisationId });
      if (value === undefined) {
        throw integrationUnusable(`integration "@${integration.slug}": the secret mapped to ${mapping.target_field} is not available (unresolved secret reference)`);
      }
      fields[targetField(mapping.target_field)] = mapping.value_format === 'json' ? parseJson(value, integration, mapping.target_field) : value;
    }
    const frozen = Object.freeze(fields);
    const expiresAt = integration.secretMappings.length > 0 ? Date.now() + this.secretTtlMs : Number.POSITIVE_INFINITY;
    this.#opened.set(integration, { fields: frozen, expiresAt });
    return frozen;
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

function parseJson(value: string, integration: Integration, target: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw integrationUnusable(`integration "@${integration.slug}": the secret mapped to ${target} is not valid JSON (value_format "json")`);
  }
}
