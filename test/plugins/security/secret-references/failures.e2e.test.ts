/**
 * What a chat request answers when a mapped reference cannot give its secret: an error envelope
 * naming the integration and the reference (and the manager), never the secret nor the manager's
 * answer body, and no provider call. Each manager's own refusals, a manager down or silent, a
 * wrong secret_key, a secret that is not JSON, a damaged payload, a workspace not allowed.
 */
import { expect } from 'chai';
import { startAwsSecretsMock } from '../../../fixtures/mock-aws-secrets-manager.js';
import { startGcpSecretsMock, type GcpSecretsMock } from '../../../fixtures/mock-gcp-secret-manager.js';
import { startVaultMock } from '../../../fixtures/mock-vault.js';
import type { SecretManagerMock } from '../../../fixtures/secret-manager-mock.js';
import type { JsonReply } from '../../../helpers/gateway.js';
import {
  as, call, chatThrough, createReference, lastKey, mappedIntegration, serviceAccountJson, serviceAccountKeys, startSecretsGateway, type SecretsGateway,
} from './harness.js';
import { generateKeyPairSync } from 'node:crypto';

const VAULT_TOKEN = 'hvs.failures-token-abcdef0123456789';
const SECRET = 'sk-failure-tests-7d6c5b4a3928';
const AWS = { region: 'us-east-1', credentials: { accessKeyId: 'AKIAFAILURES0000EXAM', secretAccessKey: 'failures/secret/access/key/EXAMPLE000' } };

