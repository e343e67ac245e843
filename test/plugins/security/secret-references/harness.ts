/**
 * Shared set-up of the secret-reference tests: the control-plane gateway of the integrations tests
 * (secret box, integrations, a test plugin that lets a request name its caller) with
 * security.secret-references configured as each test needs, a mock OpenAI provider, and helpers
 * that store a reference and an integration mapping it onto the provider key.
 */
import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import type { Logger, PluginEntry } from '../../../../core/index.js';
import IntegrationsPlugin from '../../../../plugins/admin/integrations/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, postJson, startGateway, type JsonReply, type TestGateway } from '../../../helpers/gateway.js';
import { ADMIN_PLUGINS, as, call, chatHeaders, lastKey, SECRET_KEY } from '../../admin/integrations/harness.js';

export { as, call, chatHeaders, lastKey };

export interface SecretsGateway extends TestGateway {
  provider: MockOpenAI;
}

export interface SecretsGatewayExtra {
  env?: Record<string, string>;
  /** Options of admin.integrations (secretTtlMs ...). */
  integrations?: Record<string, unknown>;
  logger?: Logger;
  /** Added after the control-plane plugins (a fake directory ...). */
  plugins?: PluginEntry[];
}

/** A gateway whose security.secret-references has `options` (the default preset's, reconfigured). */
export async function startSecretsGateway(options: Record<string, unknown> = {}, extra: SecretsGatewayExtra = {}): Promise<SecretsGateway> {
  const provider = await startMockOpenAI();
  const gw = await startGateway({
    // Workspace ids are taken as given (no directory), as in the integrations tests.
    composition: {
      plugins: [
        ...ADMIN_PLUGINS.filter((p) => p !== IntegrationsPlugin),
        { use: 'admin.integrations', options: { reloadIntervalMs: 0, ...extra.integrations } },
        { use: 'security.secret-references', options: { reloadIntervalMs: 0, ...options } },
        ...(extra.plugins ?? []),
      ],
      disable: ['admin.workspaces', 'admin.api-keys'],
    },
    env: { GW_SECRET_KEY: SECRET_KEY, ...extra.env },
    logger: extra.logger,
  });
  return {
    ...gw, provider,
    stop: async () => {
      await gw.stop();
      await provider.close();
    },
  };
}

/** Stores a reference (200 expected) and answers its record. */
export async function createReference(gw: TestGateway, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<any> {
  const res = await call(gw, 'POST', '/v1/secret-references', body, headers);
  expect(res.status, res.text).to.equal(200);
  return res.json;
}

/** An OpenAI integration on the mock provider whose key comes from `reference`. */
export async function mappedIntegration(gw: SecretsGateway, slug: string, reference: string, extra: Record<string, unknown> = {}): Promise<void> {
  const res = await call(gw, 'POST', '/v1/integrations', {
    slug, provider: 'openai', configurations: { custom_host: `${gw.provider.url}/v1` },
    secret_mappings: [{ target_field: 'key', secret_reference: reference }], ...extra,
  });
  expect(res.status, res.text).to.equal(200);
}

/** A chat request through `@integration`, as `headers` say (the test key otherwise). */
export function chatThrough(gw: TestGateway, integration: string, headers: Record<string, string> = {}): Promise<JsonReply> {
  return postJson(gw.url, '/v1/chat/completions', CHAT_BODY, chatHeaders({ 'x-gw-provider': `@${integration}`, ...headers }));
}

/** A throw-away Google service account: its e-mail and key pair (one per run). */
let keys: { clientEmail: string; publicKey: string; privateKey: string } | undefined;
export function serviceAccountKeys() {
  if (!keys) {
    const pair = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    keys = { clientEmail: 'gw-secrets@gw-test-project.iam.gserviceaccount.com', ...pair };
  }
  return keys;
}

/** The key file of that account, its tokens minted at `tokenUri`. */
export function serviceAccountJson(tokenUri: string): Record<string, string> {
  const k = serviceAccountKeys();
  return { type: 'service_account', project_id: 'gw-test-project', private_key_id: 'k1', private_key: k.privateKey, client_email: k.clientEmail, token_uri: tokenUri };
}
