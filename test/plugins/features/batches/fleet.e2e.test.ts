/**
 * Managed batches on two gateways sharing one record store (in-process instances of a fleet, on
 * one data folder): a batch runs on the instance holding its lease and never on both; when that
 * instance stops mid-run, the other takes the batch over and finishes it with each line once.
 */
import { expect } from 'chai';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import type { TestGateway } from '../../../helpers/gateway.js';
import { call, chatLines, parseJsonl, startFeatureGateway, until, upload } from '../files/helpers.js';

const LEASES = { concurrency: 1, leaseTtlMs: 600, leaseHeartbeatMs: 100, leaseScanIntervalMs: 100 };

describe('feature.batches: two instances on one store (work leases)', () => {
  let mock: MockOpenAI;
  let a: TestGateway;
  let b: TestGateway;
  let direct: Record<string, string>;

  before(async () => {
    mock = await startMockOpenAI();
    direct = { 'x-gw-provider': 'openai', authorization: 'Bearer sk-test', 'x-gw-custom-host': `${mock.url}/v1` };
    // B owns the data folder (a test gateway removes its own folder when it stops); A joins it.
    b = await startFeatureGateway({ batches: LEASES });
    a = await startFeatureGateway({ batches: LEASES, env: { GW_DATA_DIR: b.dataDir } });
  });
  after(async () => {
    await a?.stop().catch(() => undefined);
    await b?.stop();
    await mock?.close();
  });

  const create = async (url: string, lines: number, prefix: string) => {
    const input = await upload(url, chatLines(lines, prefix, () => ({ user: prefix })));
    const reply = await call(url, 'POST', '/v1/batches', direct, { input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: 'immediate' });
    expect(reply.status).to.equal(200);
    return reply.json.id as string;
  };
  const sentFor = (prefix: string) => mock.requests.filter((r) => r.body?.user === prefix).length;

  it('runs a batch on one instance only, though the run outlasts several leases', async () => {
    // 12 lines of ~100 ms each, one at a time: over a second, twice the lease.
    for (let i = 0; i < 12; i++) mock.next({ delayMs: 100 });
    const id = await create(a.url, 12, 'solo');
    const done = (await until(() => call(b.url, 'GET', `/v1/batches/${id}`), (r) => r.json.status === 'completed', 20_000)).json;
    expect(done.request_counts).to.deep.equal({ total: 12, completed: 12, failed: 0 });
    const ids = parseJsonl((await call(b.url, 'GET', `/v1/files/${done.output_file_id}/content`)).text).map((l) => l.custom_id);
    expect(ids).to.deep.equal(Array.from({ length: 12 }, (_, i) => `solo-${i}`));
    // Every line reached the provider once: B never ran A's batch alongside it.
    expect(sentFor('solo')).to.equal(12);
  });

  it('stops the run on its instance when the batch is cancelled on the other', async () => {
    for (let i = 0; i < 20; i++) mock.next({ delayMs: 100 });
    const id = await create(b.url, 20, 'cancelled');
    await until(() => call(a.url, 'GET', `/v1/batches/${id}`), (r) => r.json.request_counts.completed >= 2, 20_000);
    const cancel = await call(a.url, 'POST', `/v1/batches/${id}/cancel`);
    expect(cancel.json.status).to.equal('cancelling');
    const done = (await until(() => call(a.url, 'GET', `/v1/batches/${id}`), (r) => r.json.status === 'cancelled', 20_000)).json;
    // Seen at B's next heartbeat (100 ms): far fewer than the 20 lines reached the provider.
    expect(done.request_counts.completed).to.be.below(12);
    expect(sentFor('cancelled')).to.equal(done.request_counts.completed);
  });

  it('is taken over by the other instance when its own stops mid-run, each line once in the output', async () => {
    for (let i = 0; i < 10; i++) mock.next({ delayMs: 100 });
    const id = await create(a.url, 10, 'moved');
    await until(() => call(a.url, 'GET', `/v1/batches/${id}`), (r) => r.json.request_counts.completed >= 3, 20_000);
    await a.stop();
    const done = (await until(() => call(b.url, 'GET', `/v1/batches/${id}`), (r) => r.json.status === 'completed', 20_000)).json;
    expect(done.request_counts).to.deep.equal({ total: 10, completed: 10, failed: 0 });
    const ids = parseJsonl((await call(b.url, 'GET', `/v1/files/${done.output_file_id}/content`)).text).map((l) => l.custom_id);
    expect(ids).to.deep.equal(Array.from({ length: 10 }, (_, i) => `moved-${i}`));
    // Finished lines were not sent again; at most the one in flight at the stop was.
    expect(sentFor('moved')).to.be.within(10, 11);
  });
});
