/**
 * Requests node's parser refuses, answered in the error envelope over raw sockets: headers over
 * GW_MAX_HEADER_BYTES (431, pointing at stored configs), a bad request line, content-length with
 * transfer-encoding, a NUL in a header (400). Nothing of the request is echoed.
 */
import { expect } from 'chai';
import { clientErrorFor } from '../../host/client-error.js';
import { DEFAULT_CONNECTION_LIMITS } from '../../host/connection-limits.js';
import { startGateway, TEST_API_KEY, type TestGateway } from '../helpers/gateway.js';
import { rawRequest } from '../helpers/raw-http.js';

const MAX_HEADER_BYTES = 4096;

describe('client errors', () => {
  let gw: TestGateway;

  before(async () => {
    gw = await startGateway({ serve: { maxHeaderBytes: MAX_HEADER_BYTES } });
  });
  after(async () => {
    await gw.stop();
  });

  const head = (extra: string) => `GET /health HTTP/1.1\r\nhost: 127.0.0.1\r\n${extra}\r\n`;

  it('answers 431 in the envelope for headers over the limit, naming stored configs', async () => {
    const config = JSON.stringify({ provider: 'openai', api_key: 'sk-secret-in-config', override_params: { x: 'y'.repeat(MAX_HEADER_BYTES) } });
    const reply = await rawRequest(gw.url, head(`x-gw-api-key: ${TEST_API_KEY}\r\nx-gw-config: ${config}\r\n`));
    expect(reply.status).to.equal(431);
    expect(reply.json.error).to.include({ type: 'invalid_request_error', code: 'headers_too_large', param: null });
    expect(reply.json.error.message).to.contain(`exceed ${MAX_HEADER_BYTES} bytes`).and.to.contain('/v1/configs');
    expect(reply.text).not.to.contain('sk-secret-in-config');
    expect(reply.text).not.to.contain(TEST_API_KEY);
  });

  it('takes headers under the limit', async () => {
    const reply = await rawRequest(gw.url, head(`x-filler: ${'a'.repeat(MAX_HEADER_BYTES - 200)}\r\nconnection: close\r\n`));
    expect(reply.status).to.equal(200);
  });

  it('answers 400 malformed_request for a bad request line', async () => {
    const reply = await rawRequest(gw.url, 'HELLO THERE\r\n\r\n');
    expect(reply.status).to.equal(400);
    expect(reply.json).to.deep.equal({
      error: {
        message: 'malformed HTTP request: the request line does not start with a known method',
        type: 'invalid_request_error', param: null, code: 'malformed_request',
      },
      provider: 'gw',
    });
  });

  it('answers 400 for content-length together with transfer-encoding (request smuggling)', async () => {
    const reply = await rawRequest(gw.url, 'POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n');
    expect(reply.status).to.equal(400);
    expect(reply.json.error.code).to.equal('malformed_request');
    expect(reply.json.error.message).to.contain('content-length');
  });

  it('answers 400 for a NUL in a header value, without echoing the header', async () => {
    const reply = await rawRequest(gw.url, head('x-gw-api-key: gw-secret\0tail\r\n'));
    expect(reply.status).to.equal(400);
    expect(reply.json.error.message).to.contain('NUL');
    expect(reply.text).not.to.contain('gw-secret');
  });

  it('answers 400 for a chunk size that is not hexadecimal', async () => {
    const reply = await rawRequest(gw.url, 'POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n');
    expect(reply.status).to.equal(400);
    expect(reply.json.error).to.include({ code: 'malformed_request', param: 'transfer-encoding' });
  });

  it('keeps serving after each of them', async () => {
    const res = await fetch(`${gw.url}/health`);
    expect(res.status).to.equal(200);
  });

  describe('clientErrorFor', () => {
    const limits = DEFAULT_CONNECTION_LIMITS;
    const parserError = (code: string) => Object.assign(new Error('Parse Error'), { code });

    it('tells a headers timeout from a body timeout by whether a request is being received', () => {
      expect(clientErrorFor(parserError('ERR_HTTP_REQUEST_TIMEOUT'), limits, false)).to.include({ status: 408, code: 'headers_timeout' });
      expect(clientErrorFor(parserError('ERR_HTTP_REQUEST_TIMEOUT'), limits, true)).to.include({ status: 408, code: 'body_timeout', param: 'body' });
    });

    it('answers an unknown parser error as 400 malformed_request', () => {
      const error = clientErrorFor(parserError('HPE_SOMETHING_NEW'), limits, false);
      expect(error).to.include({ status: 400, code: 'malformed_request' });
      expect(error.message).to.equal('malformed HTTP request: the bytes are not an HTTP/1.1 request');
    });

    it('names the limit in force in the 431', () => {
      expect(clientErrorFor(parserError('HPE_HEADER_OVERFLOW'), { ...limits, maxHeaderBytes: 1234 }, false).message).to.contain('1234 bytes');
    });
  });
});
