/**
 * Manager calls go through the shared transport, so the outbound host rules apply to them: a
 * denied manager address is refused before any connection, with the policy's 403 naming the
 * reference, and the manager never sees a request.
 */
import { expect } from 'chai';
import { startVaultMock } from '../../../fixtures/mock-vault.js';
import type { SecretManagerMock } from '../../../fixtures/secret-manager-mock.js';
import { chatThrough, createReference, lastKey, mappedIntegration, startSecretsGateway, type SecretsGateway } from './harness.js';

describe('security.secret-references: outbound host rules', () => {
  let gw: SecretsGateway;
  let vault: SecretManagerMock;
  before(async () => {
    vault = await startVaultMock({ token: 't', secrets: { 'secret/k': { api_key: 'sk-outbound-1234567890' } } });
    // The provider mock is on 127.0.0.1 (allowed); the same Vault named "localhost" is denied by name.
    gw = await startSecretsGateway({}, { env: { GW_OUTBOUND_DENY: 'localhost' } });
  });
  after(async () => {
    await gw?.stop();
    await vault?.close();
  });

  it('refuses a denied manager address with 403 outbound_host_denied naming the reference', async () => {
    const port = new URL(vault.url).port;
    await createReference(gw, { slug: 'denied-vault', manager: 'vault', secret_path: 'k', secret_key: 'api_key', manager_config: { address: `http://localhost:${port}`, token: 't' } });
    await mappedIntegration(gw, 'i-denied', 'denied-vault');
    const res = await chatThrough(gw, 'i-denied');
    expect(res.status, res.text).to.equal(403);
    expect(res.json.error).to.deep.include({
      code: 'outbound_host_denied', type: 'permission_error',
      message: 'integration "@i-denied" (key → secret reference "denied-vault"): secret reference "denied-vault" (vault): outbound host "localhost" is refused: it matches rule "localhost" of GW_OUTBOUND_DENY',
    });
    expect(vault.requests).to.have.length(0);
    expect(gw.provider.requests).to.have.length(0);

    // The same Vault by an allowed address serves.
    await createReference(gw, { slug: 'allowed-vault', manager: 'vault', secret_path: 'k', secret_key: 'api_key', manager_config: { address: vault.url, token: 't' } });
    await mappedIntegration(gw, 'i-allowed', 'allowed-vault');
    expect((await chatThrough(gw, 'i-allowed')).status).to.equal(200);
    expect(lastKey(gw.provider)).to.equal('sk-outbound-1234567890');
  });
});
