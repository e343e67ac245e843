/** The google adapter's pieces without a network: target rules, URLs and headers, the embeddings mapping, errors. */
import { expect } from 'chai';
import { GatewayError } from '../../../core/index.js';
import { googleError } from '../../../providers/gemini-common/errors.js';
import { toGeminiRequest } from '../../../providers/gemini-common/request.js';
import { embedMethodOf, fromGeminiEmbed, toGeminiEmbed } from '../../../providers/google/embed.js';
import { checkedModel, modelUrl, requestHeaders, validateTarget } from '../../../providers/google/target.js';

function refused(run: () => unknown): GatewayError {
  try {
    run();
  } catch (e) {
    expect(e).to.be.instanceOf(GatewayError);
    return e as GatewayError;
  }
  return expect.fail('expected a 400');
}

describe('provider google: target', () => {
  it('needs api_key unless custom_host is set', () => {
    expect(validateTarget({ provider: 'google' }, 'targets.1')).to.deep.equal([
      { path: 'targets.1.api_key', rule: 'is required for provider "google" (a Gemini API key; or set custom_host)' },
    ]);
    expect(validateTarget({ provider: 'google', api_key: 'k' }, '')).to.deep.equal([]);
    expect(validateTarget({ provider: 'google', custom_host: 'http://127.0.0.1:1/v1beta' }, '')).to.deep.equal([]);
  });

  it('builds the v1beta URL, or one below custom_host, and sends the key only as x-goog-api-key', () => {
    expect(modelUrl({ provider: 'google' }, 'gemini-2.0-flash', 'generateContent'))
      .to.equal('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent');
    expect(modelUrl({ provider: 'google', custom_host: 'http://127.0.0.1:8/g/v1beta/' }, 'm', 'embedContent'))
      .to.equal('http://127.0.0.1:8/g/v1beta/models/m:embedContent');
    expect(requestHeaders({ provider: 'google', api_key: 'AIza-1' })).to.deep.equal({ 'content-type': 'application/json', 'x-goog-api-key': 'AIza-1' });
    expect(requestHeaders({ provider: 'google', custom_host: 'http://h' })).to.deep.equal({ 'content-type': 'application/json' });
  });

  it('takes plain and models/ model ids and refuses what would change the path', () => {
    expect(checkedModel('gemini-1.5-pro-002')).to.equal('gemini-1.5-pro-002');
    expect(checkedModel('models/text-embedding-004')).to.equal('text-embedding-004');
    for (const bad of ['models/', 'a/b', 'x:streamGenerateContent', '-x', 42, undefined]) {
      expect(refused(() => checkedModel(bad)).param, String(bad)).to.equal('model');
    }
  });
});

describe('provider google: embeddings mapping', () => {
  it('maps one string to embedContent and an array to batchEmbedContents', () => {
    expect(embedMethodOf({ input: 'a' })).to.equal('embedContent');
    expect(embedMethodOf({ input: ['a'] })).to.equal('batchEmbedContents');
    expect(toGeminiEmbed({ input: 'a', dimensions: 4, task_type: 'RETRIEVAL_QUERY' }, 'm'))
      .to.deep.equal({ content: { parts: [{ text: 'a' }] }, outputDimensionality: 4, taskType: 'RETRIEVAL_QUERY' });
    expect(toGeminiEmbed({ input: ['a', 'b'] }, 'm')).to.deep.equal({
      requests: [{ model: 'models/m', content: { parts: [{ text: 'a' }] } }, { model: 'models/m', content: { parts: [{ text: 'b' }] } }],
    });
  });

  it('refuses bad input, dimensions and task_type with 400s naming the field', () => {
    for (const input of [[], [1, 2], [[1]], ['a', 3], null, undefined]) expect(refused(() => toGeminiEmbed({ input }, 'm')).param).to.equal('input');
    for (const dimensions of [0, 1.5, '8']) expect(refused(() => toGeminiEmbed({ input: 'a', dimensions }, 'm')).param).to.equal('dimensions');
    expect(refused(() => toGeminiEmbed({ input: 'a', task_type: 'query' }, 'm')).param).to.equal('task_type');
  });

  it('answers a list in order, floats or base64 float32, with usage when Google gives it', () => {
    const single = fromGeminiEmbed({ embedding: { values: [0.5, -1] } }, { model: 'm', encoding_format: 'float' });
    expect(single).to.deep.equal({
      object: 'list', data: [{ object: 'embedding', index: 0, embedding: [0.5, -1] }], model: 'm', provider: 'google', usage: { prompt_tokens: 0, total_tokens: 0 },
    });
    const batch = fromGeminiEmbed({ embeddings: [{ values: [1] }, { values: [2] }], usageMetadata: { promptTokenCount: 6 } }, { model: 'm', encoding_format: 'base64' });
    const data = batch['data'] as { index: number; embedding: string }[];
    expect(data.map((d) => d.index)).to.deep.equal([0, 1]);
    const bytes = Buffer.from(data[1]!.embedding, 'base64');
    expect([bytes.length, bytes.readFloatLE(0)]).to.deep.equal([4, 2]);
    expect(batch['usage']).to.deep.equal({ prompt_tokens: 6, total_tokens: 6 });
  });

  it('throws on an answer without vectors (the gateway answers 502)', () => {
    expect(() => fromGeminiEmbed({}, { model: 'm' })).to.throw('no embedding values');
    expect(() => fromGeminiEmbed({ embeddings: [{}] }, { model: 'm' })).to.throw('no embedding values');
  });
});

describe('gemini-common names the provider it serves', () => {
  it('in request refusals and in errors', () => {
    const e = refused(() => toGeminiRequest({ messages: [{ role: 'critic', content: 'x' }] }, 'google'));
    expect(e.message).to.contain('provider google');
    const mapped = googleError(429, Buffer.from(JSON.stringify({ error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED' } })), 'google');
    expect([mapped.status, mapped.message, mapped.code, mapped.provider]).to.deep.equal([429, 'quota', 'RESOURCE_EXHAUSTED', 'google']);
    const plain = googleError(502, Buffer.from('<html>oops</html>'), 'google');
    expect([plain.status, plain.message, plain.provider]).to.deep.equal([502, 'provider google answered 502: <html>oops</html>', 'google']);
  });
});
