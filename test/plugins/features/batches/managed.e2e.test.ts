/**
 * feature.batches, gateway-managed batches end to end: a real gateway, the mock OpenAI provider,
 * raw HTTP and the openai SDK. Life cycle with good and failing lines, validation failures,
 * routing and retries applied to lines, cancel mid-run, list pagination, secrets at rest.
 */
import { expect } from 'chai';
import OpenAI from 'openai';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { addKey, call, chatLines, parseJsonl, startFeatureGateway, until, upload } from '../files/helpers.js';
import { openRecords } from '../../../helpers/records.js';

const TERMINAL = ['completed', 'failed', 'expired', 'cancelled'];

describe('feature.batches: gateway-managed batches', () => {
  let gw: TestGateway;
  let mock: MockOpenAI;
  let direct: Record<string, string>;

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startFeatureGateway({ batches: { concurrency: 3 } });
    direct = { 'x-gw-provider': 'openai', authorization: 'Bearer sk-test', 'x-gw-custom-host': `${mock.url}/v1` };
  });
  after(async () => {
    await gw.stop();
    await mock.close();
  });
  beforeEach(() => mock.reset());

  const create = (body: Record<string, unknown>, headers = direct) => call(gw.url, 'POST', '/v1/batches', headers, body);
  const get = (id: string) => call(gw.url, 'GET', `/v1/batches/${id}`);
  const finished = async (id: string, timeoutMs = 10_000) => (await until(() => get(id), (r) => TERMINAL.includes(r.json?.status), timeoutMs)).json;
  const content = async (fileId: string) => parseJsonl((await call(gw.url, 'GET', `/v1/files/${fileId}/content`)).text);
  const immediate = (input: string, extra: Record<string, unknown> = {}) => ({ input_file_id: input, endpoint: '/v1/chat/completions', completion_window: 'immediate', ...extra });

  describe('create: validation', () => {
    let fileId: string;
    before(async () => {
      fileId = (await upload(gw.url, chatLines(1))).id;
    });

    it('answers 400 naming the field for a bad body', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ endpoint: '/v1/chat/completions', completion_window: '24h' }, 'body.input_file_id: is required'],
        [immediate(fileId, { endpoint: '/v1/responses' }), 'body.endpoint: must be one of "/v1/chat/completions", "/v1/completions", "/v1/embeddings"'],
        [immediate(fileId, { completion_window: '1h' }), 'body.completion_window: must be one of "24h", "immediate"'],
        [immediate(fileId, { metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) }), 'body.metadata: must have at most 16 key-value pairs'],
        [immediate(fileId, { metadata: { ['k'.repeat(65)]: 'v' } }), 'body.metadata: key "kkkkkkkkkkkkkkkkkkkk..." must be at most 64 characters'],
        [immediate(fileId, { metadata: { note: 'v'.repeat(513) } }), 'body.metadata.note: must be at most 512 characters'],
      ];
      for (const [body, message] of cases) {
        const reply = await create(body);
        expect(reply.status, message).to.equal(400);
        expect(reply.json.error.message).to.equal(message);
      }
    });

    it('answers 400 for an unknown input file or one uploaded for fine-tuning', async () => {
      const strategy = { 'x-gw-config': JSON.stringify({ strategy: { mode: 'fallback' }, targets: [{ provider: 'openai', api_key: 'k', custom_host: `${mock.url}/v1` }] }) };
      const unknown = await create(immediate('file-00000000000000000000000000000000ab'), strategy);
      expect(unknown.status).to.equal(400);
      expect(unknown.json.error).to.deep.include({ param: 'input_file_id', message: 'body.input_file_id: no file with id "file-00000000000000000000000000000000ab"' });
      const tune = (await upload(gw.url, chatLines(1), 'fine-tune')).id;
      const wrong = await create(immediate(tune));
      expect(wrong.status).to.equal(400);
      expect(wrong.json.error.message).to.match(/has purpose "fine-tune", not "batch"/);
    });

    it('fetches an input file it does not hold from the provider the request names; fails the batch when it is not there', async () => {
      const created = await create(immediate('file-provider-side'));
      expect(created.status).to.equal(200);
      const batch = await finished(created.json.id);
      expect(batch.status).to.equal('failed');
      expect(batch.errors.data[0]).to.deep.include({ code: 'invalid_input_file', param: 'input_file_id', line: null });
      expect(batch.errors.data[0].message).to.match(/could not be fetched from the provider/);
      expect(mock.requests.map((r) => r.path)).to.deep.equal(['/v1/files/file-provider-side/content']);
    });

    it('answers 400 without a config and for a bad one, 401 without a key', async () => {
      const none = await create(immediate(fileId), {});
      expect(none.status).to.equal(400);
      expect(none.json.error.message).to.match(/no config/);
      const bad = await create(immediate(fileId), { 'x-gw-config': JSON.stringify({ retry: { attempts: 99 }, provider: 'openai', api_key: 'k' }) });
      expect(bad.status).to.equal(400);
      expect(bad.json.error.message).to.equal('config.retry.attempts: must be <= 10');
      const res = await fetch(`${gw.url}/v1/batches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(immediate(fileId)) });
      expect(res.status).to.equal(401);
    });

    it('answers 404 for an unknown batch (get and cancel)', async () => {
      expect((await get('batch_nope')).status).to.equal(404);
      const cancel = await call(gw.url, 'POST', '/v1/batches/batch_nope/cancel');
      expect(cancel.status).to.equal(404);
      expect(cancel.json.error.code).to.equal('batch_not_found');
    });
  });

  describe('life cycle', () => {
    it('runs good and failing lines: output file, error file, counts and timestamps', async () => {
      const lines = chatLines(6, 'ok') + JSON.stringify({
        custom_id: 'bad-temperature', method: 'POST', url: '/v1/chat/completions',
        body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], temperature: 5 },
      }) + '\n';
      const input = await upload(gw.url, lines);
      mock.next({ status: 500 });
      const created = await create(immediate(input.id, { metadata: { team: 'search' } }));
      expect(created.status).to.equal(200);
      expect(created.json).to.deep.include({
        object: 'batch', endpoint: '/v1/chat/completions', input_file_id: input.id, completion_window: 'immediate',
        status: 'validating', errors: null, output_file_id: null, error_file_id: null, metadata: { team: 'search' },
      });
      expect(created.json.id).to.match(/^batch_[0-9a-f]{34}$/);
      expect(created.json.expires_at).to.equal(created.json.created_at + 86400);

      const batch = await finished(created.json.id);
      expect(batch.status).to.equal('completed');
      expect(batch.request_counts).to.deep.equal({ total: 7, completed: 5, failed: 2 });
      for (const stamp of ['in_progress_at', 'finalizing_at', 'completed_at']) {
        expect(batch[stamp], stamp).to.be.a('number').and.satisfy(Number.isInteger).and.be.at.least(batch.created_at);
      }
      expect(batch).to.deep.include({ failed_at: null, expired_at: null, cancelling_at: null, cancelled_at: null, errors: null });

      const output = await content(batch.output_file_id);
      const errors = await content(batch.error_file_id);
      expect(output).to.have.length(5);
      expect(errors).to.have.length(2);
      for (const line of output) {
        expect(line.id).to.match(/^batch_req_/);
        expect(line.error).to.equal(null);
        expect(line.response.status_code).to.equal(200);
        expect(line.response.request_id).to.match(/^req_mock_\d+$/);
        expect(line.response.body.object).to.equal('chat.completion');
      }
      // Non-2xx answers go to the error file with their status and body, `error` null (OpenAI's format).
      const byId = Object.fromEntries(errors.map((l) => [l.custom_id, l]));
      expect(byId['bad-temperature'].response.status_code).to.equal(400);
      expect(byId['bad-temperature'].response.body.error.message).to.equal('body.temperature: must be <= 2');
      expect(byId['bad-temperature'].error).to.equal(null);
      const upstreamFailure = errors.find((l) => l.custom_id !== 'bad-temperature');
      expect(upstreamFailure.response.status_code).to.equal(500);
      expect(upstreamFailure.response.body.provider).to.equal('openai');
      // Every line exactly once, in input order within each file.
      const ids = [...output, ...errors].map((l) => l.custom_id).sort();
      expect(ids).to.deep.equal(['bad-temperature', 'ok-0', 'ok-1', 'ok-2', 'ok-3', 'ok-4', 'ok-5']);
      const order = output.map((l) => Number(l.custom_id.slice(3)));
      expect(order).to.deep.equal([...order].sort((a, b) => a - b));

      const outFile = (await call(gw.url, 'GET', `/v1/files/${batch.output_file_id}`)).json;
      expect(outFile).to.deep.include({ purpose: 'batch_output', filename: `${batch.id}_output.jsonl` });
      // 6 upstream calls: the invalid body was refused by the gateway before any call.
      expect(mock.requests).to.have.length(6);
      // Lines reach the provider as a live request would: its key, never the gateway key.
      expect(mock.requests[0]!.headers['authorization']).to.equal('Bearer sk-test');
      expect(mock.requests[0]!.headers['x-gw-api-key']).to.equal(undefined);
    });

    it('works through the openai SDK (batches.create / retrieve / list, files.content)', async () => {
      const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${gw.url}/v1`, maxRetries: 0, defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-provider': 'openai', 'x-gw-custom-host': `${mock.url}/v1` } });
      const input = await upload(gw.url, chatLines(2, 'sdk'));
      const created = await client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: 'immediate' as '24h' });
      const done = await until(() => client.batches.retrieve(created.id), (b) => b.status === 'completed');
      expect(done.request_counts).to.deep.equal({ total: 2, completed: 2, failed: 0 });
      const text = await (await client.files.content(done.output_file_id!)).text();
      expect(parseJsonl(text).map((l) => l.custom_id)).to.deep.equal(['sdk-0', 'sdk-1']);
      const page = await client.batches.list({ limit: 1 });
      expect(page.data[0]!.id).to.equal(created.id);
      expect(done.error_file_id).to.equal(null);
    });

    it('runs embeddings and completions batches', async () => {
      const embedLines = ['a', 'b'].map((t) => JSON.stringify({ custom_id: t, method: 'POST', url: '/v1/embeddings', body: { model: 'text-embedding-3-small', input: t } })).join('\n');
      const emb = await create({ input_file_id: (await upload(gw.url, embedLines)).id, endpoint: '/v1/embeddings', completion_window: 'immediate' });
      const cmpLine = JSON.stringify({ custom_id: 'c', method: 'POST', url: '/v1/completions', body: { model: 'gpt-3.5-turbo-instruct', prompt: 'Say' } });
      const cmp = await create({ input_file_id: (await upload(gw.url, cmpLine)).id, endpoint: '/v1/completions', completion_window: 'immediate' });
      const embDone = await finished(emb.json.id);
      const cmpDone = await finished(cmp.json.id);
      expect((await content(embDone.output_file_id))[0].response.body.object).to.equal('list');
      expect((await content(cmpDone.output_file_id))[0].response.body.object).to.equal('text_completion');
    });

    it('fails the whole batch on bad input lines, reporting each with its line number', async () => {
      const text = [
        JSON.stringify({ custom_id: 'a', method: 'POST', url: '/v1/chat/completions', body: { model: 'm', messages: [] } }),
        '{broken',
        JSON.stringify({ custom_id: 'a', method: 'POST', url: '/v1/chat/completions', body: {} }),
        '',
        JSON.stringify({ custom_id: 'b', method: 'POST', url: '/v1/embeddings', body: {} }),
      ].join('\n');
      const created = await create(immediate((await upload(gw.url, text)).id));
      const batch = await finished(created.json.id);
      expect(batch.status).to.equal('failed');
      expect(batch.failed_at).to.be.a('number');
      expect(batch.in_progress_at).to.equal(null);
      expect(batch.errors.object).to.equal('list');
      expect(batch.errors.data.map((e: { code: string; line: number }) => [e.code, e.line])).to.deep.equal([
        ['invalid_json_line', 2], ['duplicate_custom_id', 3], ['invalid_url', 5],
      ]);
      expect(batch.errors.data[2]).to.deep.include({ param: 'url' });
      expect(batch).to.deep.include({ output_file_id: null, error_file_id: null });
      expect(mock.requests).to.have.length(0);
    });

    it('fails an empty file and a file that is not UTF-8', async () => {
      const empty = await finished((await create(immediate((await upload(gw.url, '\n\n')).id))).json.id);
      expect(empty.errors.data[0]).to.deep.include({ code: 'empty_file', line: null });
      const latin1 = await finished((await create(immediate((await upload(gw.url, Buffer.from([0x7b, 0xe9, 0x7d, 0x0a]))).id))).json.id);
      expect(latin1.errors.data[0]).to.deep.include({ code: 'invalid_encoding', line: 1 });
    });

    it('runs every line with the config it was created with: routing and retries apply as live', async () => {
      const config = {
        retry: { attempts: 2, on_status_codes: [503] },
        strategy: { mode: 'fallback' },
        targets: [
          { provider: 'openai', api_key: 'sk-dead', custom_host: 'http://127.0.0.1:9/v1' },
          { provider: 'openai', api_key: 'sk-live', custom_host: `${mock.url}/v1` },
        ],
      };
      mock.next({ status: 503 });
      // A strategy config: a 24h batch is gateway-managed too (no single provider to hand it to).
      const created = await create({ ...immediate((await upload(gw.url, chatLines(3, 'r'))).id), completion_window: '24h' }, { 'x-gw-config': JSON.stringify(config) });
      const batch = await finished(created.json.id);
      expect(batch.request_counts).to.deep.equal({ total: 3, completed: 3, failed: 0 });
      expect(mock.requests).to.have.length(4); // one 503 retried
      expect(mock.requests.every((r) => r.headers['authorization'] === 'Bearer sk-live')).to.equal(true);
    });

    it('keeps the stored config encrypted at rest', async () => {
      const created = await create(immediate((await upload(gw.url, chatLines(1))).id), { ...direct, authorization: 'Bearer sk-very-secret-provider-key' });
      await finished(created.json.id);
      const db = await openRecords(gw.dataDir);
      try {
        const row = (await db.get<{ sealed: string }>('SELECT sealed FROM batches WHERE id = ?', [created.json.id]))!;
        expect(row.sealed).to.match(/^v1:/);
        expect(row.sealed).not.to.contain('sk-very-secret');
        const dump = JSON.stringify(await db.all('SELECT * FROM batches'));
        expect(dump).not.to.contain('sk-very-secret');
        expect(dump).not.to.contain(TEST_API_KEY);
      } finally {
        await db.close();
      }
    });
  });

  describe('cancel', () => {
    let slow: TestGateway;
    before(async () => {
      slow = await startFeatureGateway({ batches: { concurrency: 2 } });
    });
    after(async () => {
      await slow.stop();
    });

    it('stops scheduling, lets in-flight lines finish, writes what finished, then cancelled', async () => {
      for (let i = 0; i < 40; i++) mock.next({ delayMs: 60 });
      const input = await upload(slow.url, chatLines(20, 'c'));
      const created = await call(slow.url, 'POST', '/v1/batches', direct, immediate(input.id));
      await until(() => call(slow.url, 'GET', `/v1/batches/${created.json.id}`), (r) => r.json.request_counts.completed >= 2);
      const cancelled = await call(slow.url, 'POST', `/v1/batches/${created.json.id}/cancel`);
      expect(cancelled.status).to.equal(200);
      expect(cancelled.json.status).to.equal('cancelling');
      expect(cancelled.json.cancelling_at).to.be.a('number');
      const again = await call(slow.url, 'POST', `/v1/batches/${created.json.id}/cancel`);
      expect(again.status).to.equal(200);
      expect(['cancelling', 'cancelled']).to.include(again.json.status);

      const batch = (await until(() => call(slow.url, 'GET', `/v1/batches/${created.json.id}`), (r) => r.json.status === 'cancelled')).json;
      expect(batch.cancelled_at).to.be.at.least(batch.cancelling_at);
      expect(batch.completed_at).to.equal(null);
      const done = batch.request_counts.completed;
      expect(done).to.be.within(2, 19);
      // Every upstream call that started was recorded: nothing ran after the cancel, nothing was dropped.
      expect(mock.requests).to.have.length(done);
      const output = parseJsonl((await call(slow.url, 'GET', `/v1/files/${batch.output_file_id}/content`)).text);
      expect(output).to.have.length(done);
      expect(new Set(output.map((l) => l.custom_id)).size).to.equal(done);
      expect(batch.error_file_id).to.equal(null);
    });

    it('refuses to cancel a finished batch', async () => {
      const created = await call(slow.url, 'POST', '/v1/batches', direct, immediate((await upload(slow.url, chatLines(1))).id));
      await until(() => call(slow.url, 'GET', `/v1/batches/${created.json.id}`), (r) => r.json.status === 'completed');
      const reply = await call(slow.url, 'POST', `/v1/batches/${created.json.id}/cancel`);
      expect(reply.status).to.equal(400);
      expect(reply.json.error).to.deep.include({ code: 'batch_not_cancellable', message: `batch ${created.json.id} is completed and can no longer be cancelled` });
    });
  });

  describe('list', () => {
    let listGw: TestGateway;
    const ids: string[] = [];
    before(async () => {
      listGw = await startFeatureGateway();
      const input = await upload(listGw.url, chatLines(1));
      for (let i = 0; i < 3; i++) {
        ids.push((await call(listGw.url, 'POST', '/v1/batches', direct, immediate(input.id, { metadata: { n: String(i) } }))).json.id);
      }
    });
    after(async () => {
      await listGw.stop();
    });
    const list = (q = '') => call(listGw.url, 'GET', `/v1/batches${q}`);

    it('lists newest first: {object, data, first_id, last_id, has_more}', async () => {
      const reply = await list();
      expect(reply.json.object).to.equal('list');
      expect(reply.json.data.map((b: { id: string }) => b.id)).to.deep.equal([...ids].reverse());
      expect(reply.json).to.deep.include({ first_id: ids[2], last_id: ids[0], has_more: false });
      expect(reply.json.data[0].metadata).to.deep.equal({ n: '2' });
    });

    it('pages with after and limit, exactly to the end', async () => {
      const first = await list('?limit=2');
      expect(first.json.data.map((b: { id: string }) => b.id)).to.deep.equal([ids[2], ids[1]]);
      expect(first.json.has_more).to.equal(true);
      const second = await list(`?limit=2&after=${first.json.last_id}`);
      expect(second.json.data.map((b: { id: string }) => b.id)).to.deep.equal([ids[0]]);
      expect(second.json.has_more).to.equal(false);
      const exact = await list(`?limit=1&after=${ids[1]}`);
      expect(exact.json).to.deep.include({ has_more: false, first_id: ids[0], last_id: ids[0] });
      const empty = await list(`?after=${ids[0]}`);
      expect(empty.json).to.deep.include({ data: [], first_id: null, last_id: null, has_more: false });
    });

    it('shows batches only to their own organisation', async () => {
      await addKey(listGw, 'stranger-key', 'another-org');
      const stranger = { 'x-gw-api-key': 'stranger-key' };
      expect((await call(listGw.url, 'GET', '/v1/batches', stranger)).json.data).to.deep.equal([]);
      expect((await call(listGw.url, 'GET', `/v1/batches/${ids[0]}`, stranger)).status).to.equal(404);
      expect((await call(listGw.url, 'POST', `/v1/batches/${ids[0]}/cancel`, stranger)).status).to.equal(404);
    });

    it('refuses a bad limit', async () => {
      const reply = await list('?limit=101');
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.equal('query.limit: must be an integer from 1 to 100');
    });
  });
});
