/** feature.files forwarding: a request that names a provider with a files API is answered by it. */
import { expect } from 'chai';
import { startMockOpenAIBatches, type MockOpenAIBatches } from '../../../fixtures/mock-openai-batches.js';
import type { TestGateway } from '../../../helpers/gateway.js';
import { blobNames, call, form, startFeatureGateway, upload } from './helpers.js';

describe('feature.files (forwarded to the provider)', () => {
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

  const storedFiles = async () => (await blobNames(gw.dataDir)).length;

  it('forwards an upload (multipart body streamed as is) and passes the provider answer back', async () => {
    const before = await storedFiles();
    const reply = await call(gw.url, 'POST', '/v1/files', direct, form('{"a":1}\n', 'batch', 'up.jsonl'));
    expect(reply.status).to.equal(200);
    expect(reply.json).to.deep.include({ object: 'file', purpose: 'batch', filename: 'up.jsonl', bytes: 8 });
    expect(reply.json.id).to.match(/^file-mock/);
    expect(reply.headers.get('x-gw-provider')).to.equal('openai');
    expect(provider.files.get(reply.json.id)!.content.toString()).to.equal('{"a":1}\n');
    const seen = provider.requests[0]!;
    expect(seen.method).to.equal('POST');
    expect(seen.path).to.equal('/v1/files');
    expect(seen.headers['authorization']).to.equal('Bearer sk-provider');
    // Neither the gateway key nor any x-gw- header reaches the provider.
    expect(Object.keys(seen.headers).filter((h) => h.startsWith('x-gw-'))).to.deep.equal([]);
    expect(await storedFiles()).to.equal(before);
  });

  it('forwards get, content, list and delete of provider files', async () => {
    const created = (await call(gw.url, 'POST', '/v1/files', direct, form('line\n', 'fine-tune'))).json;
    const got = await call(gw.url, 'GET', `/v1/files/${created.id}`, direct);
    expect(got.json).to.deep.include({ id: created.id, purpose: 'fine-tune' });
    const content = await call(gw.url, 'GET', `/v1/files/${created.id}/content`, direct);
    expect(content.text).to.equal('line\n');
    const list = await call(gw.url, 'GET', '/v1/files?purpose=fine-tune', direct);
    expect(list.json.data.map((f: { id: string }) => f.id)).to.include(created.id);
    expect(provider.requests.at(-1)!.path).to.equal('/v1/files?purpose=fine-tune');
    const deleted = await call(gw.url, 'DELETE', `/v1/files/${created.id}`, direct);
    expect(deleted.json).to.deep.equal({ id: created.id, object: 'file', deleted: true });
    expect(provider.files.has(created.id)).to.equal(false);
  });

  it('passes a provider error on with its status and message, provider set', async () => {
    const reply = await call(gw.url, 'GET', '/v1/files/file-nope', direct);
    expect(reply.status).to.equal(404);
    expect(reply.json.error.message).to.equal('No such File object: file-nope');
    expect(reply.json.provider).to.equal('openai');
    const unauthorised = await call(gw.url, 'GET', '/v1/files', { ...direct, authorization: 'Basic x' });
    expect(unauthorised.status).to.equal(401);
    expect(unauthorised.json.provider).to.equal('openai');
  });

  it('answers files the gateway holds itself, whatever provider the request names', async () => {
    const local = await upload(gw.url, 'kept here\n');
    const got = await call(gw.url, 'GET', `/v1/files/${local.id}`, direct);
    expect(got.json).to.deep.include({ id: local.id, bytes: 10 });
    expect((await call(gw.url, 'GET', `/v1/files/${local.id}/content`, direct)).text).to.equal('kept here\n');
    expect(provider.requests).to.deep.equal([]);
  });

  it('stores locally when the provider has no files API or the config has targets', async () => {
    const anthropic = { 'x-gw-provider': 'anthropic', authorization: 'Bearer sk-ant' };
    const one = await call(gw.url, 'POST', '/v1/files', anthropic, form('a\n'));
    expect(one.json.id).to.match(/^file-[0-9a-f]{34}$/);
    const strategy = { 'x-gw-config': JSON.stringify({ strategy: { mode: 'fallback' }, targets: [{ provider: 'openai', api_key: 'sk', custom_host: `${provider.url}/v1` }] }) };
    const two = await call(gw.url, 'POST', '/v1/files', strategy, form('b\n'));
    expect(two.json.id).to.match(/^file-[0-9a-f]{34}$/);
    expect(provider.requests).to.deep.equal([]);
  });

  it('answers 400 for a bad config and 502 for an unreachable provider', async () => {
    const bad = await call(gw.url, 'GET', '/v1/files', { 'x-gw-provider': 'no-such-provider', authorization: 'Bearer x' });
    expect(bad.status).to.equal(400);
    expect(bad.json.error.message).to.match(/unknown provider "no-such-provider"/);
    const down = await call(gw.url, 'GET', '/v1/files', { ...direct, 'x-gw-custom-host': 'http://127.0.0.1:9/v1' });
    expect(down.status).to.equal(502);
    expect(down.json.error.message).to.match(/provider openai is unreachable/);
  });
});
