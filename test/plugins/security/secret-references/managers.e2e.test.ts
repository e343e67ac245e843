/**
 * Each secret manager end to end: an integration whose secret_mappings name a stored reference, a
 * chat request through it, the secret fetched from a loopback server speaking the manager's wire
 * format, and the mock provider receiving it as its API key.
 */
import { expect } from 'chai';
import { startAwsSecretsMock } from '../../../fixtures/mock-aws-secrets-manager.js';
import { startGcpSecretsMock, type GcpSecretsMock } from '../../../fixtures/mock-gcp-secret-manager.js';
import { startVaultMock } from '../../../fixtures/mock-vault.js';
import type { SecretManagerMock } from '../../../fixtures/secret-manager-mock.js';
import {
  call, chatThrough, createReference, lastKey, mappedIntegration, serviceAccountJson, serviceAccountKeys, startSecretsGateway, type SecretsGateway,
} from './harness.js';

const VAULT_TOKEN = 'hvs.CAESIGw7vault-test-token-0123456789';
const AWS = { region: 'eu-central-1', credentials: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' } };
const KEYS = {
  vault: 'sk-vault-0b1c2d3e4f5a6b7c8d9e',
  vaultSingle: 'sk-vault-single-1234567890',
  aws: 'sk-aws-json-9f8e7d6c5b4a39281706',
  awsPlain: 'sk-aws-plain-5647382910abcdef',
  awsBinary: 'sk-aws-binary-00112233445566',
  gcp: 'sk-gcp-1a2b3c4d5e6f7a8b9c0d',
  gcpJson: 'sk-gcp-json-aa00bb11cc22dd33',
  env: 'sk-env-abcdefabcdefabcdef0011',
};

describe('security.secret-references: each manager through a chat request', () => {
  let gw: SecretsGateway;
  let vault: SecretManagerMock;
  let aws: SecretManagerMock;
  let gcp: GcpSecretsMock;

  before(async () => {
    vault = await startVaultMock({
      token: VAULT_TOKEN, namespace: 'admin/team',
      secrets: { 'kv/llm/openai': { api_key: KEYS.vault, org: 'org-1' }, 'secret/single': { value: KEYS.vaultSingle } },
    });
    aws = await startAwsSecretsMock({
      ...AWS,
      secrets: { 'prod/llm': JSON.stringify({ api_key: KEYS.aws, other: 'x' }), 'prod/plain': KEYS.awsPlain, 'prod/binary': Buffer.from(KEYS.awsBinary) },
    });
    const keys = serviceAccountKeys();
    gcp = await startGcpSecretsMock({
      project: 'gw-test-project', clientEmail: keys.clientEmail, publicKey: keys.publicKey,
      secrets: { 'openai-key': KEYS.gcp, 'openai-json': JSON.stringify({ api_key: KEYS.gcpJson }) },
    });
    gw = await startSecretsGateway({}, { env: { GW_SECRET_REF_OPENAI: KEYS.env } });
  });
  after(async () => {
    await gw?.stop();
    await Promise.all([vault?.close(), aws?.close(), gcp?.close()]);
  });

  async function expectKey(integration: string, key: string) {
    const res = await chatThrough(gw, integration);
    expect(res.status, res.text).to.equal(200);
    expect(lastKey(gw.provider)).to.equal(key);
  }

  it('vault: reads KV v2 data with the token and namespace, picking secret_key', async () => {
    await createReference(gw, {
      slug: 'vault-openai', manager: 'vault', secret_path: 'llm/openai', secret_key: 'api_key',
      manager_config: { address: `${vault.url}/`, token: VAULT_TOKEN, mount: 'kv', namespace: 'admin/team' },
    });
    await mappedIntegration(gw, 'via-vault', 'vault-openai');
    await expectKey('via-vault', KEYS.vault);
    const read = vault.requests.at(-1)!;
    expect(read.method).to.equal('GET');
    expect(read.path).to.equal('/v1/kv/data/llm/openai');
    expect(read.headers['x-vault-token']).to.equal(VAULT_TOKEN);
    expect(read.headers['x-vault-namespace']).to.equal('admin/team');
  });

  it('vault: a one-key secret needs no secret_key (default mount "secret")', async () => {
    await createReference(gw, { slug: 'vault-single', manager: 'vault', secret_path: 'single', manager_config: { address: vault.url, token: VAULT_TOKEN, namespace: 'admin/team' } });
    await mappedIntegration(gw, 'via-vault-single', 'vault-single');
    await expectKey('via-vault-single', KEYS.vaultSingle);
    expect(vault.requests.at(-1)!.path).to.equal('/v1/secret/data/single');
  });

  it('aws_secrets_manager: GetSecretValue signed with SigV4, a JSON SecretString picked by secret_key', async () => {
    const config = { region: AWS.region, access_key_id: AWS.credentials.accessKeyId, secret_access_key: AWS.credentials.secretAccessKey, endpoint: aws.url };
    await createReference(gw, { slug: 'aws-json', manager: 'aws_secrets_manager', secret_path: 'prod/llm', secret_key: 'api_key', manager_config: config });
    await mappedIntegration(gw, 'via-aws', 'aws-json');
    await expectKey('via-aws', KEYS.aws);
    const call = aws.requests.at(-1)!;
    expect(call.headers['x-amz-target']).to.equal('secretsmanager.GetSecretValue');
    expect(call.headers['content-type']).to.equal('application/x-amz-json-1.1');
    expect(call.headers['authorization']).to.match(new RegExp(`^AWS4-HMAC-SHA256 Credential=${AWS.credentials.accessKeyId}/\\d{8}/${AWS.region}/secretsmanager/aws4_request`));
    expect(call.body).to.deep.equal({ SecretId: 'prod/llm' });

    await createReference(gw, { slug: 'aws-plain', manager: 'aws_secrets_manager', secret_path: 'prod/plain', manager_config: config });
    await mappedIntegration(gw, 'via-aws-plain', 'aws-plain');
    await expectKey('via-aws-plain', KEYS.awsPlain);
    await createReference(gw, { slug: 'aws-binary', manager: 'aws_secrets_manager', secret_path: 'prod/binary', manager_config: config });
    await mappedIntegration(gw, 'via-aws-binary', 'aws-binary');
    await expectKey('via-aws-binary', KEYS.awsBinary);
  });

  it('aws_secrets_manager: temporary credentials send and sign their session token', async () => {
    const sessionToken = 'FwoGZXIvYXdzEXAMPLE-session-token';
    const temporary = await startAwsSecretsMock({ region: AWS.region, credentials: { ...AWS.credentials, sessionToken }, secrets: { 'prod/plain': KEYS.awsPlain } });
    try {
      await createReference(gw, {
        slug: 'aws-session', manager: 'aws_secrets_manager', secret_path: 'prod/plain',
        manager_config: { region: AWS.region, access_key_id: AWS.credentials.accessKeyId, secret_access_key: AWS.credentials.secretAccessKey, session_token: sessionToken, endpoint: temporary.url },
      });
      await mappedIntegration(gw, 'via-aws-session', 'aws-session');
      await expectKey('via-aws-session', KEYS.awsPlain);
      expect(temporary.requests.at(-1)!.headers['x-amz-security-token']).to.equal(sessionToken);
    } finally {
      await temporary.close();
    }
  });

  it('gcp_secret_manager: a service-account token from token_uri, then versions/latest:access', async () => {
    const config = { project_id: 'gw-test-project', service_account_json: serviceAccountJson(gcp.tokenUri), endpoint: gcp.url };
    await createReference(gw, { slug: 'gcp-openai', manager: 'gcp_secret_manager', secret_path: 'openai-key', manager_config: config });
    await mappedIntegration(gw, 'via-gcp', 'gcp-openai');
    await expectKey('via-gcp', KEYS.gcp);
    const access = gcp.requests.at(-1)!;
    expect(access.path).to.equal('/v1/projects/gw-test-project/secrets/openai-key/versions/latest:access');
    expect(access.headers['authorization']).to.match(/^Bearer ya29\.secrets-/);

    await createReference(gw, { slug: 'gcp-json', manager: 'gcp_secret_manager', secret_path: 'openai-json/versions/1', secret_key: 'api_key', manager_config: config });
    await mappedIntegration(gw, 'via-gcp-json', 'gcp-json');
    await expectKey('via-gcp-json', KEYS.gcpJson);
    expect(gcp.requests.at(-1)!.path).to.equal('/v1/projects/gw-test-project/secrets/openai-json/versions/1:access');
    expect(gcp.tokenExchanges()).to.equal(1); // one token for both references: cached
  });

  it('env: a stored reference, and a bare GW_SECRET_REF_ name as before', async () => {
    await createReference(gw, { slug: 'env-openai', manager: 'env', secret_path: 'GW_SECRET_REF_OPENAI' });
    await mappedIntegration(gw, 'via-env', 'env-openai');
    await expectKey('via-env', KEYS.env);
    await mappedIntegration(gw, 'via-env-name', 'GW_SECRET_REF_OPENAI');
    await expectKey('via-env-name', KEYS.env);
  });

  it('maps a reference onto a configuration field as well as onto the key', async () => {
    const res = await call(gw, 'POST', '/v1/integrations', {
      slug: 'org-header', provider: 'openai', key: 'sk-own-key', configurations: { custom_host: `${gw.provider.url}/v1` },
      secret_mappings: [{ target_field: 'configurations.vendorD_organization', secret_reference: 'aws-plain' }],
    });
    expect(res.status, res.text).to.equal(200);
    const chat = await chatThrough(gw, 'org-header');
    expect(chat.status, chat.text).to.equal(200);
    expect(gw.provider.requests.at(-1)!.headers['openai-organization']).to.equal(KEYS.awsPlain);
    expect(lastKey(gw.provider)).to.equal('sk-own-key');
  });
});
