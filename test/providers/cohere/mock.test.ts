/** The mock Cohere checks what it receives, as Cohere does, so adapter mistakes surface as Cohere's 4xx. */
import { expect } from 'chai';
import { startCohereMock, type MockCohere } from '../../fixtures/mock-cohere.js';

describe('mock Cohere', () => {
  let mock: MockCohere;
  before(async () => {
    mock = await startCohereMock();
  });
  after(async () => mock?.close());

  const post = (path: string, body: unknown, auth: string | null = 'Bearer k') =>
    fetch(mock.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) }, body: JSON.stringify(body) })
      .then(async (r) => ({ status: r.status, json: (await r.json()) as Record<string, any> }));

  it('refuses a missing key, OpenAI-only fields and wrong shapes in Cohere\'s error format', async () => {
    expect((await post('/v2/chat', { model: 'm', messages: [] }, null)).json.message).to.equal('no api key supplied');
    const topP = await post('/v2/chat', { model: 'm', messages: [{ role: 'user', content: 'x' }], top_p: 1 });
    expect(topP.status).to.equal(400);
    expect(topP.json.message).to.equal('invalid request: unknown field: parameter top_p is not a valid field');
    expect(topP.json.id).to.be.a('string');
    expect((await post('/v2/chat', { model: 'm', messages: [{ role: 'developer', content: 'x' }] })).status).to.equal(400);
    expect((await post('/v2/embed', { model: 'm', texts: ['a'] })).json.message).to.contain('input_type');
    expect((await post('/v2/rerank', { model: 'm', query: 'q', documents: [{ text: 'a' }] })).status).to.equal(400);
    expect((await post('/v1/chat', {})).status).to.equal(404);
  });

  it('streams the documented event sequence', async () => {
    const res = await fetch(mock.url + '/v2/chat', {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi there' }] }),
    });
    expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
    const types = (await res.text()).split('\n\n').filter(Boolean).map((e) => e.split('\n')[0]);
    expect(types).to.deep.equal([
      'event: message-start', 'event: content-start', 'event: content-delta', 'event: content-delta', 'event: content-delta', 'event: content-end', 'event: message-end',
    ]);
  });
});
