/** URLs, headers and target rules of the Bedrock adapter. */
import { expect } from 'chai';
import type { AdapterInput, Attempt, EndpointDef, Target } from '../../../core/index.js';
import { createBedrockAdapter, EVENT_STREAM_CONTENT_TYPE, type BedrockEndpointAdapter } from '../../../providers/bedrock/adapter.js';

const adapter = createBedrockAdapter();
const CREDS = { provider: 'bedrock', cloudA_region: 'eu-west-3', cloudA_access_key_id: 'AKIDEXAMPLE', cloudA_secret_access_key: 'secret' };

function input(endpoint: string, target: Record<string, unknown>, body: Record<string, unknown>, stream = false): AdapterInput {
  return { attempt: {} as Attempt, target: target as unknown as Target, endpoint: { id: endpoint } as EndpointDef, body, stream };
}

describe('bedrock adapter', () => {
  const chat = adapter.endpoints['chatComplete'] as BedrockEndpointAdapter;
  const rerank = adapter.endpoints['rerank'] as BedrockEndpointAdapter;
  const body = { model: 'mistral.mistral-large-2407-v1:0', messages: [{ role: 'user', content: 'hi' }] };

  it('serves chatComplete, rerank, and Messages and countTokens for Claude only', () => {
    expect(adapter.id).to.equal('bedrock');
    expect(Object.keys(adapter.endpoints).sort()).to.deep.equal(['chatComplete', 'countTokens', 'messages', 'rerank']);
    for (const id of ['messages', 'countTokens']) {
      const endpoint = adapter.endpoints[id]!;
      expect(endpoint.accepts?.({ model: 'us.anthropic.claude-sonnet-4-20250514-v1:0' }), id).to.equal(true);
      expect(endpoint.accepts?.({ model: 'amazon.nova-lite-v1:0' }), id).to.equal(false);
    }
    expect(chat.streamContentType).to.equal(EVENT_STREAM_CONTENT_TYPE);
  });

  it('calls the regional runtime hosts, Converse or ConverseStream by stream', async () => {
    const plain = await chat.request(input('chatComplete', CREDS, body));
    expect(plain.url).to.equal('https://bedrock-runtime.eu-west-3.amazonaws.com/model/mistral.mistral-large-2407-v1%3A0/converse');
    expect(plain.method).to.equal('POST');
    expect(plain.headers['accept']).to.equal('application/json');
    expect(plain.headers['host']).to.equal('bedrock-runtime.eu-west-3.amazonaws.com');
    expect(JSON.parse(String(plain.body))).to.deep.equal({ messages: [{ role: 'user', content: [{ text: 'hi' }] }] });
    const streamed = await chat.request(input('chatComplete', CREDS, { ...body, stream: true }, true));
    expect(streamed.url).to.equal('https://bedrock-runtime.eu-west-3.amazonaws.com/model/mistral.mistral-large-2407-v1%3A0/converse-stream');
    expect(streamed.headers['accept']).to.equal(EVENT_STREAM_CONTENT_TYPE);
    const ranked = await rerank.request(input('rerank', CREDS, { model: 'amazon.rerank-v1:0', query: 'q', documents: ['a'] }));
    expect(ranked.url).to.equal('https://bedrock-agent-runtime.eu-west-3.amazonaws.com/rerank');
  });

  it('keeps its path layout below custom_host (a VPC endpoint or proxy)', async () => {
    const target = { ...CREDS, custom_host: 'https://vpce-0abc.bedrock-runtime.eu-west-3.vpce.amazonaws.com/' };
    expect((await chat.request(input('chatComplete', target, body))).url).to.equal('https://vpce-0abc.bedrock-runtime.eu-west-3.vpce.amazonaws.com/model/mistral.mistral-large-2407-v1%3A0/converse');
    expect((await rerank.request(input('rerank', target, { model: 'm', query: 'q', documents: ['a'] }))).url).to.equal('https://vpce-0abc.bedrock-runtime.eu-west-3.vpce.amazonaws.com/rerank');
  });

  it('requires region, access key id and secret, and a region-shaped region', () => {
    expect(adapter.validateTarget!(CREDS, '')).to.deep.equal([]);
    expect(adapter.validateTarget!({ ...CREDS, cloudA_session_token: 'tok' }, 'targets.0')).to.deep.equal([]);
    expect(adapter.validateTarget!({ provider: 'bedrock' }, 'targets.2')).to.deep.equal([
      { path: 'targets.2.cloudA_region', rule: 'is required for provider "bedrock"' },
      { path: 'targets.2.cloudA_access_key_id', rule: 'is required for provider "bedrock"' },
      { path: 'targets.2.cloudA_secret_access_key', rule: 'is required for provider "bedrock"' },
    ]);
    for (const region of ['us-east-1', 'us-gov-west-1', 'ap-southeast-2', 'cn-north-1', 'il-central-1']) {
      expect(adapter.validateTarget!({ ...CREDS, cloudA_region: region }, ''), region).to.deep.equal([]);
    }
    for (const region of ['US-EAST-1', 'us-east', 'example.com', 'us-east-1.evil.com/', 'us east 1']) {
      expect(adapter.validateTarget!({ ...CREDS, cloudA_region: region }, ''), region).to.deep.equal([{ path: 'cloudA_region', rule: 'must be an AWS region name such as "us-east-1"' }]);
    }
  });
});