describe('security.secret-references: failures', () => {
  let gw: SecretsGateway;
  let vault: SecretManagerMock;
  let aws: SecretManagerMock;
  let gcp: GcpSecretsMock;
  let awsConfig: Record<string, unknown>;
  let vaultConfig: Record<string, unknown>;

  before(async () => {
    vault = await startVaultMock({ token: VAULT_TOKEN, secrets: { 'secret/app': { api_key: SECRET, org: 'o' }, 'secret/text': { value: 'not json' } } });
    aws = await startAwsSecretsMock({ ...AWS, secrets: { 'plain': SECRET }, denied: ['locked'] });
    const keys = serviceAccountKeys();
    gcp = await startGcpSecretsMock({ project: 'gw-test-project', clientEmail: keys.clientEmail, publicKey: keys.publicKey, secrets: { s: SECRET }, denied: ['locked'] });
    gw = await startSecretsGateway({ timeoutMs: 300, cacheTtlMs: 0 }, { integrations: { secretTtlMs: 0 } });
    awsConfig = { region: AWS.region, access_key_id: AWS.credentials.accessKeyId, secret_access_key: AWS.credentials.secretAccessKey, endpoint: aws.url };
    vaultConfig = { address: vault.url, token: VAULT_TOKEN };
  });
  after(async () => {
    await gw?.stop();
    await Promise.all([vault?.close(), aws?.close(), gcp?.close()]);
  });

  /** Stores a reference and an integration mapping it, and sends a chat through it. */
  async function chatWith(slug: string, reference: Record<string, unknown>, headers: Record<string, string> = {}): Promise<JsonReply> {
    await createReference(gw, { slug, ...reference });
    await mappedIntegration(gw, `i-${slug}`, slug);
    gw.provider.reset();
    const res = await chatThrough(gw, `i-${slug}`, headers);
    expect(gw.provider.requests, 'no provider call').to.have.length(0);
    expect(res.text).not.to.contain(SECRET).and.not.to.contain(VAULT_TOKEN).and.not.to.contain(AWS.credentials.secretAccessKey);
    return res;
  }

  function expectUnavailable(res: JsonReply, slug: string, manager: string, reason: string | RegExp) {
    expect(res.status, res.text).to.equal(502);
    expect(res.json.error.code).to.equal('secret_reference_unavailable');
    const prefix = `integration "@i-${slug}" (key → secret reference "${slug}"): secret reference "${slug}" (${manager}) could not be resolved: `;
    expect(res.json.error.message.startsWith(prefix), res.json.error.message).to.equal(true);
    const rest = res.json.error.message.slice(prefix.length);
    if (typeof reason === 'string') expect(rest).to.equal(reason);
    else expect(rest).to.match(reason);
  }

  it('a manager that is down: 502 naming the reference and the manager', async () => {
    const closed = await startVaultMock({ token: 't', secrets: {} });
    const address = closed.url;
    await closed.close();
    expectUnavailable(await chatWith('down', { manager: 'vault', secret_path: 'app', manager_config: { address, token: 't' } }), 'down', 'vault', 'the secret manager is unreachable');
  });

  it('a manager that does not answer within timeoutMs, and one that resets the connection', async () => {
    vault.next({ hang: true });
    const started = Date.now();
    expectUnavailable(await chatWith('silent', { manager: 'vault', secret_path: 'app', secret_key: 'api_key', manager_config: vaultConfig }), 'silent', 'vault', 'no answer within 300 ms');
    expect(Date.now() - started).to.be.below(3000);
    vault.next({ reset: true });
    gw.provider.reset();
    expectUnavailable(await chatThrough(gw, 'i-silent'), 'silent', 'vault', 'the secret manager is unreachable');
  });

  it('vault: a bad token (403), a missing path (404), a server error, an answer that is not KV v2', async () => {
    expectUnavailable(await chatWith('bad-token', { manager: 'vault', secret_path: 'app', manager_config: { address: vault.url, token: 'hvs.wrong' } }),
      'bad-token', 'vault', 'Vault refused the token (403 permission denied): check the token and its policy');
    expectUnavailable(await chatWith('no-path', { manager: 'vault', secret_path: 'nothing/here', manager_config: vaultConfig }),
      'no-path', 'vault', 'Vault holds no secret at secret/nothing/here (404; deleted, or not a KV v2 mount)');
    vault.next({ status: 503, body: { errors: ['Vault is sealed', SECRET] } });
    const sealed = await chatWith('sealed', { manager: 'vault', secret_path: 'app', secret_key: 'api_key', manager_config: vaultConfig });
    expectUnavailable(sealed, 'sealed', 'vault', 'Vault answered 503');
    vault.next({ status: 200, body: { data: { keys: ['a'] } } });
    gw.provider.reset();
    expectUnavailable(await chatThrough(gw, 'i-sealed'), 'sealed', 'vault', 'Vault answered without data.data (is the mount KV version 2?)');
  });

  it('a wrong secret_key, a many-key secret without one, and secret_key on a secret that is not JSON', async () => {
    expectUnavailable(await chatWith('wrong-key', { manager: 'vault', secret_path: 'app', secret_key: 'password', manager_config: vaultConfig }),
      'wrong-key', 'vault', 'the secret has no key "password"');
    expectUnavailable(await chatWith('many-keys', { manager: 'vault', secret_path: 'app', manager_config: vaultConfig }),
      'many-keys', 'vault', 'the secret holds 2 keys: set secret_key to pick one');
    expectUnavailable(await chatWith('text-key', { manager: 'aws_secrets_manager', secret_path: 'plain', secret_key: 'api_key', manager_config: awsConfig }),
      'text-key', 'aws_secrets_manager', 'secret_key is set but the secret is not JSON');
  });

  it('value_format json on a secret that is not JSON: 500 naming the reference', async () => {
    await createReference(gw, { slug: 'not-json', manager: 'vault', secret_path: 'text', manager_config: vaultConfig });
    const made = await call(gw, 'POST', '/v1/integrations', {
      slug: 'i-not-json', provider: 'openai', key: 'sk-k', configurations: { custom_host: `${gw.provider.url}/v1` },
      secret_mappings: [{ target_field: 'configurations.vendorD_organization', secret_reference: 'not-json', value_format: 'json' }],
    });
    expect(made.status, made.text).to.equal(200);
    gw.provider.reset();
    const res = await chatThrough(gw, 'i-not-json');
    expect(res.status).to.equal(500);
    expect(res.json.error).to.deep.include({
      code: 'integration_unusable',
      message: 'integration "@i-not-json": secret reference "not-json" mapped to configurations.vendorD_organization is not valid JSON (value_format "json")',
    });
    expect(gw.provider.requests).to.have.length(0);
  });

  it('aws_secrets_manager: not found, access denied, a wrong secret access key, the manager\'s own words never answered', async () => {
    expectUnavailable(await chatWith('aws-missing', { manager: 'aws_secrets_manager', secret_path: 'nope', manager_config: awsConfig }),
      'aws-missing', 'aws_secrets_manager', 'AWS Secrets Manager answered 400 ResourceNotFoundException');
    const denied = await chatWith('aws-denied', { manager: 'aws_secrets_manager', secret_path: 'locked', manager_config: awsConfig });
    expectUnavailable(denied, 'aws-denied', 'aws_secrets_manager', 'AWS Secrets Manager answered 400 AccessDeniedException');
    expect(denied.text).not.to.contain('arn:aws:iam');
    expectUnavailable(await chatWith('aws-bad-sig', { manager: 'aws_secrets_manager', secret_path: 'plain', manager_config: { ...awsConfig, secret_access_key: 'not/the/right/secret/key/EXAMPLE' } }),
      'aws-bad-sig', 'aws_secrets_manager', 'AWS Secrets Manager answered 400 InvalidSignatureException');
    aws.next({ status: 200, body: '<html>proxy</html>' });
    await createReference(gw, { slug: 'aws-html', manager: 'aws_secrets_manager', secret_path: 'plain', manager_config: awsConfig });
    await mappedIntegration(gw, 'i-aws-html', 'aws-html');
    expectUnavailable(await chatThrough(gw, 'i-aws-html'), 'aws-html', 'aws_secrets_manager', 'AWS Secrets Manager answered with something that is not JSON');
  });

  it('gcp_secret_manager: permission denied, not found, a refused token exchange, a damaged payload', async () => {
    const config = { project_id: 'gw-test-project', service_account_json: serviceAccountJson(gcp.tokenUri), endpoint: gcp.url };
    expectUnavailable(await chatWith('gcp-denied', { manager: 'gcp_secret_manager', secret_path: 'locked', manager_config: config }),
      'gcp-denied', 'gcp_secret_manager', 'Secret Manager answered 403 PERMISSION_DENIED');
    expectUnavailable(await chatWith('gcp-missing', { manager: 'gcp_secret_manager', secret_path: 'nope', manager_config: config }),
      'gcp-missing', 'gcp_secret_manager', 'Secret Manager answered 404 NOT_FOUND');
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    const impostor = { ...config, service_account_json: { ...config.service_account_json, private_key: stranger.privateKey } };
    const refused = await chatWith('gcp-impostor', { manager: 'gcp_secret_manager', secret_path: 's', manager_config: impostor });
    expectUnavailable(refused, 'gcp-impostor', 'gcp_secret_manager', 'service-account token exchange failed (400 invalid_grant: Invalid JWT Signature.)');
    expect(refused.text).not.to.contain('PRIVATE KEY');
    const keys = serviceAccountKeys();
    const damaged = await startGcpSecretsMock({ project: 'gw-test-project', clientEmail: keys.clientEmail, publicKey: keys.publicKey, secrets: { s: SECRET }, corruptChecksum: true });
    try {
      expectUnavailable(
        await chatWith('gcp-damaged', { manager: 'gcp_secret_manager', secret_path: 's', manager_config: { ...config, service_account_json: serviceAccountJson(damaged.tokenUri), endpoint: damaged.url } }),
        'gcp-damaged', 'gcp_secret_manager', 'Secret Manager\'s payload failed its CRC32C check (damaged in transit)');
    } finally {
      await damaged.close();
    }
  });

  it('a workspace outside allowed_workspaces: 403 naming the reference and the workspace; an allowed one gets the secret', async () => {
    await createReference(gw, { slug: 'team-a-key', manager: 'vault', secret_path: 'app', secret_key: 'api_key', manager_config: vaultConfig, allowed_workspaces: ['ws-a'] });
    await mappedIntegration(gw, 'i-team-a', 'team-a-key');
    gw.provider.reset();
    const refused = await chatThrough(gw, 'i-team-a', as({ workspaceId: 'ws-b', scopes: [] }));
    expect(refused.status, refused.text).to.equal(403);
    expect(refused.json.error).to.deep.include({
      code: 'secret_reference_forbidden', type: 'permission_error',
      message: 'integration "@i-team-a" (key → secret reference "team-a-key"): secret reference "team-a-key" is not allowed in workspace ws-b',
    });
    expect(gw.provider.requests).to.have.length(0);
    const allowed = await chatThrough(gw, 'i-team-a', as({ workspaceId: 'ws-a', scopes: [] }));
    expect(allowed.status, allowed.text).to.equal(200);
    expect(lastKey(gw.provider)).to.equal(SECRET);
    // Checked per request, not once per integration: ws-b is still refused after ws-a was served.
    expect((await chatThrough(gw, 'i-team-a', as({ workspaceId: 'ws-b', scopes: [] }))).status).to.equal(403);
    // An organisation key may use it.
    expect((await chatThrough(gw, 'i-team-a')).status).to.equal(200);
  });

  it('a mapping naming no stored reference is refused when the integration is written', async () => {
    const res = await call(gw, 'POST', '/v1/integrations', {
      slug: 'i-unknown', provider: 'openai', configurations: { custom_host: `${gw.provider.url}/v1` },
      secret_mappings: [{ target_field: 'key', secret_reference: 'no-such-ref' }],
    });
    expect(res.status).to.equal(400);
    expect(res.json.error.message).to.equal('body.secret_mappings.0.secret_reference: no secret reference "no-such-ref" in this organisation (give the slug of a stored secret reference, or an environment variable starting with GW_SECRET_REF_)');
  });

  it('a reference deleted after an integration mapped it: 500 naming the reference', async () => {
    await createReference(gw, { slug: 'short-lived', manager: 'vault', secret_path: 'app', secret_key: 'api_key', manager_config: vaultConfig });
    await mappedIntegration(gw, 'i-short-lived', 'short-lived');
    expect((await call(gw, 'DELETE', '/v1/secret-references/short-lived')).status).to.equal(200);
    const res = await chatThrough(gw, 'i-short-lived');
    expect(res.status).to.equal(500);
    expect(res.json.error).to.deep.include({
      code: 'integration_unusable',
      message: 'integration "@i-short-lived" (key → secret reference "short-lived"): no such secret reference, or its environment variable is not set',
    });
  });
});
