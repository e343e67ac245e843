/** The mock Voyage refuses what Voyage does not take (a `top_n`), in Voyage's error format. */
import { expect } from 'chai';
import { startVoyageMock, type MockVoyage } from '../../fixtures/mock-voyage.js';

describe('mock Voyage', () => {
  let mock: MockVoyage;
  before(async () => {
    mock = await startVoyageMock();
  });
  after(async () => mock?.close());

  const post = (body: unknown, auth = 'Bearer k') =>
    fetch(mock.url + '/v1/rerank', { method: 'POST', headers: { 'content-type': 'application/json', authorization: auth }, body: JSON.stringify(body) })
      .then(async (r) => ({ status: r.status, json: (await r.json()) as Record<string, any> }));

  it('checks key and body, and cuts to top_k', async () => {
    expect((await post({ query: 'q', documents: ['a'], model: 'm' }, 'Token k')).json).to.deep.equal({ detail: 'Provided API key is invalid.' });
    expect((await post({ query: 'q', documents: ['a'], model: 'm', top_n: 1 })).json.detail).to.contain("'top_n'");
    const ok = await post({ query: 'a b', documents: ['a', 'a b', 'c'], model: 'm', top_k: 2, return_documents: true });
    expect(ok.json.data).to.deep.equal([{ relevance_score: 1, index: 1, document: 'a b' }, { relevance_score: 0.5, index: 0, document: 'a' }]);
  });
});
