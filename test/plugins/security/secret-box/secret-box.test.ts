/** security.secret-box: AES-256-GCM sealing, tamper detection, key sources and the key file. */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Services, type Logger } from '../../../../core/index.js';
import { createGateway } from '../../../../host/index.js';
import SecretBoxPlugin from '../../../../plugins/security/secret-box/index.js';
import { loadOrCreateKeyFile, parseKey } from '../../../../plugins/security/secret-box/key.js';
import { AesGcmSecretBox } from '../../../../plugins/security/secret-box/secret-box.js';

describe('security.secret-box', () => {
  const box = new AesGcmSecretBox(randomBytes(32));

  describe('sealing', () => {
    it('round-trips text, including empty and non-ASCII strings', () => {
      for (const text of ['sk-live-123', '', 'ключ 🔑 "quoted" : colons', 'x'.repeat(10_000)]) {
        expect(box.decrypt(box.encrypt(text))).to.equal(text);
      }
    });

    it('writes v1:<iv>:<tag>:<ciphertext> in base64url, with a fresh IV every time', () => {
      const a = box.encrypt('same');
      const b = box.encrypt('same');
      expect(a).to.match(/^v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]*$/);
      expect(a).not.to.equal(b);
      expect(a).not.to.contain('same');
    });

    it('binds an optional context: the value opens only with the same context', () => {
      const sealed = box.encrypt('secret', 'batch_1');
      expect(box.decrypt(sealed, 'batch_1')).to.equal('secret');
      expect(() => box.decrypt(sealed, 'batch_2')).to.throw(/wrong key or tampered/);
      expect(() => box.decrypt(sealed)).to.throw(/wrong key or tampered/);
    });

    it('detects tampering with the ciphertext, the tag or the IV', () => {
      const [v, iv, tag, ct] = box.encrypt('pay the provider').split(':') as [string, string, string, string];
      const flip = (part: string) => {
        const bytes = Buffer.from(part, 'base64url');
        bytes[0]! ^= 1;
        return bytes.toString('base64url');
      };
      for (const tampered of [[v, iv, tag, flip(ct)], [v, iv, flip(tag), ct], [v, flip(iv), tag, ct]]) {
        expect(() => box.decrypt(tampered.join(':'))).to.throw(/wrong key or tampered/);
      }
    });

    it('refuses another key, unknown versions and malformed values', () => {
      const sealed = box.encrypt('x');
      expect(() => new AesGcmSecretBox(randomBytes(32)).decrypt(sealed)).to.throw(/wrong key or tampered/);
      expect(() => box.decrypt(sealed.replace(/^v1/, 'v2'))).to.throw(/not a sealed value/);
      expect(() => box.decrypt('plain text')).to.throw(/not a sealed value/);
      expect(() => box.decrypt('v1:AAAA:BBBB:CCCC')).to.throw(/malformed/);
    });

    it('needs a 32-byte key', () => {
      expect(() => new AesGcmSecretBox(randomBytes(16))).to.throw(/32 bytes/);
    });
  });

  describe('keys', () => {
    const key = randomBytes(32);

    it('reads 32 bytes as hex, base64 or base64url', () => {
      expect(parseKey(key.toString('hex'), 'K').equals(key)).to.equal(true);
      expect(parseKey(key.toString('base64'), 'K').equals(key)).to.equal(true);
      expect(parseKey(key.toString('base64url'), 'K').equals(key)).to.equal(true);
      expect(parseKey(`  ${key.toString('base64')}\n`, 'K').equals(key)).to.equal(true);
    });

    it('refuses keys of another length or alphabet, naming the source', () => {
      for (const bad of ['', 'short', randomBytes(16).toString('base64'), randomBytes(31).toString('hex'), 'z'.repeat(64)]) {
        expect(() => parseKey(bad, 'GW_SECRET_KEY')).to.throw(/GW_SECRET_KEY must be 32 bytes/);
      }
    });

    describe('key file', () => {
      let dir: string;
      beforeEach(async () => {
        dir = await mkdtemp(join(tmpdir(), 'gw-secret-'));
      });
      afterEach(async () => {
        await rm(dir, { recursive: true, force: true });
      });

      it('is generated once with mode 0600 and read back the next time', async () => {
        const file = join(dir, 'nested', 'secret.key');
        const first = await loadOrCreateKeyFile(file);
        expect(first.key.byteLength).to.equal(32);
        expect((await stat(file)).mode & 0o777).to.equal(0o600);
        const second = await loadOrCreateKeyFile(file);
        expect(second.key.equals(first.key)).to.equal(true);
        expect(second.warning).to.equal(undefined);
      });

      it('warns when the file is readable by others, and refuses a broken file', async () => {
        const file = join(dir, 'secret.key');
        await loadOrCreateKeyFile(file);
        await chmod(file, 0o644);
        expect((await loadOrCreateKeyFile(file)).warning).to.match(/mode 644; it should be 600/);
        await writeFile(file, 'not a key');
        let error: Error | undefined;
        await loadOrCreateKeyFile(file).catch((e: Error) => (error = e));
        expect(error?.message).to.match(/key file .* must be 32 bytes/);
      });
    });
  });

  describe('as a plugin', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'gw-secret-plugin-'));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    const boot = (env: Record<string, string>) => createGateway({
      plugins: [SecretBoxPlugin],
      env: { GW_DATA_DIR: dir, GW_LOG_LEVEL: 'silent', ...env },
    });

    it('registers the box as Services.SecretBox, keyed by GW_SECRET_KEY when set (no key file)', async () => {
      const key = randomBytes(32);
      const gateway = await boot({ GW_SECRET_KEY: key.toString('hex') });
      try {
        const registered = gateway.runtime.services.get(Services.SecretBox);
        const sealed = registered.encrypt('sk-provider', 'ctx');
        expect(new AesGcmSecretBox(key).decrypt(sealed, 'ctx')).to.equal('sk-provider');
        expect(await stat(join(dir, 'secret.key')).then(() => true, () => false)).to.equal(false);
      } finally {
        await gateway.close();
      }
    });

    it('otherwise generates <dataDir>/secret.key and keeps using it across restarts', async () => {
      const first = await boot({});
      const sealed = first.runtime.services.get(Services.SecretBox).encrypt('kept');
      await first.close();
      expect((await stat(join(dir, 'secret.key'))).mode & 0o777).to.equal(0o600);
      const second = await boot({});
      try {
        expect(second.runtime.services.get(Services.SecretBox).decrypt(sealed)).to.equal('kept');
        const stored = parseKey(await readFile(join(dir, 'secret.key'), 'utf8'), 'file');
        expect(new AesGcmSecretBox(stored).decrypt(sealed)).to.equal('kept');
      } finally {
        await second.close();
      }
    });

    it('fails to boot with a clear message for a bad GW_SECRET_KEY', async () => {
      let error: Error | undefined;
      await boot({ GW_SECRET_KEY: 'too-short' }).catch((e: Error) => (error = e));
      expect(error?.message).to.match(/security\.secret-box.*GW_SECRET_KEY must be 32 bytes/);
    });

    it('logs a warning for a key file others can read', async () => {
      await loadOrCreateKeyFile(join(dir, 'secret.key'));
      await chmod(join(dir, 'secret.key'), 0o640);
      const warnings: string[] = [];
      const logger = { warn: (msg: string) => warnings.push(msg), child: () => logger, info: () => undefined, error: () => undefined, debug: () => undefined } as unknown as Logger;
      const gateway = await createGateway({ plugins: [SecretBoxPlugin], env: { GW_DATA_DIR: dir }, logger });
      await gateway.close();
      expect(warnings.join()).to.match(/should be 600/);
    });
  });
});
