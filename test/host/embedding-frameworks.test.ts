/**
 * The gateway mounted in the real frameworks (Express, Fastify, Hono on @hono/node-server), behind
 * and before their body parsers, as docs/embedding.md shows: answers, streams, limits, fall-through
 * to the framework's own routes, and a body read before the gateway answered at once, never a hang.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
import { Hono } from 'hono';
import { serve as serveHono, type ServerType } from '@hono/node-server';
import { createGateway, type Gateway } from '../../host/index.js';
import { startMockOpenAI, type MockOpenAI } from '../fixtures/mock-openai.js';
import { CHAT_BODY, directHeaders, jsonReply, TEST_API_KEY, type JsonReply } from '../helpers/gateway.js';

const BODY_LIMIT = 16 * 1024;
/** Generous: proves an answer came instead of a wait for the client to give up. */
const NO_HANG_MS = 5_000;

interface Mount {
  name: string;
  /** Where the gateway's paths start; `${base}/mine` is the framework's own route behind the gateway. */
  base: string;
  /** Whether the gateway forwards the client's bytes exactly (the raw bytes reached it). */
  bytesKept: boolean;
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Express: the gateway behind each of Express's parsers, and before any. */
function expressApp(gateway: Gateway) {
  const app = express();
  const parsers = {
    json: express.json({ limit: '1mb' }),
    verify: express.json({ limit: '1mb', verify: (req, _res, buf) => Object.assign(req, { rawBody: buf }) }),
    raw: express.raw({ type: '*/*', limit: '1mb' }),
    text: express.text({ type: '*/*', limit: '1mb' }),
  };
  for (const [name, parser] of Object.entries(parsers)) {
    app.use(`/${name}`, parser, gateway.handle);
    app.get(`/${name}/mine`, (_req, res) => void res.send('mine'));
  }
  app.use('/before', gateway.handle, express.json());
  app.get('/before/mine', (_req, res) => void res.send('mine'));
  // A middleware that drains the body and keeps nothing: the gateway must not wait for it.
  app.use('/drained', (req, _res, next) => req.resume().once('end', () => next()), gateway.handle);
  return app;
}

/** Fastify: the documented mount is an onRequest hook, which runs before Fastify parses the body. */
async function fastifyApp(gateway: Gateway): Promise<FastifyInstance> {
  const app = Fastify();
  app.addHook('onRequest', (request, reply, done) => {
    let passed = false;
    gateway.handle(request.raw, reply.raw, () => {
      passed = true;
      done();
    });
    if (!passed) reply.hijack();
  });
  app.get('/mine', async () => 'mine');
  await app.ready();
  return app;
}

/** Fastify routes whose parsers ran first: with and without handing the parsed body over. */
async function fastifyParsedApp(gateway: Gateway): Promise<FastifyInstance> {
  const app = Fastify();
  app.post('/handed/v1/chat/completions', (request, reply) => {
    reply.hijack();
    const raw = Object.assign(request.raw, { body: request.body, url: '/v1/chat/completions' });
    gateway.handle(raw, reply.raw);
  });
  app.post('/v1/chat/completions', (request, reply) => {
    reply.hijack();
    gateway.handle(request.raw, reply.raw);
  });
  await app.ready();
  return app;
}

/** Hono: gateway.fetch as a middleware; unknown paths go on to Hono's own routes. */
function honoApp(gateway: Gateway) {
  const app = new Hono();
  // An app middleware that reads the body before the gateway (for requests that ask for it).
  app.use(async (c, next) => {
    if (c.req.header('x-test-read-first')) await c.req.json();
    await next();
  });
  app.use(async (c, next) => gateway.fetch(c.req.raw, async () => {
    await next();
    return c.res;
  }));
  app.get('/mine', (c) => c.text('mine'));
  return app;
}

function deepBody(levels: number): string {
  return `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"metadata":${'['.repeat(levels)}${']'.repeat(levels)}}`;
}

function post(url: string, body: string, headers: Record<string, string>): Promise<JsonReply> {
  return fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(NO_HANG_MS) }).then(jsonReply);
}

