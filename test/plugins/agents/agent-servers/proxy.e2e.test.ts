/**
 * POST /v1/agents/:id end to end: the official @a2a-js/sdk client, built from the gateway's
 * rewritten card, drives a real @a2a-js/sdk agent through the gateway (v1.0 and v0.3 methods,
 * whole and streamed answers, tasks). Also: what reaches the agent (its own credential, never the
 * client's key), scopes and visibility, unknown methods, bad bodies, broken agents, log rows,
 * rate limits on endpoint_type a2a.
 */
import { expect } from 'chai';
import { LegacyJsonRpcTransport } from '@a2a-js/sdk/compat/v0_3/client';
import { TaskState, type StreamResponse, type Task } from '@a2a-js/sdk';
import { startA2AAgent, type A2AAgent } from '../../../fixtures/a2a-agent.js';
import { postJson, startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { RequestLogsService } from '../../../../plugins/observe/logs/contract.js';
import { agentClient, as, call, caller, fetchWith, KEY_HEADERS, sendRequest, startAgentGateway, textOf } from './harness.js';

const TOKEN = 'agent-bearer-5c2e8d';

describe('agents.agent-servers: A2A JSON-RPC through /v1/agents/:id', () => {
  let agent: A2AAgent;
  let gw: TestGateway;
  let id: string;

  before(async () => {
    agent = await startA2AAgent();
    gw = await startAgentGateway();
    id = (await call(gw, 'POST', '/v1/agent-servers', { name: 'Echo', slug: 'echo', url: agent.url, auth: { type: 'bearer', token: TOKEN } })).json.id;
  });
  after(async () => {
    await gw?.stop();
    await agent?.close();
  });
  beforeEach(() => agent.reset());

  const rpc = (ref: string, body: unknown, headers: Record<string, string> = {}) =>
    postJson(gw.url, `/v1/agents/${ref}`, body, { 'content-type': 'application/json', ...KEY_HEADERS, ...headers });

  describe('with the SDK client (A2A 1.0)', () => {
    it('SendMessage: the agent answers, with its own credential, never the client\'s key', async () => {
      const client = await agentClient(gw, id);
      const answer = await client.sendMessage(sendRequest('hello'));
      expect('messageId' in answer && textOf(answer)).to.equal('echo: hello');
      const reached = agent.calls.at(-1)!;
      expect(reached.body.method).to.equal('SendMessage');
      expect(reached.headers['authorization']).to.equal(`Bearer ${TOKEN}`);
      expect(reached.headers['a2a-version']).to.equal('1.0');
      expect(reached.headers['x-gw-api-key']).to.equal(undefined);
      expect(JSON.stringify(reached.headers)).not.to.include(TEST_API_KEY);
    });

    it('SendStreamingMessage: events arrive one by one (the first before the agent sends its last)', async () => {
      const client = await agentClient(gw, id);
      const stream = client.sendMessageStream(sendRequest('stream'));
      const first = await stream.next();
      expect(first.done).to.equal(false);
      expect((first.value as StreamResponse).payload?.$case).to.equal('task');
      expect(agent.streamFinished, 'the agent has not sent its last event yet').to.equal(false);
      agent.release();
      const rest: StreamResponse[] = [];
      for await (const event of stream) rest.push(event);
      expect(agent.streamFinished).to.equal(true);
      const last = rest.at(-1)!.payload;
      expect(last?.$case).to.equal('statusUpdate');
      expect(last?.$case === 'statusUpdate' && last.value.status?.state).to.equal(TaskState.TASK_STATE_COMPLETED);
      expect(rest.some((e) => e.payload?.$case === 'artifactUpdate')).to.equal(true);
    });

    it('GetTask: a task made through the gateway is read back through it', async () => {
      const client = await agentClient(gw, id);
      const made = await client.sendMessage(sendRequest('task')) as Task;
      expect(made.id).to.be.a('string');
      const read = await client.getTask({ tenant: '', id: made.id, historyLength: undefined });
      expect(read.id).to.equal(made.id);
      expect(read.status?.state).to.equal(TaskState.TASK_STATE_COMPLETED);
      expect(agent.calls.map((c) => c.body.method)).to.deep.equal(['SendMessage', 'GetTask']);
    });

    it('CancelTask: a running task is cancelled and its stream ends so', async () => {
      const client = await agentClient(gw, id);
      const stream = client.sendMessageStream(sendRequest('wait'));
      const first = (await stream.next()).value as StreamResponse;
      const taskId = first.payload?.$case === 'task' ? first.payload.value.id : '';
      expect(taskId).to.not.equal('');
      const cancelled = await client.cancelTask({ tenant: '', id: taskId, metadata: undefined });
      expect(cancelled.id).to.equal(taskId);
      let state: TaskState | undefined;
      for await (const event of stream) if (event.payload?.$case === 'statusUpdate') state = event.payload.value.status?.state;
      expect(state).to.equal(TaskState.TASK_STATE_CANCELED);
      expect(agent.calls.map((c) => c.body.method)).to.include('CancelTask');
    });
  });

  describe('with the SDK\'s v0.3 transport', () => {
    it('message/send and message/stream at the url of the v0.3 card', async () => {
      const card = await call(gw, 'GET', `/v1/agent-servers/${id}/agent-card`);
      expect(card.json.url).to.equal(`${gw.url}/v1/agents/${id}`);
      const legacy = new LegacyJsonRpcTransport({ endpoint: card.json.url, fetchImpl: fetchWith(KEY_HEADERS) });
      const answer = await legacy.sendMessage(sendRequest('hi there'));
      expect('messageId' in answer && textOf(answer)).to.equal('echo: hi there');
      expect(agent.calls.at(-1)!.body.method).to.equal('message/send');

      agent.release();
      const events: StreamResponse[] = [];
      for await (const event of legacy.sendMessageStream(sendRequest('stream'))) events.push(event);
      expect(events[0]!.payload?.$case).to.equal('task');
      expect(agent.calls.at(-1)!.body.method).to.equal('message/stream');
      const taskId = events[0]!.payload?.$case === 'task' ? events[0]!.payload.value.id : '';
      const read = await legacy.getTask({ tenant: '', id: taskId, historyLength: undefined });
      expect(read.status?.state).to.equal(TaskState.TASK_STATE_COMPLETED);
      expect(agent.calls.at(-1)!.body.method).to.equal('tasks/get');
    });
  });

  describe('refusals', () => {
    it('an unknown or unproxied method answers JSON-RPC -32601 without calling the agent', async () => {
      for (const method of ['tasks/pushNotificationConfig/set', 'ListTasks', 'GetExtendedAgentCard', 'no/such']) {
        const res = await rpc(id, { jsonrpc: '2.0', id: 7, method, params: {} });
        expect(res.status).to.equal(200);
        expect(res.json).to.deep.include({ jsonrpc: '2.0', id: 7 });
        expect(res.json.error.code).to.equal(-32601);
      }
      expect(agent.calls).to.have.length(0);
    });

    it('needs agents.invoke (403 in the gateway envelope), for the SDK client too', async () => {
      const res = await rpc(id, { jsonrpc: '2.0', id: 1, method: 'message/send', params: {} }, as(caller(['agent_servers.*'])));
      expect(res.status).to.equal(403);
      expect(res.json.error).to.include({ code: 'forbidden' });
      expect(res.json.error.message).to.include('agents.invoke');
      const card = await call(gw, 'GET', `/v1/agent-servers/${id}/agent-card`, undefined, { ...as(caller(['agent_servers.read'])), 'a2a-version': '1.0' });
      expect(card.status).to.equal(200);
      const client = await agentClient(gw, id, { ...KEY_HEADERS, ...as(caller(['agent_servers.read'])) });
      let refused: unknown;
      await client.sendMessage(sendRequest('hello')).catch((e: unknown) => (refused = e));
      expect(String(refused)).to.match(/403/);
      expect(agent.calls).to.have.length(0);
      const allowed = await rpc(id, { jsonrpc: '2.0', id: 1, method: 'no/such' }, as(caller(['agents.invoke'])));
      expect(allowed.json.error.code).to.equal(-32601);
    });

    it('a server the caller may not use is a 404, like a missing one', async () => {
      const limited = (await call(gw, 'POST', '/v1/agent-servers', { name: 'A', slug: 'ws-a-only', url: agent.url, workspace_id: 'ws-a' })).json.id;
      const body = { jsonrpc: '2.0', id: 1, method: 'message/send', params: {} };
      expect((await rpc(limited, body, as(caller(['agents.invoke'], { workspaceId: 'ws-b' })))).status).to.equal(404);
      expect((await rpc('nobody', body)).status).to.equal(404);
      expect(agent.calls).to.have.length(0);
    });

    it('bad bodies are a 400 naming the field', async () => {
      const cases: [unknown, string][] = [
        [[{ jsonrpc: '2.0', id: 1, method: 'message/send' }], ''],
        [{ jsonrpc: '1.0', id: 1, method: 'message/send' }, 'jsonrpc'],
        [{ jsonrpc: '2.0', id: 1 }, 'method'],
        [{ jsonrpc: '2.0', id: { x: 1 }, method: 'message/send' }, 'id'],
        [{ jsonrpc: '2.0', id: 1, method: 'message/send', params: 'x' }, 'params'],
      ];
      for (const [body, param] of cases) {
        const res = await rpc(id, body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.json.error.param).to.equal(param === '' ? null : param);
      }
      expect((await rpc(id, '{not json')).status).to.equal(400);
      expect((await rpc(id, { jsonrpc: '2.0', id: 1, method: 'message/send' }, { 'a2a-version': 'v1' })).json.error.param).to.equal('a2a-version');
      expect(agent.calls).to.have.length(0);
    });
  });

  describe('a broken agent', () => {
    it('answering HTML instead of JSON-RPC: 502 in the envelope', async () => {
      await call(gw, 'GET', `/v1/agent-servers/${id}/agent-card`, undefined, { 'a2a-version': '1.0' });
      agent.mode = 'html-rpc';
      const res = await rpc(id, { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: {} }, { 'a2a-version': '1.0' });
      expect(res.status).to.equal(502);
      expect(res.json.error.message).to.match(/"echo" answered HTTP 500 \(text\/html\) instead of a JSON-RPC response/);
      expect(res.text).not.to.include(TOKEN);
    });

    it('cutting its stream: the client gets one JSON-RPC error event', async () => {
      agent.mode = 'cut-stream';
      const res = await rpc(id, { jsonrpc: '2.0', id: 9, method: 'message/stream', params: {} });
      expect(res.status).to.equal(200);
      const events = res.text.split('\n\n').map((e) => e.trim()).filter((e) => e.startsWith('data: ')).map((e) => JSON.parse(e.slice(6)));
      expect(events[0].result).to.be.an('object');
      expect(events.at(-1)).to.deep.include({ jsonrpc: '2.0', id: 9 });
      expect(events.at(-1).error.code).to.equal(-32603);
      expect(events.at(-1).error.message).to.match(/"echo" broke off its stream/);
    });

    it('that is down: 502 naming it; the gateway goes on', async () => {
      const gone = await startA2AAgent();
      await gone.close();
      const dead = (await call(gw, 'POST', '/v1/agent-servers', { name: 'Gone', slug: 'gone-agent', url: gone.url })).json.id;
      const res = await rpc(dead, { jsonrpc: '2.0', id: 1, method: 'message/send', params: {} });
      expect(res.status).to.equal(502);
      expect(res.json.error.message).to.match(/"gone-agent" is unreachable/);
      const client = await agentClient(gw, id);
      expect(textOf(await client.sendMessage(sendRequest('still here')) as any)).to.equal('echo: still here');
    });
  });

  it('logs one row per call: endpoint a2a, the agent slug as provider, the method as model', async () => {
    const trace = `a2a-log-${Date.now()}`;
    const headers = { 'x-gw-trace-id': trace, 'a2a-version': '1.0' };
    const client = await agentClient(gw, id, { ...KEY_HEADERS, ...headers });
    await client.sendMessage(sendRequest('hello'));
    agent.release();
    for await (const _event of client.sendMessageStream(sendRequest('stream'))) { /* drain */ }
    await rpc(id, { jsonrpc: '2.0', id: 3, method: 'no/such' }, headers);
    await gw.gateway.runtime.services.get(RequestLogsService).flush();
    const logs = await call(gw, 'GET', `/v1/logs?trace_id=${trace}`);
    const rows = (logs.json.data as any[]).filter((r) => r.path === '/v1/agents/:id');
    const seen = rows.map((r) => [r.endpoint, r.ai_service, r.model, r.stream, r.status]).sort();
    expect(seen).to.deep.equal([
      ['a2a', 'echo', 'SendMessage', false, 200],
      ['a2a', 'echo', 'SendStreamingMessage', true, 200],
      ['a2a', 'echo', 'no/such', false, 200],
    ]);
  });
});

describe('agents.agent-servers: rate limits see endpoint_type a2a', () => {
  let agent: A2AAgent;
  let gw: TestGateway;

  before(async () => {
    agent = await startA2AAgent();
    gw = await startGateway();
  });
  after(async () => {
    await gw?.stop();
    await agent?.close();
  });

  it('a policy on endpoint_type a2a limits agent calls and leaves other routes alone', async () => {
    const policy = { conditions: [{ key: 'endpoint_type', value: 'a2a' }], group_by: [{ key: 'api_key' }], type: 'requests', unit: 'rpm', value: 1 };
    const made = await call(gw, 'POST', '/v1/policies/rate-limits', policy);
    expect(made.status, made.text).to.equal(200);
    const id = (await call(gw, 'POST', '/v1/agent-servers', { name: 'Echo', slug: 'echo', url: agent.url })).json.id;
    const send = () => postJson(gw.url, `/v1/agents/${id}`, { jsonrpc: '2.0', id: 1, method: 'no/such' }, { 'content-type': 'application/json', ...KEY_HEADERS });
    expect((await send()).status).to.equal(200);
    const limited = await send();
    expect(limited.status).to.equal(429);
    expect(limited.json.error.code).to.equal('rate_limited');
    expect((await call(gw, 'GET', '/v1/agent-servers')).status).to.equal(200);
  });
});
