/**
 * No secret in any log line: the values a reference resolves to, the managers' tokens and keys,
 * through creation, reads, successful and failing chats, at the most verbose level.
 */
import { expect } from 'chai';
import { createLogger } from '../../../../core/index.js';
import { startVaultMock } from '../../../fixtures/mock-vault.js';
import type { SecretManagerMock } from '../../../fixtures/secret-manager-mock.js';
import { call, chatThrough, createReference, mappedIntegration, startSecretsGateway, type SecretsGateway } from './harness.js';

const TOKEN = 'hvs.log-test-token-5e4d3c2b1a';
const VALUE = 'sk-log-test-value-0f1e2d3c4b5a';

describe('security.secret-references: no secret in any log line', () => {
  let gw: SecretsGateway;
  let vault: SecretManagerMock;
  const lines: string[] = [];
  before(async () => {
    vault = await startVaultMock({ token: TOKEN, secrets: { 'secret/app': { api_key: VALUE } } });
    gw = await startSecretsGateway({ cacheTtlMs: 0 }, {
      integrations: { secretTtlMs: 0 },
      env: { GW_LOG_LEVEL: 'trace' },
      logger: createLogger('trace', { write: (line: string) => void lines.push(line) }),
    });
  });
  after(async () => {
    await gw?.stop();
    await vault?.close();
  });

  it('logs creation, reads, chats and failures without the value or the token', async () => {
    await createReference(gw, { slug: 'logged', manager: 'vault', secret_path: 'app', secret_key: 'api_key', manager_config: { address: vault.url, token: TOKEN } });
    await call(gw, 'GET', '/v1/secret-references/logged');
    await call(gw, 'PUT', '/v1/secret-references/logged', { manager_config: { address: vault.url, token: TOKEN } });
    await mappedIntegration(gw, 'i-logged', 'logged');
    expect((await chatThrough(gw, 'i-logged')).status).to.equal(200);
    vault.next({ status: 403, body: { errors: ['permission denied', VALUE] } });
    expect((await chatThrough(gw, 'i-logged')).status).to.equal(502);
    gw.provider.next({ status: 401 });
    expect((await chatThrough(gw, 'i-logged')).status).to.equal(401);
    expect((await call(gw, 'POST', '/v1/secret-references', { slug: 'bad', manager: 'vault', secret_path: 'x', manager_config: { token: TOKEN } })).status).to.equal(400);
    expect(lines.length).to.be.greaterThan(5);
    for (const line of lines) {
      expect(line).not.to.contain(VALUE);
      expect(line).not.to.contain(TOKEN);
    }
  });
});
