/**
 * How often a manager is asked: values kept for cacheTtlMs (per reference revision), concurrent
 * first uses sharing one fetch, 0 meaning every use. Read through the service itself so that the
 * integrations' own cache (secretTtlMs) does not hide ours.
 */
import { expect } from 'chai';
import { SecretReferencesService, type SecretReferences } from '../../../../plugins/security/secret-references/contract.js';
import { startVaultMock } from '../../../fixtures/mock-vault.js';
import type { SecretManagerMock } from '../../../fixtures/secret-manager-mock.js';
import { call, createReference, startSecretsGateway, type SecretsGateway } from './harness.js';

const TOKEN = 'hvs.cache-tests-token';
const org = { organisationId: 'default' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('security.secret-references: the value cache', () => {
  let vault: SecretManagerMock;
  let value = 'sk-first-value';
  before(async () => {
    vault = await startVaultMock({ token: TOKEN, secrets: { get 'secret/rotating'() { return { api_key: value }; } } as Record<string, Record<string, unknown>> });
  });
  after(async () => {
    await vault?.close();
  });

  async function gatewayWith(cacheTtlMs: number): Promise<{ gw: SecretsGateway; service: SecretReferences }> {
    const gw = await startSecretsGateway({ cacheTtlMs });
    await createReference(gw, { slug: 'rotating', manager: 'vault', secret_path: 'rotating', secret_key: 'api_key', manager_config: { address: vault.url, token: TOKEN } });
    return { gw, service: gw.gateway.runtime.services.get(SecretReferencesService) };
  }

  it('keeps a value for cacheTtlMs, then fetches it again', async () => {
    const { gw, service } = await gatewayWith(300);
    try {
      value = 'sk-first-value';
      const reads = vault.reads();
      expect(await service.resolve('rotating', org)).to.equal('sk-first-value');
      value = 'sk-rotated-value';
      // From memory, synchronously: no promise, no fetch.
      expect(service.resolve('rotating', org)).to.equal('sk-first-value');
      expect(vault.reads() - reads).to.equal(1);
      await sleep(350);
      expect(await service.resolve('rotating', org)).to.equal('sk-rotated-value');
      expect(vault.reads() - reads).to.equal(2);
    } finally {
      await gw.stop();
    }
  });

  it('shares one fetch between concurrent first uses, and fetches on every use with cacheTtlMs 0', async () => {
    const { gw, service } = await gatewayWith(0);
    try {
      const reads = vault.reads();
      vault.next({ delayMs: 50 });
      const values = await Promise.all(Array.from({ length: 8 }, () => service.resolve('rotating', org)));
      expect(new Set(values).size).to.equal(1);
      expect(vault.reads() - reads).to.equal(1);
      await service.resolve('rotating', org);
      await service.resolve('rotating', org);
      expect(vault.reads() - reads).to.equal(3);
    } finally {
      await gw.stop();
    }
  });

  it('an updated reference is fetched afresh; a failure is not cached', async () => {
    const { gw, service } = await gatewayWith(60_000);
    try {
      value = 'sk-before-update';
      expect(await service.resolve('rotating', org)).to.equal('sk-before-update');
      value = 'sk-after-update';
      expect(service.resolve('rotating', org)).to.equal('sk-before-update');
      expect((await call(gw, 'PATCH', '/v1/secret-references/rotating', { description: 'touched' })).status).to.equal(200);
      expect(await service.resolve('rotating', org)).to.equal('sk-after-update');

      const other = await createReference(gw, { slug: 'flaky', manager: 'vault', secret_path: 'rotating', secret_key: 'api_key', manager_config: { address: vault.url, token: TOKEN } });
      expect(other.slug).to.equal('flaky');
      vault.next({ status: 500, body: { errors: ['boom'] } });
      let failure: any;
      try {
        await service.resolve('flaky', org);
      } catch (e) {
        failure = e;
      }
      expect(failure?.status).to.equal(502);
      expect(await service.resolve('flaky', org)).to.equal('sk-after-update');
    } finally {
      await gw.stop();
    }
  });

  it('answers undefined for an unknown slug and for names outside the env prefix, and reads GW_SECRET_REF_ names', async () => {
    const gw = await startSecretsGateway({}, { env: { GW_SECRET_REF_PLAIN: 'sk-from-env', GW_OTHER: 'not-readable' } });
    try {
      const service = gw.gateway.runtime.services.get(SecretReferencesService);
      expect(service.resolve('no-such-reference', org)).to.equal(undefined);
      expect(service.resolve('GW_OTHER', org)).to.equal(undefined);
      expect(service.resolve('GW_SECRET_KEY', org)).to.equal(undefined);
      expect(service.resolve('GW_SECRET_REF_PLAIN', org)).to.equal('sk-from-env');
      expect(service.exists?.('GW_SECRET_REF_PLAIN', 'default')).to.equal(true);
      expect(service.exists?.('no-such-reference', 'default')).to.equal(false);
    } finally {
      await gw.stop();
    }
  });
});
