/** The mock Bedrock itself: it must refuse what real Bedrock refuses, or the adapter tests prove little. */
import { expect } from 'chai';
import { signedAwsPost, type AwsSignInput } from '../../../core/index.js';

/** Signed as Bedrock signs (service `bedrock`). */
const signedPost = (input: Omit<AwsSignInput, 'service'>) => signedAwsPost({ ...input, service: 'bedrock' });
import { MOCK_AWS, startMockBedrock, type MockBedrock } from '../../fixtures/mock-bedrock.js';

describe('mock bedrock', () => {
  let mock: MockBedrock;
  before(async () => {
    mock = await startMockBedrock();
  });
  after(async () => {
    await mock?.close();
  });

  async function call(path: string, body: unknown, secret: string = MOCK_AWS.secretAccessKey) {
    const req = await signedPost({
      url: mock.url + path,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      region: MOCK_AWS.region,
      credentials: { accessKeyId: MOCK_AWS.accessKeyId, secretAccessKey: secret },
    });
    const res = await fetch(req.url, { method: 'POST', headers: req.headers, body: req.body });
    return { status: res.status, type: res.headers.get('x-amzn-errortype'), json: (await res.json()) as any };
  }

  it('refuses unsigned and badly signed requests with 403 and the AWS error type', async () => {
    const unsigned = await fetch(`${mock.url}/model/m/converse`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(unsigned.status).to.equal(403);
    expect(unsigned.headers.get('x-amzn-errortype')).to.match(/^MissingAuthenticationTokenException:/);
    const bad = await call('/model/m/converse', { messages: [{ role: 'user', content: [{ text: 'x' }] }] }, 'other');
    expect(bad.status).to.equal(403);
    expect(bad.type).to.match(/^InvalidSignatureException:/);
    expect(bad.json.message).to.match(/^The request signature we calculated does not match/);
  });

  it('refuses Converse bodies real Bedrock refuses (400 ValidationException)', async () => {
    const cases: unknown[] = [
      { messages: [] },
      { messages: [{ role: 'assistant', content: [{ text: 'x' }] }] },
      { messages: [{ role: 'user', content: [{ text: 'a' }] }, { role: 'user', content: [{ text: 'b' }] }] },
      { messages: [{ role: 'user', content: [{ text: ' ' }] }] },
      { messages: [{ role: 'user', content: [{ text: 'a', image: {} }] }] },
      { messages: [{ role: 'user', content: [{ toolResult: { toolUseId: 't', content: [{ text: 'r' }] } }] }] },
      { messages: [{ role: 'user', content: [{ text: 'a' }] }], model: 'm' },
      { messages: [{ role: 'user', content: [{ text: 'a' }] }], inferenceConfig: { temperature: 1.5 } },
    ];
    for (const body of cases) {
      const reply = await call('/model/m/converse', body);
      expect(reply.status, JSON.stringify(body)).to.equal(400);
      expect(reply.type).to.match(/^ValidationException:/);
    }
  });

  it('refuses a rerank without a foundation-model ARN of its region, and unknown operations', async () => {
    const body = {
      queries: [{ type: 'TEXT', textQuery: { text: 'q' } }],
      sources: [{ type: 'INLINE', inlineDocumentSource: { type: 'TEXT', textDocument: { text: 'd' } } }],
      rerankingConfiguration: { type: 'BEDROCK_RERANKING_MODEL', bedrockRerankingConfiguration: { modelConfiguration: { modelArn: 'amazon.rerank-v1:0' } } },
    };
    expect((await call('/rerank', body)).status).to.equal(400);
    body.rerankingConfiguration.bedrockRerankingConfiguration.modelConfiguration.modelArn = 'arn:aws:bedrock:us-east-1::foundation-model/amazon.rerank-v1:0';
    expect((await call('/rerank', body)).status).to.equal(200);
    expect((await call('/model/a/b/converse', body)).status).to.equal(404);
  });
});
