/** The mock Azure checks path, api-version and auth form as Azure does. */
import { expect } from 'chai';
import { startAzureMock, type MockAzure } from '../../fixtures/mock-azure.js';

describe('mock Azure', () => {
  let mock: MockAzure;
  before(async () => {
    mock = await startAzureMock({ deployments: { known: 'gpt-4o' } });
  });
  after(async () => mock?.close());

  const post = (path: string, headers: Record<string, string>) =>
    fetch(mock.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ messages: [{ role: 'user', content: 'x' }] }) })
      .then(async (r) => ({ status: r.status, json: (await r.json()) as Record<string, any> }));

  it('answers Azure\'s errors for a missing api-version, key, or deployment', async () => {
    expect(await post('/openai/deployments/known/chat/completions', { 'api-key': 'k' })).to.deep.equal({ status: 404, json: { error: { code: '404', message: 'Resource not found' } } });
    expect((await post('/openai/deployments/known/chat/completions?api-version=v', {})).status).to.equal(401);
    expect((await post('/openai/deployments/other/chat/completions?api-version=v', { 'api-key': 'k' })).json.error.code).to.equal('DeploymentNotFound');
    expect((await post('/openai/deployments/known/chat/completions?api-version=v', { 'api-key': 'k' })).status).to.equal(200);
    expect((await post('/openai/deployments/known/chat/completions?api-version=v', { authorization: 'Bearer t' })).status).to.equal(200);
  });

  it('takes only a bearer token on Azure AI paths', async () => {
    expect((await post('/v1/chat/completions', { 'api-key': 'k' })).status).to.equal(401);
    expect((await post('/v1/chat/completions', { authorization: 'Bearer k' })).status).to.equal(200);
  });
});
