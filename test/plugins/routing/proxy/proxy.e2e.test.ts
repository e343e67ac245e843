/**
 * route.proxy end to end: the official openai SDK calls endpoints the gateway does not implement
 * (vector stores, uploads, a GET with a query, a DELETE) through a real gateway to a real loopback
 * upstream that records what it receives; bodies stream both ways, errors pass as they are.
 */
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { expect } from 'chai';
import OpenAI from 'openai';
import ProxyPlugin from '../../../../plugins/routing/proxy/index.js';
import { startEchoUpstream, type EchoUpstream } from '../../../fixtures/echo-upstream.js';
import { call, startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';

const MiB = 1024 * 1024;

/** A raw request (no client-side path normalisation), its body written by `write`. */
function rawRequest(
  url: string, method: string, path: string, headers: Record<string, string>,
  write?: (req: ReturnType<typeof httpRequest>) => Promise<void>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = httpRequest({ host: target.hostname, port: target.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (!write) {
      req.end();
      return;
    }
    write(req).then(() => req.end(), reject);
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([promise, new Promise<T>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  })]).finally(() => clearTimeout(timer));
}

describe('route.proxy (end to end)', () => {
  let gw: TestGateway;
  let echo: EchoUpstream;
  const openaiConfig = (extra: Record<string, unknown> = {}) => ({ provider: 'openai', api_key: 'sk-target', custom_host: `${echo.url}/v1`, ...extra });
  const gwHeaders = (config: unknown = openaiConfig()) => ({ 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify(config) });
  const client = (config?: unknown) => new OpenAI({ apiKey: 'sk-client', baseURL: `${gw.url}/v1`, defaultHeaders: gwHeaders(config), maxRetries: 0 });
  const last = () => echo.requests.at(-1)!;

  before(async () => {
    echo = await startEchoUpstream();
    gw = await startGateway({ plugins: [ProxyPlugin] });
  });
  after(async () => {
    await gw?.stop();
    await echo?.close();
  });
  beforeEach(() => {
    echo.requests.length = 0;
  });

  describe('with the openai SDK', () => {
    it('vectorStores.create: the JSON body, path and the target\'s key reach the provider; no gateway header does', async () => {
      const store = await client().vectorStores.create({ name: 'docs', metadata: { team: 'a' } });
      expect(store).to.include({ id: 'echo_1', object: 'echo' });
      const seen = last();
      expect(seen.method).to.equal('POST');
      expect(seen.path).to.equal('/v1/vector_stores');
      expect(JSON.parse(seen.text)).to.deep.equal({ name: 'docs', metadata: { team: 'a' } });
      expect(seen.headers['authorization']).to.equal('Bearer sk-target');
      expect(seen.headers['content-type']).to.match(/^application\/json/);
      expect(seen.headers['x-stainless-lang'], 'the SDK\'s own headers pass').to.equal('js');
      for (const name of Object.keys(seen.headers)) expect(name, 'no gateway header upstream').to.not.match(/^x-gw-/);
      expect(JSON.stringify(seen.headers)).to.not.include(TEST_API_KEY).and.not.include('sk-client');
    });

    it('uploads.create: POST /v1/uploads', async () => {
      const upload = await client().uploads.create({ bytes: 10, filename: 'a.jsonl', mime_type: 'text/jsonl', purpose: 'batch' });
      expect(upload.id).to.equal('echo_1');
      expect(last()).to.deep.include({ method: 'POST', path: '/v1/uploads' });
      expect(JSON.parse(last().text)).to.include({ bytes: 10, filename: 'a.jsonl', purpose: 'batch' });
    });

    it('a GET with a query, and a DELETE, reach the same path and query', async () => {
      const got = await client().get('/vector_stores/vs_1/files', { query: { limit: 2, order: 'asc', filter: 'a b&c' } }) as Record<string, unknown>;
      expect(got).to.deep.include({ method: 'GET', path: '/v1/vector_stores/vs_1/files', query: { limit: '2', order: 'asc', filter: 'a b&c' } });
      expect(last().bytes).to.equal(0);
      await client().vectorStores.delete('vs_1');
      expect(last()).to.deep.include({ method: 'DELETE', path: '/v1/vector_stores/vs_1' });
    });

    it('HEAD and OPTIONS reach the provider too: status and headers back, no body for HEAD', async () => {
      const headers = gwHeaders();
      const head = await rawRequest(gw.url, 'HEAD', '/v1/assistants?limit=1', headers);
      expect(head.status).to.equal(200);
      expect(head.text).to.equal('');
      expect(head.headers['x-request-id']).to.be.a('string');
      expect(last()).to.deep.include({ method: 'HEAD', path: '/v1/assistants', query: { limit: '1' } });
      const options = await rawRequest(gw.url, 'OPTIONS', '/v1/assistants', headers);
      expect(options.status).to.equal(200);
      expect(JSON.parse(options.text)).to.include({ method: 'OPTIONS', path: '/v1/assistants' });
    });

    it('an upstream error reaches the SDK as the provider sent it (status, body)', async () => {
      try {
        await client().get('/fail/418');
        expect.fail('no error');
      } catch (e) {
        const error = e as InstanceType<typeof OpenAI.APIError>;
        expect(error.status).to.equal(418);
        expect(error.message).to.include('upstream says 418');
        expect(error.code).to.equal('upstream_code');
      }
    });
  });

  it('passes an error answer byte for byte with its informative headers, without cookies or hop-by-hop headers', async () => {
    const res = await fetch(`${gw.url}/v1/fail/503/x`, { headers: gwHeaders() });
    expect(res.status).to.equal(503);
    expect(await res.text()).to.equal(JSON.stringify({ error: { message: 'upstream says 503', type: 'upstream_error', param: null, code: 'upstream_code' } }));
    expect(res.headers.get('retry-after')).to.equal('7');
    expect(res.headers.get('x-request-id')).to.equal('req_1');
    expect(res.headers.get('set-cookie')).to.equal(null);
    expect(res.headers.get('x-gw-provider'), 'the gateway says who answered').to.equal('openai');
    expect(res.headers.get('keep-alive')).to.not.equal('timeout=5');
  });

  it('relays a server-sent stream as it is', async () => {
    const res = await fetch(`${gw.url}/v1/sse/events?x=1`, { method: 'POST', headers: { ...gwHeaders(), 'content-type': 'application/json' }, body: '{"stream":true}' });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/event-stream');
    const text = await res.text();
    expect(text).to.equal('event: tick\ndata: {"n":0}\n\nevent: tick\ndata: {"n":1}\n\nevent: tick\ndata: {"n":2}\n\ndata: [DONE]\n\n');
    expect(last().query).to.deep.equal({ x: '1' });
  });

  it('streams an upload of several MB through: the provider has bytes before the client finishes', async () => {
    const first = Buffer.alloc(MiB, 1);
    const rest = Buffer.alloc(4 * MiB, 2);
    const hash = createHash('sha256').update(first).update(rest).digest('hex');
    const reply = await rawRequest(gw.url, 'POST', '/v1/uploads/up_1/parts', { ...gwHeaders(), 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' }, async (req) => {
      req.write(first);
      // A gateway that buffered the body would deadlock here: nothing reaches the provider before the end.
      await withTimeout(echo.receivedAtLeast(MiB / 2), 5000, 'the provider receiving the first MiB');
      req.write(rest);
    });
    expect(reply.status, reply.text).to.equal(200);
    expect(JSON.parse(reply.text)).to.include({ path: '/v1/uploads/up_1/parts', bytes: 5 * MiB, sha256: hash });
  });

  it('streams a declared-length body too', async () => {
    const body = Buffer.alloc(3 * MiB, 7);
    const reply = await rawRequest(gw.url, 'PUT', '/v1/things/t1', { ...gwHeaders(), 'content-type': 'application/octet-stream', 'content-length': String(body.byteLength) }, async (req) => {
      req.write(body);
    });
    expect(reply.status, reply.text).to.equal(200);
    expect(JSON.parse(reply.text)).to.include({ method: 'PUT', bytes: body.byteLength, sha256: createHash('sha256').update(body).digest('hex') });
  });

  describe('refusals', () => {
    it('no gateway key: 401, nothing sent', async () => {
      const res = await fetch(`${gw.url}/v1/vector_stores`, { headers: { 'x-gw-config': JSON.stringify(openaiConfig()) } });
      expect(res.status).to.equal(401);
      expect(echo.requests).to.have.length(0);
    });

    it('no provider configured: 400', async () => {
      const reply = await call(gw, 'GET', '/v1/vector_stores');
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.include('no config');
      expect(echo.requests).to.have.length(0);
    });

    it('a provider the proxy cannot call: 400 naming provider', async () => {
      const reply = await call(gw, 'GET', '/v1/rerank/models', undefined, { 'x-gw-config': JSON.stringify({ provider: 'cohere', api_key: 'co-key', custom_host: echo.url }) });
      expect(reply.status).to.equal(400);
      expect(reply.json.error).to.include({ param: 'provider', code: 'unsupported_endpoint' });
    });

    for (const path of ['/v1/%2e%2e/admin', '/v1/a/..%2f..%2fadmin', '/v1//evil.example/x', '/v1/a%5c..%5cb']) {
      it(`a path leaving the base URL (${path}): 400, nothing sent`, async () => {
        const reply = await rawRequest(gw.url, 'GET', path, gwHeaders());
        expect(reply.status, reply.text).to.equal(400);
        expect(JSON.parse(reply.text).error).to.include({ param: 'path', code: 'invalid_path' });
        expect(echo.requests).to.have.length(0);
      });
    }

    it('the gateway\'s own routes keep their answers (405 for another method on a served path)', async () => {
      const reply = await call(gw, 'PUT', '/v1/chat/completions', {}, { 'x-gw-config': JSON.stringify(openaiConfig()) });
      expect(reply.status).to.equal(405);
      expect(echo.requests).to.have.length(0);
    });
  });

  describe('targets', () => {
    it('a config with several targets goes to its first leaf only, even when it fails', async () => {
      const config = {
        strategy: { mode: 'fallback' },
        targets: [openaiConfig({ api_key: 'sk-first' }), openaiConfig({ api_key: 'sk-second' })],
      };
      const res = await fetch(`${gw.url}/v1/fail/500`, { headers: gwHeaders(config) });
      expect(res.status).to.equal(500);
      expect(echo.requests).to.have.length(1);
      expect(echo.requests[0]!.headers['authorization']).to.equal('Bearer sk-first');
      expect(res.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[0]');
    });

    it('anthropic: the key as x-api-key, a default anthropic-version the client may replace', async () => {
      const config = { provider: 'anthropic', api_key: 'sk-ant', custom_host: `${echo.url}/v1` };
      const listed = await call(gw, 'GET', '/v1/messages/batches?limit=5', undefined, { 'x-gw-config': JSON.stringify(config) });
      expect(listed.status, listed.text).to.equal(200);
      expect(last()).to.deep.include({ path: '/v1/messages/batches', query: { limit: '5' } });
      expect(last().headers).to.include({ 'x-api-key': 'sk-ant', 'anthropic-version': '2023-06-01' });
      const versioned = await call(gw, 'GET', '/v1/messages/batches', undefined, { 'x-gw-config': JSON.stringify(config), 'anthropic-version': '2099-01-01', 'x-api-key': 'not-forwarded' });
      expect(versioned.status, versioned.text).to.equal(200);
      expect(last().headers).to.include({ 'x-api-key': 'sk-ant', 'anthropic-version': '2099-01-01' });
    });

    it('azure-openai: the v1 API below /openai, the key as api-key', async () => {
      const config = { provider: 'azure-openai', api_key: 'az-key', custom_host: echo.url, deployment_id: 'd1', api_version: '2024-10-21' };
      const reply = await call(gw, 'GET', '/v1/vector_stores', undefined, { 'x-gw-config': JSON.stringify(config) });
      expect(reply.status, reply.text).to.equal(200);
      expect(last().path).to.equal('/openai/v1/vector_stores');
      expect(last().headers['api-key']).to.equal('az-key');
      expect(last().headers['authorization']).to.equal(undefined);
    });
  });
});

describe('route.proxy: limits and logs (end to end)', () => {
  let gw: TestGateway;
  let echo: EchoUpstream;
  const headers = () => ({ 'x-gw-config': JSON.stringify({ provider: 'openai', api_key: 'sk-target', custom_host: `${echo.url}/v1` }) });

  before(async () => {
    echo = await startEchoUpstream();
    gw = await startGateway({ plugins: [{ use: ProxyPlugin, options: { maxBodyBytes: 1024 } }] });
  });
  after(async () => {
    await gw?.stop();
    await echo?.close();
  });

  it('writes one log row per proxied request: method, path, status, provider, endpoint proxy', async () => {
    const trace = `proxy-log-${Date.now()}`;
    expect((await call(gw, 'GET', '/v1/assistants?limit=1', undefined, { ...headers(), 'x-gw-trace-id': trace })).status).to.equal(200);
    expect((await call(gw, 'GET', '/v1/fail/404', undefined, { ...headers(), 'x-gw-trace-id': trace })).status).to.equal(404);
    const sse = await call(gw, 'POST', '/v1/sse/x', { stream: true }, { ...headers(), 'x-gw-trace-id': trace });
    expect(sse.text).to.include('data: [DONE]');
    const logs = gw.gateway.runtime.services.get((await import('../../../../plugins/observe/logs/contract.js')).RequestLogsService);
    await logs.flush();
    const reply = await call(gw, 'GET', `/v1/logs?trace_id=${trace}`);
    expect(reply.status, reply.text).to.equal(200);
    const rows = (reply.json.data as Array<Record<string, unknown>>).map((r) => ({
      method: r['method'], path: r['path'], status: r['status'], ai_service: r['ai_service'], endpoint: r['endpoint'], stream: r['stream'],
    }));
    expect(rows).to.have.deep.members([
      { method: 'GET', path: '/v1/assistants', status: 200, ai_service: 'openai', endpoint: 'proxy', stream: false },
      { method: 'GET', path: '/v1/fail/404', status: 404, ai_service: 'openai', endpoint: 'proxy', stream: false },
      { method: 'POST', path: '/v1/sse/x', status: 200, ai_service: 'openai', endpoint: 'proxy', stream: true },
    ]);
  });

  it('refuses a declared body over maxBodyBytes with 413 before anything is sent', async () => {
    echo.requests.length = 0;
    const reply = await call(gw, 'POST', '/v1/things', { pad: 'x'.repeat(2000) }, headers());
    expect(reply.status).to.equal(413);
    expect(echo.requests).to.have.length(0);
  });

  it('stops a chunked body over maxBodyBytes with 413', async () => {
    const reply = await rawRequest(gw.url, 'POST', '/v1/things', { 'x-gw-api-key': TEST_API_KEY, ...headers(), 'transfer-encoding': 'chunked' }, async (req) => {
      req.write(Buffer.alloc(4096, 1));
    });
    expect(reply.status, reply.text).to.equal(413);
  });

  it('rate limits with endpoint_type proxy apply to proxied requests only', async () => {
    const policy = { conditions: [{ key: 'endpoint_type', value: 'proxy' }], group_by: [{ key: 'api_key' }], type: 'requests', unit: 'rpd', value: 2 };
    const created = await call(gw, 'POST', '/v1/policies/rate-limits', policy);
    expect(created.status, created.text).to.equal(200);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(gw, 'GET', '/v1/anything', undefined, headers())).status);
    expect(statuses).to.deep.equal([200, 200, 429]);
    const other = await call(gw, 'POST', '/v1/embeddings', { model: 'm', input: 'hi' }, headers());
    expect(other.status, 'another endpoint is not counted').to.not.equal(429);
  });
});

describe('route.proxy: not loaded', () => {
  it('unknown /v1 paths answer 404 as before', async () => {
    const gw = await startGateway();
    try {
      const reply = await call(gw, 'GET', '/v1/vector_stores', undefined, { 'x-gw-provider': 'openai', authorization: 'Bearer sk' });
      expect(reply.status).to.equal(404);
      expect(reply.json.error.code).to.equal('route_not_found');
    } finally {
      await gw.stop();
    }
  });
});
