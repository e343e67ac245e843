/**
 * feature.batches, provider batches: a `24h` batch for a provider with a batch API is forwarded
 * (input file uploaded to the provider first), ids and statuses mapped to our Batch object, GET and
 * cancel forwarded with the credentials stored (sealed) at creation.
 */
import { expect } from 'chai';
import { startMockOpenAIBatches, type MockOpenAIBatches } from '../../../fixtures/mock-openai-batches.js';
import type { TestGateway } from '../../../helpers/gateway.js';
import { call, chatLines, form, parseJsonl, startFeatureGateway, until, upload } from '../files/helpers.js';

describe('feature.batches: provider batches', () => {
  let gw: TestGateway;
  let provider: MockOpenAIBatches;
  let direct: Record<string, string>;

  before(async () => {
    provider = await startMockOpenAIBatches();
    gw = await startFeatureGateway();
    direct = { 'x-gw-provider': 'openai', authorization: 'Bearer sk-provider', 'x-gw-custom-host': `${provider.url}/v1` };
  });
  after(async () => {
    await gw.stop();
    await provider.close();
  });
  beforeEach(() => {
    provider.requests.length = 0;
  });

  const body = (input: string, extra: Record<string, unknown> = {}) => ({ input_file_id: input, endpoint: '/v1/chat/completions', completion_window: '24h', ...extra });

  it('uploads a gateway file to the provider, forwards the batch and maps the answer', async () => {
    const content = chatLines(3, 'p');
    const local = await upload(gw.url, content);
    const created = await call(gw.url, 'POST', '/v1/batches', direct, body(local.id, { metadata: { run: '7' } }));
    expect(created.status).to.equal(200);
    const [fileUpload, batchCreate] = provider.requests;
    expect(fileUpload!.path).to.equal('/v1/files');
    const providerFile = [...provider.files.values()].at(-1)!;
    expect(providerFile.content.toString()).to.equal(content);
    expect(providerFile).to.deep.include({ purpose: 'batch', filename: 'input.jsonl' });
    expect(batchCreate!.path).to.equal('/v1/batches');
    expect(batchCreate!.json).to.deep.equal({ input_file_id: providerFile.id, endpoint: '/v1/chat/completions', completion_window: '24h', metadata: { run: '7' } });
    expect(batchCreate!.headers['authorization']).to.equal('Bearer sk-provider');

    const ours = created.json;
    const theirs = [...provider.batches.values()].at(-1)!;
    expect(ours.id).to.match(/^batch_[0-9a-f]{34}$/);
    expect(ours).to.deep.include({
      object: 'batch', input_file_id: local.id, completion_window: '24h', status: 'validating',
      created_at: theirs['created_at'], expires_at: theirs['expires_at'], metadata: { run: '7' },
      request_counts: { total: 0, completed: 0, failed: 0 },
    });
  });

  it('forwards GET with the stored credentials and maps progress; the list shows the last known state', async () => {
    const local = await upload(gw.url, chatLines(2));
    const ours = (await call(gw.url, 'POST', '/v1/batches', direct, body(local.id))).json;
    const theirs = [...provider.batches.values()].at(-1)!;
    provider.update(theirs['id'], { status: 'in_progress', in_progress_at: theirs['created_at'] + 1, request_counts: { total: 2, completed: 1, failed: 0 } });

    provider.requests.length = 0;
    // No provider headers on the GET: the batch remembers where it lives.
    const got = await call(gw.url, 'GET', `/v1/batches/${ours.id}`);
    expect(got.json).to.deep.include({ id: ours.id, status: 'in_progress', in_progress_at: theirs['created_at'] + 1, request_counts: { total: 2, completed: 1, failed: 0 } });
    expect(provider.requests[0]!.path).to.equal(`/v1/batches/${theirs['id']}`);
    expect(provider.requests[0]!.headers['authorization']).to.equal('Bearer sk-provider');

    provider.update(theirs['id'], { status: 'completed', completed_at: theirs['created_at'] + 9, output_file_id: 'file-out-1', request_counts: { total: 2, completed: 2, failed: 0 } });
    const listed = (await call(gw.url, 'GET', '/v1/batches')).json.data.find((b: { id: string }) => b.id === ours.id);
    expect(listed.status).to.equal('in_progress'); // last known; GET refreshes
    const done = (await call(gw.url, 'GET', `/v1/batches/${ours.id}`)).json;
    expect(done).to.deep.include({ status: 'completed', output_file_id: 'file-out-1', completed_at: theirs['created_at'] + 9 });
    const relisted = (await call(gw.url, 'GET', '/v1/batches')).json.data.find((b: { id: string }) => b.id === ours.id);
    expect(relisted.status).to.equal('completed');
  });

  it('forwards cancel', async () => {
    const local = await upload(gw.url, chatLines(1));
    const ours = (await call(gw.url, 'POST', '/v1/batches', direct, body(local.id))).json;
    const cancelled = await call(gw.url, 'POST', `/v1/batches/${ours.id}/cancel`);
    expect(cancelled.json).to.deep.include({ id: ours.id, status: 'cancelling' });
    expect(cancelled.json.cancelling_at).to.be.a('number');
    expect(provider.requests.at(-1)!.path).to.match(/^\/v1\/batches\/batch_mock\d+\/cancel$/);
  });

  it('passes a provider file id straight through, and the provider errors on with their status', async () => {
    const providerFile = (await call(gw.url, 'POST', '/v1/files', direct, form(chatLines(1)))).json;
    expect(providerFile.id).to.match(/^file-mock/);
    provider.requests.length = 0;
    const created = await call(gw.url, 'POST', '/v1/batches', direct, body(providerFile.id));
    expect(created.status).to.equal(200);
    expect(created.json.input_file_id).to.equal(providerFile.id);
    expect(provider.requests.map((r) => r.path)).to.deep.equal(['/v1/batches']);

    const refused = await call(gw.url, 'POST', '/v1/batches', direct, body('file-unknown-there'));
    expect(refused.status).to.equal(400);
    expect(refused.json.error.message).to.equal("Invalid 'input_file_id': 'file-unknown-there'.");
    expect(refused.json.provider).to.equal('openai');
  });

  it('maps statuses it does not know to in_progress and coerces fields to the Batch shape', async () => {
    const ours = (await call(gw.url, 'POST', '/v1/batches', direct, body((await upload(gw.url, chatLines(1))).id))).json;
    const theirs = [...provider.batches.values()].at(-1)!;
    provider.update(theirs['id'], { status: 'queued_somewhere', errors: { object: 'list', data: [{ code: 'x', message: 'y', line: 3 }] }, request_counts: null });
    const got = (await call(gw.url, 'GET', `/v1/batches/${ours.id}`)).json;
    expect(got.status).to.equal('in_progress');
    expect(got.errors).to.deep.equal({ object: 'list', data: [{ code: 'x', message: 'y', param: null, line: 3 }] });
    expect(got.request_counts).to.deep.equal({ total: 0, completed: 0, failed: 0 });
  });

  it('runs `immediate` batches itself, fetching an input file that lives at the provider', async () => {
    const providerFile = (await call(gw.url, 'POST', '/v1/files', direct, form(chatLines(2, 'i')))).json;
    const created = (await call(gw.url, 'POST', '/v1/batches', direct, body(providerFile.id, { completion_window: 'immediate' }))).json;
    const batch = (await until(() => call(gw.url, 'GET', `/v1/batches/${created.id}`), (r) => r.json.status === 'completed')).json;
    expect(batch.input_file_id).to.equal(providerFile.id);
    expect(batch.output_file_id).to.match(/^file-[0-9a-f]{34}$/);
    const output = parseJsonl((await call(gw.url, 'GET', `/v1/files/${batch.output_file_id}/content`, direct)).text);
    expect(output.map((l) => l.response.body.choices[0].message.content)).to.deep.equal(['echo: line 0', 'echo: line 1']);
    expect(provider.requests.some((r) => r.path === '/v1/batches')).to.equal(false);
    expect(provider.requests.filter((r) => r.path === `/v1/files/${providerFile.id}/content`)).to.have.length(1);
  });

  describe('without batch providers configured', () => {
    let plain: TestGateway;
    before(async () => {
      plain = await startFeatureGateway({ batches: { batchProviders: [] } });
    });
    after(async () => {
      await plain.stop();
    });

    it('runs a 24h batch for openai as a gateway-managed batch', async () => {
      const local = await upload(plain.url, chatLines(1));
      const created = (await call(plain.url, 'POST', '/v1/batches', direct, body(local.id))).json;
      const batch = (await until(() => call(plain.url, 'GET', `/v1/batches/${created.id}`), (r) => r.json.status === 'completed')).json;
      expect(batch.request_counts.completed).to.equal(1);
      expect(provider.requests.map((r) => r.path)).to.deep.equal(['/v1/chat/completions']);
    });
  });
});
