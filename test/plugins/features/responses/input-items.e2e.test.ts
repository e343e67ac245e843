/**
 * GET /v1/responses/:id/input_items end to end, read with the official openai SDK
 * (`client.responses.inputItems.list`, its cursor pages) and raw HTTP for the bad-input cases.
 * Responses are created through chat (the loopback chat mock) and stored by the gateway.
 */
import { expect } from 'chai';
import OpenAI from 'openai';
import ResponsesPlugin from '../../../../plugins/features/responses/index.js';
import { postJson, startGateway, TEST_API_KEY, type JsonReply, type TestGateway } from '../../../helpers/gateway.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import TestPrincipalPlugin from '../prompts/principal-plugin.js';

async function get(url: string, headers: Record<string, string>): Promise<JsonReply> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined, text };
}

describe('feature.responses: GET /v1/responses/:id/input_items', () => {
  let gw: TestGateway;
  let chatMock: MockOpenAI;
  const headers = (extra: Record<string, string> = {}): Record<string, string> => ({
    'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY,
    'x-gw-provider': 'groq', authorization: 'Bearer gsk-test', 'x-gw-custom-host': `${chatMock.url}/v1`, ...extra,
  });
  const sdk = (extra: Record<string, string> = {}) => new OpenAI({ apiKey: 'gsk-test', baseURL: `${gw.url}/v1`, maxRetries: 0, defaultHeaders: headers(extra) });
  const create = async (body: unknown, extra: Record<string, string> = {}) => {
    const res = await postJson(gw.url, '/v1/responses', body, headers(extra));
    expect(res.status, res.text).to.equal(200);
    return res.json.id as string;
  };
  const list = (id: string, query = '', extra: Record<string, string> = {}) => get(`${gw.url}/v1/responses/${id}/input_items${query}`, headers(extra));

  const FIVE = [
    { role: 'developer', content: 'Be brief.' },
    { role: 'user', content: [{ type: 'input_text', text: 'one' }] },
    { type: 'message', id: 'msg_client_given', role: 'assistant', content: [{ type: 'output_text', text: 'two' }] },
    { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{"city":"Oslo"}' },
    { type: 'function_call_output', call_id: 'call_1', output: 'rain' },
  ];

  before(async () => {
    chatMock = await startMockOpenAI();
    gw = await startGateway({ plugins: [ResponsesPlugin, TestPrincipalPlugin] });
  });
  after(async () => {
    await gw?.stop();
    await chatMock?.close();
  });

  it('lists a string input as one user message in item form (SDK)', async () => {
    const id = await create({ model: 'llama-3.1-8b', input: 'hi' });
    const page = await sdk().responses.inputItems.list(id);
    expect(page.data).to.have.length(1);
    const item = page.data[0]!;
    expect(item).to.deep.include({ type: 'message', role: 'user', status: 'completed', content: [{ type: 'input_text', text: 'hi' }] });
    expect(item.id).to.match(/^msg_[0-9a-f]{48}$/);
    const raw = await list(id);
    expect(raw.json).to.deep.equal({ object: 'list', data: [item], first_id: item.id, last_id: item.id, has_more: false });
  });

  it('keeps given ids, derives the others the same on every read, newest first by default', async () => {
    const id = await create({ model: 'llama-3.1-8b', input: FIVE });
    const first = (await list(id)).json;
    const again = (await list(id)).json;
    expect(again).to.deep.equal(first);
    const ids = first.data.map((i: { id: string }) => i.id);
    expect(new Set(ids).size).to.equal(5);
    expect(first.data.map((i: { type: string }) => i.type)).to.deep.equal(['function_call_output', 'function_call', 'message', 'message', 'message']);
    expect(ids[0]).to.match(/^fco_/);
    expect(ids[1]).to.match(/^fc_/);
    expect(ids[2]).to.equal('msg_client_given');
    expect(first.data[4]).to.deep.include({ role: 'developer', content: [{ type: 'input_text', text: 'Be brief.' }] });
    expect(first.data[0]).to.deep.include({ call_id: 'call_1', output: 'rain' });
    const asc = (await list(id, '?order=asc')).json;
    expect(asc.data.map((i: { id: string }) => i.id)).to.deep.equal([...ids].reverse());
  });

  it('pages with limit and after; the SDK follows the cursor through every page', async () => {
    const id = await create({ model: 'llama-3.1-8b', input: FIVE });
    const page1 = (await list(id, '?order=asc&limit=2')).json;
    expect(page1.data).to.have.length(2);
    expect(page1.has_more).to.equal(true);
    expect(page1.first_id).to.equal(page1.data[0].id);
    expect(page1.last_id).to.equal(page1.data[1].id);
    const page2 = (await list(id, `?order=asc&limit=2&after=${page1.last_id}`)).json;
    expect(page2.data.map((i: { type: string }) => i.type)).to.deep.equal(['message', 'function_call']);
    const page3 = (await list(id, `?order=asc&limit=2&after=${page2.last_id}`)).json;
    expect(page3.data).to.have.length(1);
    expect(page3.has_more).to.equal(false);

    const seen: string[] = [];
    for await (const item of sdk().responses.inputItems.list(id, { limit: 2, order: 'asc' })) seen.push(item.id!);
    expect(seen).to.deep.equal([...page1.data, ...page2.data, ...page3.data].map((i: { id: string }) => i.id));
    const desc: string[] = [];
    for await (const item of sdk().responses.inputItems.list(id, { limit: 3 })) desc.push(item.id!);
    expect(desc).to.deep.equal([...seen].reverse());
  });

  it('lists only the response\'s own input, not the turns carried over by previous_response_id', async () => {
    const first = await create({ model: 'llama-3.1-8b', input: 'first turn' });
    const second = await create({ model: 'llama-3.1-8b', input: 'second turn', previous_response_id: first });
    const items = (await list(second)).json.data;
    expect(items).to.have.length(1);
    expect(items[0].content).to.deep.equal([{ type: 'input_text', text: 'second turn' }]);
    // The chain did reach the provider whole.
    const sent = chatMock.requests[chatMock.requests.length - 1]!.body.messages;
    expect(sent.map((m: { content: string }) => m.content)).to.deep.equal(['first turn', 'echo: first turn', 'second turn']);
  });

  it('404 for an unknown id, a deleted response, or one of another organisation or workspace', async () => {
    const unknown = await list('resp_nope');
    expect(unknown.status).to.equal(404);
    expect(unknown.json.error).to.include({ code: 'response_not_found' });
    const as = (org: string, workspace?: string) => ({ 'x-test-org': org, ...(workspace ? { 'x-test-workspace': workspace } : {}) });
    const id = await create({ model: 'm', input: 'private' }, as('org-a', 'ws-1'));
    expect((await list(id, '', as('org-a', 'ws-1'))).status).to.equal(200);
    expect((await list(id, '', as('org-a'))).status, 'organisation-level key').to.equal(200);
    expect((await list(id, '', as('org-a', 'ws-2'))).status).to.equal(404);
    expect((await list(id, '', as('org-b'))).status).to.equal(404);
    const sdkError = await sdk(as('org-b')).responses.inputItems.list(id).catch((e: unknown) => e);
    expect(sdkError).to.be.instanceOf(OpenAI.NotFoundError);
    const deleted = await fetch(`${gw.url}/v1/responses/${id}`, { method: 'DELETE', headers: headers(as('org-a')) });
    expect(deleted.status).to.equal(200);
    expect((await list(id, '', as('org-a'))).status).to.equal(404);
  });

  it('bad query values: 400 in the envelope naming the parameter and the rule', async () => {
    const id = await create({ model: 'llama-3.1-8b', input: FIVE });
    const cases: [string, string, string][] = [
      ['?limit=0', 'limit', 'query.limit: must be an integer from 1 to 100'],
      ['?limit=101', 'limit', 'query.limit: must be an integer from 1 to 100'],
      ['?limit=two', 'limit', 'query.limit: must be an integer from 1 to 100'],
      ['?order=up', 'order', 'query.order: must be "asc" or "desc"'],
      ['?after=msg_unknown', 'after', 'query.after: "msg_unknown" is not an input item of response'],
      ['?include=everything', 'include', 'query.include: "everything" is not one of'],
    ];
    for (const [query, param, message] of cases) {
      const res = await list(id, query);
      expect(res.status, query).to.equal(400);
      expect(res.json.error.param, query).to.equal(param);
      expect(res.json.error.message, query).to.contain(message);
    }
    const sdkError = await sdk().responses.inputItems.list(id, { limit: 500 }).catch((e: unknown) => e);
    expect(sdkError).to.be.instanceOf(OpenAI.BadRequestError);
  });

  it('needs the gateway key', async () => {
    const res = await get(`${gw.url}/v1/responses/resp_x/input_items`, { 'content-type': 'application/json' });
    expect(res.status).to.equal(401);
  });
});