describe('embedding in Express, Fastify and Hono', function () {
  let mock: MockOpenAI;
  let gateway: Gateway;
  let dataDir: string;
  let expressServer: Server;
  let fastify: FastifyInstance;
  let fastifyParsed: FastifyInstance;
  let honoServer: ServerType;
  const urls: Record<string, string> = {};

  before(async () => {
    mock = await startMockOpenAI();
    dataDir = await mkdtemp(join(tmpdir(), 'gw-embed-frameworks-'));
    gateway = await createGateway({
      env: { GW_DATA_DIR: dataDir, GW_BOOTSTRAP_API_KEY: TEST_API_KEY, GW_LOG_LEVEL: 'silent' },
      settings: { bodyLimit: BODY_LIMIT },
    });
    expressServer = (await new Promise<Server>((resolve) => {
      const server: Server = expressApp(gateway).listen(0, '127.0.0.1', () => resolve(server));
    }));
    urls['express'] = `http://127.0.0.1:${(expressServer.address() as AddressInfo).port}`;
    fastify = await fastifyApp(gateway);
    urls['fastify'] = await fastify.listen({ port: 0, host: '127.0.0.1' });
    fastifyParsed = await fastifyParsedApp(gateway);
    urls['fastifyParsed'] = await fastifyParsed.listen({ port: 0, host: '127.0.0.1' });
    const server = serveHono({ fetch: honoApp(gateway).fetch, port: 0, hostname: '127.0.0.1' });
    honoServer = server;
    await new Promise((resolve) => server.once('listening', resolve));
    urls['hono'] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await close(expressServer);
    await fastify.close();
    await fastifyParsed.close();
    await close(honoServer as Server);
    await gateway.close();
    await mock.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const mounts: Mount[] = [
    { name: 'express behind express.json()', base: 'express/json', bytesKept: false },
    { name: 'express behind express.json({ verify })', base: 'express/verify', bytesKept: true },
    { name: 'express behind express.raw()', base: 'express/raw', bytesKept: true },
    { name: 'express behind express.text()', base: 'express/text', bytesKept: true },
    { name: 'express before any parser', base: 'express/before', bytesKept: true },
    { name: 'fastify onRequest hook', base: 'fastify', bytesKept: true },
    { name: 'hono middleware', base: 'hono', bytesKept: true },
  ];
  const at = (mount: Mount, path: string) => {
    const [framework, prefix] = mount.base.split('/');
    return `${urls[framework!]}${prefix ? '/' + prefix : ''}${path}`;
  };

  for (const mount of mounts) {
    describe(mount.name, () => {
      it('answers a chat completion through the mock provider, forwarding the body', async () => {
        const sent = `{ "model": "gpt-4o-mini",  "messages": [{"role":"user","content":"${mount.base}"}] }`;
        const reply = await post(at(mount, '/v1/chat/completions'), sent, directHeaders(mock));
        expect(reply.status, reply.text).to.equal(200);
        expect(reply.json.choices[0].message.content).to.equal(`echo: ${mount.base}`);
        const forwarded = mock.requests.at(-1)!.rawBody;
        expect(forwarded).to.equal(mount.bytesKept ? sent : JSON.stringify(JSON.parse(sent)));
      });

      it('streams a chat completion', async () => {
        const reply = await post(at(mount, '/v1/chat/completions'), JSON.stringify({ ...CHAT_BODY, stream: true }), directHeaders(mock));
        expect(reply.status, reply.text).to.equal(200);
        expect(reply.headers.get('content-type')).to.contain('text/event-stream');
        expect(reply.text).to.contain('data: {');
        expect(reply.text.trim().endsWith('data: [DONE]')).to.equal(true);
      });

      it('takes an admin POST', async () => {
        const slug = `embed-${mount.base.replace('/', '-')}`;
        const body = JSON.stringify({ slug, config: { provider: 'openai', custom_host: `${mock.url}/v1` } });
        const reply = await post(at(mount, '/v1/configs'), body, { 'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY });
        expect(reply.status, reply.text).to.equal(200);
        const viaConfig = await post(at(mount, '/v1/chat/completions'), JSON.stringify(CHAT_BODY), {
          'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': slug, authorization: 'Bearer sk-test',
        });
        expect(viaConfig.status, viaConfig.text).to.equal(200);
      });

      it('hands a path it does not serve to the framework', async () => {
        const res = await fetch(at(mount, '/mine'), { signal: AbortSignal.timeout(NO_HANG_MS) });
        expect(res.status).to.equal(200);
        expect(await res.text()).to.equal('mine');
      });

      it('answers a body over the limit with 413', async () => {
        const big = JSON.stringify({ ...CHAT_BODY, padding: 'x'.repeat(BODY_LIMIT) });
        const reply = await post(at(mount, '/v1/chat/completions'), big, directHeaders(mock));
        expect(reply.status, reply.text).to.equal(413);
        expect(reply.json.error).to.include({ code: 'payload_too_large', message: `body exceeds the limit of ${BODY_LIMIT} bytes` });
      });

      it('answers a body nested too deep with 400', async () => {
        const reply = await post(at(mount, '/v1/chat/completions'), deepBody(200), directHeaders(mock));
        expect(reply.status, reply.text).to.equal(400);
        expect(reply.json.error).to.include({ code: 'invalid_body', message: 'body: nesting deeper than 128 levels (GW_JSON_MAX_DEPTH)' });
      });
    });
  }

  it('counts the re-serialised size of a parsed body sent without content-length (413)', async () => {
    const big = JSON.stringify({ ...CHAT_BODY, padding: 'x'.repeat(BODY_LIMIT) });
    const chunked = new ReadableStream({ start: (c) => { c.enqueue(new TextEncoder().encode(big)); c.close(); } });
    const res = await fetch(`${urls['express']}/json/v1/chat/completions`, {
      method: 'POST', headers: directHeaders(mock), body: chunked, duplex: 'half', signal: AbortSignal.timeout(NO_HANG_MS),
    } as RequestInit);
    const reply = await jsonReply(res);
    expect(reply.status, reply.text).to.equal(413);
    expect(reply.json.error.code).to.equal('payload_too_large');
  });

  describe('a body read before the gateway, with nothing left for it', () => {
    const bodyAlreadyRead = (reply: JsonReply) => {
      expect(reply.status, reply.text).to.equal(500);
      expect(reply.json.error.code).to.equal('body_already_read');
    };

    it('answers at once behind an Express middleware that drained the stream', async () => {
      const reply = await post(`${urls['express']}/drained/v1/chat/completions`, JSON.stringify(CHAT_BODY), directHeaders(mock));
      bodyAlreadyRead(reply);
      expect(reply.json.error.message).to.contain('mount the gateway before the body parser');
    });

    it('answers at once from a Fastify route whose parser read the body', async () => {
      const reply = await post(`${urls['fastifyParsed']}/v1/chat/completions`, JSON.stringify(CHAT_BODY), directHeaders(mock));
      bodyAlreadyRead(reply);
      expect(reply.json.error.message).to.contain('Fastify: an onRequest hook');
    });

    it('uses the parsed body a Fastify route hands over in req.body', async () => {
      const reply = await post(`${urls['fastifyParsed']}/handed/v1/chat/completions`, JSON.stringify(CHAT_BODY), directHeaders(mock));
      expect(reply.status, reply.text).to.equal(200);
      expect(reply.json.choices[0].message.content).to.equal('echo: hi');
    });

    it('answers at once when Hono read the body with c.req.json() first', async () => {
      const reply = await post(`${urls['hono']}/v1/chat/completions`, JSON.stringify(CHAT_BODY), directHeaders(mock, { 'x-test-read-first': '1' }));
      bodyAlreadyRead(reply);
      expect(reply.json.error.message).to.contain('before c.req.json()');
    });

    it('refuses an upload a parser read whole, telling to skip the parser for that path', async () => {
      const reply = await post(`${urls['express']}/raw/v1/files`, '--b--\r\n', {
        'x-gw-api-key': TEST_API_KEY, 'content-type': 'multipart/form-data; boundary=b',
      });
      bodyAlreadyRead(reply);
      expect(reply.json.error.message).to.contain('skip the parser for this path');
    });

    it('still checks the key first: an unauthenticated client learns nothing about the mount', async () => {
      const headers = { ...directHeaders(mock), 'x-gw-api-key': 'gw-wrong' };
      const reply = await post(`${urls['express']}/drained/v1/chat/completions`, JSON.stringify(CHAT_BODY), headers);
      expect(reply.status, reply.text).to.equal(401);
    });
  });

  describe('uploads on the documented mounts', () => {
    for (const base of ['express/json', 'fastify', 'hono']) {
      it(`stores a multipart upload through ${base}`, async () => {
        const form = new FormData();
        form.append('purpose', 'batch');
        form.append('file', new Blob(['{"a":1}\n']), `${base.replace('/', '-')}.jsonl`);
        const [framework, prefix] = base.split('/');
        const res = await fetch(`${urls[framework!]}${prefix ? '/' + prefix : ''}/v1/files`, {
          method: 'POST', headers: { 'x-gw-api-key': TEST_API_KEY }, body: form, signal: AbortSignal.timeout(NO_HANG_MS),
        });
        const reply = await jsonReply(res);
        expect(reply.status, reply.text).to.equal(200);
        expect(reply.json).to.include({ object: 'file', purpose: 'batch' });
      });
    }
  });
});
