/** route.proxy's header rules: no gateway header or client credential goes up, no hop-by-hop one either way. */
import { expect } from 'chai';
import { answerHeaders, upstreamHeaders } from '../../../../plugins/routing/proxy/headers.js';

describe('route.proxy: headers', () => {
  it('sends the client\'s headers without gateway, credential, forwarding and hop-by-hop ones', () => {
    const sent = upstreamHeaders({
      'content-type': 'multipart/form-data; boundary=x',
      'content-length': '12',
      accept: 'application/json',
      'openai-beta': 'assistants=v2',
      'x-gw-api-key': 'gw-secret',
      'x-gw-config': '{"provider":"openai"}',
      authorization: 'Bearer gw-or-client-key',
      'x-api-key': 'client-key',
      'api-key': 'client-key',
      cookie: 'session=1',
      host: 'gateway.local',
      connection: 'keep-alive, x-hop',
      'x-hop': 'drop me',
      'keep-alive': 'timeout=5',
      'transfer-encoding': 'chunked',
      'x-forwarded-for': '10.0.0.1',
      forwarded: 'for=10.0.0.1',
      expect: '100-continue',
      undefinedOne: undefined,
    }, { url: 'http://127.0.0.1:9/v1', headers: { authorization: 'Bearer sk-target' } });
    expect(sent).to.deep.equal({
      'content-type': 'multipart/form-data; boundary=x',
      'content-length': '12',
      accept: 'application/json',
      'openai-beta': 'assistants=v2',
      authorization: 'Bearer sk-target',
    });
  });

  it('lets the client choose what the base only defaults (an API version), never the credentials', () => {
    const base = { url: 'http://127.0.0.1:9/v1', headers: { 'x-api-key': 'sk-ant-target' }, defaultHeaders: { 'anthropic-version': '2023-06-01' } };
    expect(upstreamHeaders({ 'anthropic-version': '2024-01-01', 'x-api-key': 'mine' }, base))
      .to.deep.equal({ 'anthropic-version': '2024-01-01', 'x-api-key': 'sk-ant-target' });
    expect(upstreamHeaders({}, base)).to.deep.equal({ 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-ant-target' });
  });

  it('passes the provider\'s answer headers without hop-by-hop ones, cookies and x-gw-*', () => {
    expect(answerHeaders({
      'content-type': 'application/json',
      'content-length': '42',
      'content-encoding': 'gzip',
      'x-request-id': 'req_1',
      'openai-processing-ms': '12',
      'set-cookie': 'a=b',
      connection: 'keep-alive',
      'keep-alive': 'timeout=5',
      'transfer-encoding': 'chunked',
      'x-gw-provider': 'spoofed',
      date: 'Thu, 01 Jan 2026 00:00:00 GMT',
    })).to.deep.equal({
      'content-type': 'application/json',
      'content-length': '42',
      'content-encoding': 'gzip',
      'x-request-id': 'req_1',
      'openai-processing-ms': '12',
    });
  });
});
