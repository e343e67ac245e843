/** feature.files end to end: uploads stored by the gateway, content, list, delete, and the errors. */
import { expect } from 'chai';
import OpenAI, { toFile } from 'openai';
import { TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { addKey, blobNames, blobText, call, form, KEY_HEADERS, startFeatureGateway, upload } from './helpers.js';

describe('feature.files (stored by the gateway)', () => {
  let gw: TestGateway;
  const MAX = 64 * 1024;

  before(async () => {
    gw = await startFeatureGateway({ files: { maxUploadBytes: MAX } });
  });
  after(async () => {
    await gw.stop();
  });

  describe('upload', () => {
    it('stores a multipart upload and answers the OpenAI file object', async () => {
      const content = '{"custom_id":"a"}\n{"custom_id":"b"}\n';
      const reply = await call(gw.url, 'POST', '/v1/files', {}, form(content, 'batch', 'requests.jsonl'));
      expect(reply.status).to.equal(200);
      const file = reply.json;
      expect(file).to.deep.include({ object: 'file', bytes: Buffer.byteLength(content), filename: 'requests.jsonl', purpose: 'batch', status: 'processed' });
      expect(file.id).to.match(/^file-[0-9a-f]{34}$/);
      expect(file.created_at).to.be.a('number').and.satisfy(Number.isInteger);
      // In the blob store under its id, byte for byte, and no unfinished write left behind.
      expect(await blobText(gw.dataDir, file.id)).to.equal(content);
      expect((await blobNames(gw.dataDir)).filter((n) => n.includes('.part'))).to.deep.equal([]);
    });

    it('works with the openai SDK (files.create / retrieve / content / delete)', async () => {
      const client = new OpenAI({ apiKey: 'sk-unused', baseURL: `${gw.url}/v1`, defaultHeaders: { 'x-gw-api-key': TEST_API_KEY }, maxRetries: 0 });
      const created = await client.files.create({ file: await toFile(Buffer.from('hello\n'), 'hello.jsonl'), purpose: 'fine-tune' });
      expect(created).to.deep.include({ object: 'file', bytes: 6, filename: 'hello.jsonl', purpose: 'fine-tune' });
      expect((await client.files.retrieve(created.id)).id).to.equal(created.id);
      expect(await (await client.files.content(created.id)).text()).to.equal('hello\n');
      expect(await client.files.delete(created.id)).to.deep.equal({ id: created.id, object: 'file', deleted: true });
      let status = 0;
      await client.files.retrieve(created.id).catch((e: { status: number }) => (status = e.status));
      expect(status).to.equal(404);
    });

    it('keeps binary content intact (the parser does not touch the bytes)', async () => {
      const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7) % 256));
      const file = await upload(gw.url, bytes, 'fine-tune');
      const res = await fetch(`${gw.url}/v1/files/${file.id}/content`, { headers: KEY_HEADERS });
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).to.equal(true);
    });

    it('accepts the purpose after the file part', async () => {
      const data = new FormData();
      data.append('file', new Blob(['x\n']), 'late.jsonl');
      data.append('purpose', 'batch');
      const reply = await call(gw.url, 'POST', '/v1/files', {}, data);
      expect(reply.status).to.equal(200);
      expect(reply.json.purpose).to.equal('batch');
    });

    it('answers 400 for a missing or unknown purpose and drops the bytes', async () => {
      const before = (await blobNames(gw.dataDir)).length;
      const missing = await call(gw.url, 'POST', '/v1/files', {}, form('x', null));
      expect(missing.status).to.equal(400);
      expect(missing.json.error).to.deep.include({ message: 'body.purpose: is required', param: 'purpose', code: 'invalid_body' });
      const unknown = await call(gw.url, 'POST', '/v1/files', {}, form('x', 'assistants'));
      expect(unknown.status).to.equal(400);
      expect(unknown.json.error.message).to.equal('body.purpose: must be one of "batch", "fine-tune"');
      expect((await blobNames(gw.dataDir)).length).to.equal(before);
    });

    it('answers 400 without a file part', async () => {
      const data = new FormData();
      data.append('purpose', 'batch');
      const reply = await call(gw.url, 'POST', '/v1/files', {}, data);
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.equal('body.file: is required');
    });

    it('answers 415 for a body that is not multipart/form-data', async () => {
      const reply = await call(gw.url, 'POST', '/v1/files', { 'content-type': 'application/json' }, { purpose: 'batch' });
      expect(reply.status).to.equal(415);
      expect(reply.json.error.message).to.equal('content-type must be multipart/form-data');
    });

    it('answers 400 for a broken multipart body', async () => {
      const reply = await call(gw.url, 'POST', '/v1/files', { 'content-type': 'multipart/form-data; boundary=xyz' }, '--xyz\r\nnot a header line\r\n');
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.match(/multipart\/form-data/);
    });

    it('answers 413 for a file over the limit, streamed without a content-length, and keeps nothing', async () => {
      const before = await blobNames(gw.dataDir);
      const data = form('y'.repeat(MAX + 1), 'batch');
      // A stream body has no content-length: the limit is found while reading.
      const body = new Response(data);
      const res = await fetch(`${gw.url}/v1/files`, {
        method: 'POST',
        headers: { ...KEY_HEADERS, 'content-type': body.headers.get('content-type')! },
        body: body.body,
        duplex: 'half',
      } as RequestInit);
      expect(res.status).to.equal(413);
      expect(((await res.json()) as any).error.message).to.equal(`body exceeds the limit of ${MAX} bytes`);
      expect(await blobNames(gw.dataDir)).to.deep.equal(before);
    });

    it('answers 413 at once when the declared length is far over the limit', async () => {
      const reply = await call(gw.url, 'POST', '/v1/files', {}, form('z'.repeat(MAX + 128 * 1024), 'batch'));
      expect(reply.status).to.equal(413);
    });

    it('accepts a file of exactly the limit', async () => {
      const file = await upload(gw.url, 'w'.repeat(MAX));
      expect(file.bytes).to.equal(MAX);
    });

    it('needs the gateway key (401 before the body is read)', async () => {
      const res = await fetch(`${gw.url}/v1/files`, { method: 'POST', body: form('x') });
      expect(res.status).to.equal(401);
    });
  });

  describe('get, content, delete', () => {
    it('answers 404 for unknown ids, including ids that are not gateway ids', async () => {
      for (const id of ['file-00000000000000000000000000000000ff', 'file-abc', '..%2Fgw.db', 'secret.key']) {
        for (const path of [`/v1/files/${id}`, `/v1/files/${id}/content`]) {
          const reply = await call(gw.url, 'GET', path);
          expect(reply.status, path).to.equal(404);
          expect(reply.json.error.code).to.equal('file_not_found');
        }
        expect((await call(gw.url, 'DELETE', `/v1/files/${id}`)).status).to.equal(404);
      }
    });

    it('streams content with its length', async () => {
      const file = await upload(gw.url, 'abc\n'.repeat(1000));
      const res = await fetch(`${gw.url}/v1/files/${file.id}/content`, { headers: KEY_HEADERS });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-length')).to.equal('4000');
      expect(res.headers.get('content-type')).to.equal('application/octet-stream');
      expect(await res.text()).to.equal('abc\n'.repeat(1000));
    });

    it('deletes the record and the bytes', async () => {
      const file = await upload(gw.url, 'bye');
      const deleted = await call(gw.url, 'DELETE', `/v1/files/${file.id}`);
      expect(deleted.json).to.deep.equal({ id: file.id, object: 'file', deleted: true });
      expect((await blobNames(gw.dataDir)).includes(file.id)).to.equal(false);
      expect((await call(gw.url, 'GET', `/v1/files/${file.id}`)).status).to.equal(404);
    });
  });

  describe('list', () => {
    let ids: string[];
    let listGw: TestGateway;

    before(async () => {
      listGw = await startFeatureGateway();
      ids = [];
      for (let i = 0; i < 5; i++) ids.push((await upload(listGw.url, `file ${i}`, i % 2 === 0 ? 'batch' : 'fine-tune')).id);
    });
    after(async () => {
      await listGw.stop();
    });

    const list = (query = '') => call(listGw.url, 'GET', `/v1/files${query}`);

    it('lists newest first with first_id, last_id and has_more', async () => {
      const reply = await list();
      expect(reply.status).to.equal(200);
      expect(reply.json.object).to.equal('list');
      expect(reply.json.data.map((f: { id: string }) => f.id)).to.deep.equal([...ids].reverse());
      expect(reply.json).to.deep.include({ first_id: ids[4], last_id: ids[0], has_more: false });
    });

    it('pages with limit and after, ending exactly at the last item', async () => {
      const first = await list('?limit=2');
      expect(first.json.data.map((f: { id: string }) => f.id)).to.deep.equal([ids[4], ids[3]]);
      expect(first.json.has_more).to.equal(true);
      const second = await list(`?limit=2&after=${first.json.last_id}`);
      expect(second.json.data.map((f: { id: string }) => f.id)).to.deep.equal([ids[2], ids[1]]);
      expect(second.json.has_more).to.equal(true);
      const third = await list(`?limit=2&after=${second.json.last_id}`);
      expect(third.json.data.map((f: { id: string }) => f.id)).to.deep.equal([ids[0]]);
      expect(third.json.has_more).to.equal(false);
      const exact = await list(`?limit=1&after=${ids[1]}`);
      expect(exact.json.data.map((f: { id: string }) => f.id)).to.deep.equal([ids[0]]);
      expect(exact.json.has_more).to.equal(false);
      const past = await list(`?after=${ids[0]}`);
      expect(past.json).to.deep.include({ data: [], first_id: null, last_id: null, has_more: false });
    });

    it('orders ascending and filters by purpose', async () => {
      const asc = await list('?order=asc&limit=3');
      expect(asc.json.data.map((f: { id: string }) => f.id)).to.deep.equal(ids.slice(0, 3));
      const batch = await list('?purpose=batch');
      expect(batch.json.data.map((f: { id: string }) => f.id)).to.deep.equal([ids[4], ids[2], ids[0]]);
    });

    it('shows a file only to its own organisation (and workspace)', async () => {
      await addKey(listGw, 'other-org-key', 'other-org');
      await addKey(listGw, 'ws-a-key', 'default', 'ws-a');
      const other = { 'x-gw-api-key': 'other-org-key' };
      expect((await call(listGw.url, 'GET', '/v1/files', other)).json.data).to.deep.equal([]);
      expect((await call(listGw.url, 'GET', `/v1/files/${ids[0]}`, other)).status).to.equal(404);
      expect((await call(listGw.url, 'GET', `/v1/files/${ids[0]}/content`, other)).status).to.equal(404);
      expect((await call(listGw.url, 'DELETE', `/v1/files/${ids[0]}`, other)).status).to.equal(404);
      // A workspace key sees its workspace's files; the organisation's own key sees them all.
      const wsFile = (await call(listGw.url, 'POST', '/v1/files', { 'x-gw-api-key': 'ws-a-key' }, form('ws'))).json;
      const wsList = (await call(listGw.url, 'GET', '/v1/files', { 'x-gw-api-key': 'ws-a-key' })).json.data.map((f: { id: string }) => f.id);
      expect(wsList).to.deep.equal([wsFile.id]);
      expect((await list()).json.data.map((f: { id: string }) => f.id)).to.include(wsFile.id);
      await call(listGw.url, 'DELETE', `/v1/files/${wsFile.id}`);
    });

    it('refuses a bad limit or order with a 400 naming the query field', async () => {
      for (const q of ['?limit=0', '?limit=10001', '?limit=abc', '?limit=1.5']) {
        const reply = await list(q);
        expect(reply.status, q).to.equal(400);
        expect(reply.json.error.message).to.equal('query.limit: must be an integer from 1 to 10000');
      }
      const order = await list('?order=sideways');
      expect(order.status).to.equal(400);
      expect(order.json.error.param).to.equal('order');
    });
  });
});
