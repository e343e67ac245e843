/**
 * Seeding the first key is idempotent when instances boot together on one store: three gateways
 * started at once on one fresh PostgreSQL schema (or one SQLite data folder) leave exactly one key.
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway, createLogger, Services, type Gateway } from '../../../../host/index.js';
import { spawnMain } from '../../../helpers/main-process.js';
import { freshSchema, testDatabaseUrl } from '../../../helpers/pg-schema.js';

const silent = createLogger('silent');

async function bootThree(env: Record<string, string>): Promise<Gateway[]> {
  return Promise.all([1, 2, 3].map(() => createGateway({ env: { GW_LOG_LEVEL: 'silent', ...env }, logger: silent })));
}

async function keysOf(gateway: Gateway): Promise<{ name: string; type: string }[]> {
  return gateway.runtime.services.get(Services.Records).all('SELECT name, type FROM api_keys');
}

describe('auth.api-key: the first key, seeded by instances booting together', function () {
  this.timeout(30_000);
  let dataDir: string;
  let gateways: Gateway[] = [];
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gw-seed-'));
  });
  afterEach(async () => {
    await Promise.all(gateways.map((g) => g.close()));
    gateways = [];
    await rm(dataDir, { recursive: true, force: true });
  });

  describe('on one PostgreSQL schema', () => {
    before(function () {
      if (!testDatabaseUrl()) this.skip();
    });

    for (const given of [true, false]) {
      it(`leaves exactly one key ${given ? 'from GW_BOOTSTRAP_API_KEY' : 'generated'}`, async () => {
        const schema = await freshSchema();
        try {
          gateways = await bootThree({
            GW_DATA_DIR: dataDir, GW_DATABASE_URL: schema.url, ...(given ? { GW_BOOTSTRAP_API_KEY: 'gw-seed-key' } : {}),
          });
          expect(gateways.map((g) => g.runtime.services.get(Services.Records).kind)).to.deep.equal(['postgres', 'postgres', 'postgres']);
          expect(await keysOf(gateways[0]!)).to.deep.equal([{ name: given ? 'bootstrap' : 'generated', type: 'organisation-owner' }]);
        } finally {
          await Promise.all(gateways.map((g) => g.close()));
          gateways = [];
          await schema.drop();
        }
      });
    }
  });

  // Processes, as several workers of one machine would share the file (BEGIN IMMEDIATE serialises them).
  it('leaves exactly one key on one SQLite data folder shared by three processes', async () => {
    const env = { PORT: '0', GW_DATA_DIR: dataDir, GW_BOOTSTRAP_API_KEY: 'gw-seed-key', GW_LOG_LEVEL: 'silent' };
    const processes = await Promise.all([1, 2, 3].map(() => spawnMain([], env)));
    try {
      const db = new Database(join(dataDir, 'gw.db'), { readonly: true });
      try {
        expect(db.prepare('SELECT name, type FROM api_keys').all()).to.deep.equal([{ name: 'bootstrap', type: 'organisation-owner' }]);
      } finally {
        db.close();
      }
    } finally {
      await Promise.all(processes.map(({ child }) => new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      })));
    }
  });
});
