/**
 * feature.responses worker leases against a real SQLite file: which unfinished records a sweep fails
 * (those of workers without a lease) and which it leaves (live workers', finished ones, provider-owned ones).
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../../../core/index.js';
import { pendingResponse, type ResponseObject } from '../../../../plugins/features/responses/response-object.js';
import { ResponseStore, type Owner } from '../../../../plugins/features/responses/response-store.js';
import { WORKER_GONE, WorkerLease } from '../../../../plugins/features/responses/worker-lease.js';
import { SqliteStore } from '../../../../plugins/stores/sqlite/sqlite-store.js';

const owner: Owner = { organisation: 'org-1', workspace: null };
const logger = createLogger('silent');

describe('feature.responses worker leases', () => {
  let dir: string;
  let sqlite: SqliteStore;
  let store: ResponseStore;
  const leases: WorkerLease[] = [];

  const record = (id: string, status: ResponseObject['status'] = 'in_progress'): ResponseObject => ({
    ...pendingResponse(id, { model: 'm', input: 'x' }, 1), status,
  });
  const statusOf = async (id: string) => (await store.get(owner, id))!.response;
  const startLease = async () => {
    const lease = new WorkerLease(store, 60_000, logger);
    leases.push(lease);
    await lease.start();
    return lease;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gw-leases-'));
    sqlite = new SqliteStore(join(dir, 'gw.db'));
    store = new ResponseStore(sqlite);
    await store.init();
  });
  afterEach(async () => {
    for (const lease of leases.splice(0)) await lease.stop();
    sqlite.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("fails only the unfinished records of workers without a lease, with OpenAI's error shape", async () => {
    const live = await startLease();
    await store.insert(owner, record('resp_live'), [], live.id);
    await store.renewLease('crashed', Date.now() - 1);
    await store.insert(owner, record('resp_crashed'), [], 'crashed');
    await store.insert(owner, record('resp_never_leased'), [], 'vanished-before-its-first-renewal');
    await store.insert(owner, record('resp_done', 'completed'), [], 'crashed');
    await store.insert(owner, record('resp_native'), []); // stored as a provider reported it: no worker of ours

    await startLease(); // a second instance on the same database

    for (const id of ['resp_crashed', 'resp_never_leased']) {
      const failed = await statusOf(id);
      expect(failed.status, id).to.equal('failed');
      expect(failed.error).to.deep.equal({ code: 'server_error', message: WORKER_GONE.message });
      expect(failed.error!.message).to.match(/gateway restarted/);
    }
    expect((await statusOf('resp_live')).status).to.equal('in_progress');
    expect((await statusOf('resp_done')).status).to.equal('completed');
    expect((await statusOf('resp_native')).status).to.equal('in_progress');
    expect(await sqlite.all('SELECT id FROM response_workers WHERE id = ?', ['crashed'])).to.deep.equal([]);
  });

  it('a graceful stop gives up the lease and fails what the worker left unfinished', async () => {
    const stopping = await startLease();
    const other = await startLease();
    await store.insert(owner, record('resp_left'), [], stopping.id);
    await store.insert(owner, record('resp_other'), [], other.id);
    await stopping.stop();
    leases.splice(leases.indexOf(stopping), 1);
    expect((await statusOf('resp_left')).status).to.equal('failed');
    expect((await statusOf('resp_other')).status).to.equal('in_progress');
  });

  it("a record its worker finished after the sweep read it keeps the worker's outcome", async () => {
    await store.insert(owner, record('resp_raced'), [], 'crashed');
    const [abandoned] = await store.abandoned(Date.now());
    await store.update(record('resp_raced', 'completed'));
    expect(await store.replaceAbandoned(abandoned!, record('resp_raced', 'failed'))).to.equal(false);
    expect((await statusOf('resp_raced')).status).to.equal('completed');
  });

  it('unfinished records written before leases existed belong to no live worker', async () => {
    const legacyDir = await mkdtemp(join(tmpdir(), 'gw-leases-legacy-'));
    const legacy = new SqliteStore(join(legacyDir, 'gw.db'));
    try {
      // The schema as its first migration step left it.
      await legacy.migrate('feature.responses', [`CREATE TABLE stored_responses (
        id TEXT PRIMARY KEY, organisation_id TEXT NOT NULL, workspace_id TEXT, created_at INTEGER NOT NULL,
        status TEXT NOT NULL, previous_response_id TEXT, input TEXT NOT NULL, response TEXT NOT NULL)`]);
      for (const response of [record('resp_old_pending'), record('resp_old_done', 'completed')]) {
        await legacy.run('INSERT INTO stored_responses VALUES (?, ?, NULL, 1, ?, NULL, ?, ?)', [response.id, owner.organisation, response.status, '[]', JSON.stringify(response)]);
      }
      const upgraded = new ResponseStore(legacy);
      await upgraded.init();
      const lease = new WorkerLease(upgraded, 60_000, logger);
      await lease.start();
      await lease.stop();
      expect((await upgraded.get(owner, 'resp_old_pending'))!.response).to.deep.include({ status: 'failed', error: WORKER_GONE });
      expect((await upgraded.get(owner, 'resp_old_done'))!.response.status).to.equal('completed');
    } finally {
      legacy.close();
      await rm(legacyDir, { recursive: true, force: true });
    }
  });
});
