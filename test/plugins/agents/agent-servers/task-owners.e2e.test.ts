/**
 * A2A tasks belong to their caller: the official @a2a-js/sdk clients (v1.0 and the v0.3 transport)
 * drive a real SDK agent through the gateway as two callers. Another caller's task, or one the
 * gateway never relayed, is answered exactly as the agent answers a missing task, and the agent
 * sees no call; the owner keeps using its own; owners expire after taskOwnerTtlMs; two instances
 * on one Redis share them; a state store that fails refuses with a 503 and crashes nothing.
 */
import { expect } from 'chai';
import { LegacyJsonRpcTransport } from '@a2a-js/sdk/compat/v0_3/client';
import { TaskState, type StreamResponse, type Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import type { Principal } from '../../../../core/index.js';
import { startA2AAgent, type A2AAgent } from '../../../fixtures/a2a-agent.js';
import { postJson, type TestGateway } from '../../../helpers/gateway.js';
import { TestPrincipal } from '../../admin/integrations/harness.js';
import { freePort, hasRedisServer, sharedRedisUrl, startRedisServer, type OwnRedis } from '../../stores/redis/helpers.js';
import { startFleet, type Fleet } from '../../stores/redis/fleet.js';
import { agentClient, as, call, fetchWith, KEY_HEADERS, sendRequest, startAgentGateway, userMessage } from './harness.js';

const ALICE: Partial<Principal> = { keyId: 'k-alice', type: 'organisation-service', scopes: ['agents.invoke'] };
const BOB: Partial<Principal> = { keyId: 'k-bob', type: 'organisation-service', scopes: ['agents.invoke'] };
const OWNER: Partial<Principal> = { keyId: 'k-owner', type: 'organisation-owner', role: 'owner', scopes: ['*'] };
const headersOf = (who: Partial<Principal>) => ({ ...KEY_HEADERS, ...as(who) });

/** JSON-RPC straight to the gateway as `who`. */
const rpc = (gw: TestGateway, server: string, who: Partial<Principal>, method: string, params: unknown, extra: Record<string, string> = {}) =>
  postJson(gw.url, `/v1/agents/${server}`, { jsonrpc: '2.0', id: 5, method, params }, { 'content-type': 'application/json', ...headersOf(who), ...extra });

/** JSON-RPC straight to the agent, past the gateway: what it answers for a task it does not have. */
async function agentAnswer(agent: A2AAgent, method: string, params: unknown, version?: string): Promise<{ contentType: string; text: string }> {
  const res = await fetch(`${agent.url}/a2a/jsonrpc`, {
    method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 5, method, params }),
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(version ? { 'a2a-version': version } : {}) },
  });
  return { contentType: (res.headers.get('content-type') ?? '').split(';')[0]!, text: await res.text() };
}

async function refusedWith(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (e) {
    return String((e as Error).message);
  }
  throw new Error('expected the call to be refused');
}

async function firstTaskId(stream: AsyncGenerator<StreamResponse>): Promise<string> {
  const first = (await stream.next()).value as StreamResponse;
  return first.payload?.$case === 'task' ? first.payload.value.id : '';
}

describe('agents.agent-servers: A2A tasks belong to their caller', () => {
  let agent: A2AAgent;
  let gw: TestGateway;
  let id: string;
  let alice: Client;
  let bob: Client;

  before(async () => {
    agent = await startA2AAgent();
    gw = await startAgentGateway();
    id = (await call(gw, 'POST', '/v1/agent-servers', { name: 'Echo', slug: 'echo', url: agent.url })).json.id;
    alice = await agentClient(gw, id, headersOf(ALICE));
    bob = await agentClient(gw, id, headersOf(BOB));
  });
  after(async () => {
    await gw?.stop();
    await agent?.close();
  });
  beforeEach(() => agent.reset());

  describe('with the SDK client (A2A 1.0)', () => {
    it('another caller cannot get, cancel, subscribe to or continue a task; the agent sees none of it', async () => {
      const stream = alice.sendMessageStream(sendRequest('wait'));
      const taskId = await firstTaskId(stream);
      expect(taskId).to.not.equal('');
      agent.calls = [];

      expect(await refusedWith(bob.getTask({ tenant: '', id: taskId, historyLength: undefined }))).to.include(`Task not found: ${taskId}`);
      expect(await refusedWith(bob.cancelTask({ tenant: '', id: taskId, metadata: undefined }))).to.include('Task not found');
      expect(await refusedWith(bob.resubscribeTask({ tenant: '', id: taskId }).next())).to.include('Task not found');
      const cont = { ...sendRequest('more'), message: { ...userMessage('more'), taskId } };
      expect(await refusedWith(bob.sendMessage(cont))).to.include('Task not found');
      expect(await refusedWith(bob.sendMessageStream(cont).next())).to.include('Task not found');
      const refer = { ...sendRequest('see that'), message: { ...userMessage('see that'), referenceTaskIds: [taskId] } };
      expect(await refusedWith(bob.sendMessage(refer)), 'a message may not bring in another caller\'s task either').to.include('Task not found');
      expect(agent.calls, 'nothing reached the agent').to.deep.equal([]);

      // The owner goes on with it: cancels it, and its stream ends so.
      const cancelled = await alice.cancelTask({ tenant: '', id: taskId, metadata: undefined });
      expect(cancelled.id).to.equal(taskId);
      let state: TaskState | undefined;
      for await (const event of stream) if (event.payload?.$case === 'statusUpdate') state = event.payload.value.status?.state;
      expect(state).to.equal(TaskState.TASK_STATE_CANCELED);
      expect((await alice.getTask({ tenant: '', id: taskId, historyLength: undefined })).status?.state).to.equal(TaskState.TASK_STATE_CANCELED);
    });

    it('the refusal is the agent\'s own answer for a missing task, byte for byte', async () => {
      const made = await alice.sendMessage(sendRequest('task')) as Task;
      for (const method of ['GetTask', 'CancelTask', 'SubscribeToTask']) {
        const refused = await rpc(gw, id, BOB, method, { id: made.id }, { 'a2a-version': '1.0' });
        const missing = await agentAnswer(agent, method, { id: made.id + 'x' }, '1.0');
        expect(refused.status).to.equal(200);
        expect(refused.headers.get('content-type')).to.match(/^application\/json/);
        expect(refused.json, method).to.deep.equal(JSON.parse(missing.text.replace(`${made.id}x`, made.id)));
      }
    });

    it('the owner continues its task; a task made past the gateway is refused to everyone (fail closed)', async () => {
      const made = await alice.sendMessage(sendRequest('task')) as Task;
      agent.calls = [];
      const more = await rpc(gw, id, ALICE, 'SendMessage', { message: { messageId: 'm-more', role: 'ROLE_USER', taskId: made.id, contextId: made.contextId, parts: [{ text: 'again' }] } }, { 'a2a-version': '1.0' });
      // Passed on: the agent itself answers that a completed task takes no more messages.
      expect(agent.calls.map((c) => c.body.params.message.taskId)).to.deep.equal([made.id]);
      expect(more.json.error.code).to.equal(-32004);

      const direct = await fetch(`${agent.url}/a2a/jsonrpc`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: 'm-direct', role: 'ROLE_USER', parts: [{ text: 'task' }] } } }),
      });
      const unseen = ((await direct.json()) as any).result.task.id as string;
      agent.calls = [];
      for (const who of [ALICE, BOB, OWNER]) {
        const res = await rpc(gw, id, who, 'GetTask', { id: unseen }, { 'a2a-version': '1.0' });
        expect(res.json.error.code).to.equal(-32001);
      }
      expect(agent.calls).to.deep.equal([]);
    });

    it('another caller\'s context is refused (-32602) without calling the agent; a context of one\'s own choosing is not', async () => {
      const made = await alice.sendMessage(sendRequest('task')) as Task;
      agent.calls = [];
      const intoHers = await rpc(gw, id, BOB, 'SendMessage', { message: { messageId: 'm1', role: 'ROLE_USER', contextId: made.contextId, parts: [{ text: 'hi' }] } }, { 'a2a-version': '1.0' });
      expect(intoHers.json.error.code).to.equal(-32602);
      expect(intoHers.json.error.message).to.include('contextId');
      expect(agent.calls).to.deep.equal([]);
      const ownContext = `ctx-bob-${Date.now()}`;
      const fresh = await rpc(gw, id, BOB, 'SendMessage', { message: { messageId: 'm2', role: 'ROLE_USER', contextId: ownContext, parts: [{ text: 'task' }] } }, { 'a2a-version': '1.0' });
      expect(fresh.json.result.task.contextId).to.equal(ownContext);
      const nowAlice = await rpc(gw, id, ALICE, 'SendMessage', { message: { messageId: 'm3', role: 'ROLE_USER', contextId: ownContext, parts: [{ text: 'hi' }] } }, { 'a2a-version': '1.0' });
      expect(nowAlice.json.error.code, 'the context is now Bob\'s').to.equal(-32602);
    });

    it('a message naming more than 64 tasks and contexts is refused (-32602) without calling the agent', async () => {
      const refs = Array.from({ length: 65 }, (_, i) => `t-${i}`);
      const res = await rpc(gw, id, ALICE, 'SendMessage', { message: { messageId: 'm1', role: 'ROLE_USER', referenceTaskIds: refs, parts: [{ text: 'hi' }] } }, { 'a2a-version': '1.0' });
      expect(res.json.error.code).to.equal(-32602);
      expect(res.json.error.message).to.include('at most 64');
      expect(agent.calls).to.deep.equal([]);
    });

    it('the same caller: one person across keys; not the organisation owner, not the same person in another workspace', async () => {
      const person = (keyId: string, workspaceId = 'ws-a'): Partial<Principal> =>
        ({ keyId, type: 'workspace-user', userId: 'u-carol', workspaceId, scopes: ['agents.invoke'] });
      const made = (await rpc(gw, id, person('k-carol-1'), 'SendMessage', { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'task' }] } }, { 'a2a-version': '1.0' })).json.result.task;
      const get = (who: Partial<Principal>) => rpc(gw, id, who, 'GetTask', { id: made.id }, { 'a2a-version': '1.0' });
      expect((await get(person('k-carol-2'))).json.result.id).to.equal(made.id);
      expect((await get(person('k-carol-1', 'ws-b'))).json.error.code).to.equal(-32001);
      expect((await get(OWNER)).json.error.code).to.equal(-32001);
      expect((await get({ ...OWNER, workspaceId: 'ws-a' })).json.error.code).to.equal(-32001);
    });
  });

  describe('with the SDK\'s v0.3 transport', () => {
    it('tasks/get, tasks/cancel, tasks/resubscribe and message/send refuse another caller\'s task, as the agent would', async () => {
      const card = await call(gw, 'GET', `/v1/agent-servers/${id}/agent-card`);
      const legacy = (who: Partial<Principal>) => new LegacyJsonRpcTransport({ endpoint: card.json.url, fetchImpl: fetchWith(headersOf(who)) });
      const made = await legacy(ALICE).sendMessage(sendRequest('task')) as Task;
      expect((await legacy(ALICE).getTask({ tenant: '', id: made.id, historyLength: undefined })).id).to.equal(made.id);
      agent.calls = [];

      expect(await refusedWith(legacy(BOB).getTask({ tenant: '', id: made.id, historyLength: undefined }))).to.include('Task not found');
      expect(await refusedWith(legacy(BOB).cancelTask({ tenant: '', id: made.id, metadata: undefined }))).to.include('Task not found');
      expect(await refusedWith(legacy(BOB).resubscribeTask({ tenant: '', id: made.id }).next())).to.include('Task not found');
      expect(await refusedWith(legacy(BOB).sendMessage({ ...sendRequest('more'), message: { ...userMessage('more'), taskId: made.id } }))).to.include('Task not found');
      for (const method of ['tasks/get', 'tasks/resubscribe']) {
        const refused = await rpc(gw, id, BOB, method, { id: made.id });
        const missing = await agentAnswer(agent, method, { id: made.id + 'x' });
        agent.calls = agent.calls.filter((c) => c.body.params.id !== made.id + 'x'); // the direct call just made
        expect(refused.headers.get('content-type')!.split(';')[0], method).to.equal(missing.contentType);
        expect(refused.text, method).to.equal(missing.text.replace(`${made.id}x`, made.id));
      }
      const snake = await rpc(gw, id, BOB, 'message/send', { message: { kind: 'message', messageId: 'm', role: 'user', task_id: made.id, parts: [{ kind: 'text', text: 'x' }] } });
      expect(snake.json.error.code, 'snake_case, which the SDK also reads').to.equal(-32001);
      expect(agent.calls).to.deep.equal([]);
    });
  });
});

describe('agents.agent-servers: task owners expire after taskOwnerTtlMs', () => {
  const TTL_MS = 800;
  let agent: A2AAgent;
  let gw: TestGateway;

  before(async () => {
    agent = await startA2AAgent();
    gw = await startAgentGateway({ options: { taskOwnerTtlMs: TTL_MS } });
  });
  after(async () => {
    await gw?.stop();
    await agent?.close();
  });

  it('a task untouched for longer is refused to its owner too; each answer naming it starts the time again', async () => {
    const id = (await call(gw, 'POST', '/v1/agent-servers', { name: 'Echo', slug: 'echo', url: agent.url })).json.id;
    const alice = await agentClient(gw, id, headersOf(ALICE));
    const made = await alice.sendMessage(sendRequest('task')) as Task;
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, TTL_MS / 2)); // together, longer than the ttl
      expect((await alice.getTask({ tenant: '', id: made.id, historyLength: undefined })).id).to.equal(made.id);
    }
    await new Promise((r) => setTimeout(r, TTL_MS + 300));
    agent.reset();
    expect(await refusedWith(alice.getTask({ tenant: '', id: made.id, historyLength: undefined }))).to.include('Task not found');
    expect(agent.calls).to.deep.equal([]);
  });
});

describe('agents.agent-servers: task owners across instances and store failures', function () {
  this.timeout(30_000);
  let agent: A2AAgent;

  before(async () => {
    agent = await startA2AAgent();
  });
  after(async () => {
    await agent?.close();
  });
  beforeEach(() => agent.reset());

  const register = async (gw: TestGateway) => (await call(gw, 'POST', '/v1/agent-servers', { name: 'Echo', slug: `echo-${Date.now()}`, url: agent.url })).json.id as string;
  const sendTask = (gw: TestGateway, server: string, who: Partial<Principal>) =>
    rpc(gw, server, who, 'SendMessage', { message: { messageId: `m-${Date.now()}`, role: 'ROLE_USER', parts: [{ text: 'task' }] } }, { 'a2a-version': '1.0' });
  const getTask = (gw: TestGateway, server: string, who: Partial<Principal>, task: string) => rpc(gw, server, who, 'GetTask', { id: task }, { 'a2a-version': '1.0' });

  describe('two instances on one Redis (GW_REDIS_URL)', () => {
    const url = sharedRedisUrl();
    let fleet: Fleet;

    before(async function () {
      if (!url) return this.skip();
      fleet = await startFleet(2, { redisUrl: url, plugins: [TestPrincipal] });
    });
    after(async () => {
      await fleet?.stop();
    });

    it('a task made through A is its owner\'s on B, and nobody else\'s', async () => {
      const [a, b] = fleet.gateways as [TestGateway, TestGateway];
      const server = await register(a);
      const made = (await sendTask(a, server, ALICE)).json.result.task;
      const onB = await getTask(b, server, ALICE, made.id);
      expect(onB.status, onB.text).to.equal(200);
      expect(onB.json.result.id).to.equal(made.id);
      agent.calls = [];
      expect((await getTask(b, server, BOB, made.id)).json.error.code).to.equal(-32001);
      expect((await getTask(a, server, BOB, made.id)).json.error.code).to.equal(-32001);
      expect(agent.calls).to.deep.equal([]);
    });
  });

  describe('a state store that fails', () => {
    let redis: OwnRedis | undefined;
    let fleet: Fleet | undefined;

    before(async function () {
      if (!hasRedisServer()) return this.skip();
      redis = await startRedisServer(await freePort());
      fleet = await startFleet(1, { redisUrl: redis.url, plugins: [TestPrincipal] });
    });
    after(async () => {
      await fleet?.stop();
      await redis?.kill();
    });

    it('a call naming a task answers 503 in the envelope (naming no address); others go on; nothing crashes', async () => {
      const gw = fleet!.gateways[0]!;
      const server = await register(gw);
      const made = (await sendTask(gw, server, ALICE)).json.result.task;
      expect((await getTask(gw, server, ALICE, made.id)).json.result.id).to.equal(made.id);
      await redis!.kill();
      agent.calls = [];

      const refused = await getTask(gw, server, ALICE, made.id);
      expect(refused.status).to.equal(503);
      expect(refused.json.error).to.include({ code: 'state_unavailable' });
      expect(refused.json.error.message).to.match(/state store \(redis\) is unavailable/);
      expect(refused.text).not.to.include(String(redis!.port));
      expect(agent.calls, 'not passed on unchecked').to.deep.equal([]);

      // A call that names no task needs no check: it is answered (its new task then refused to all, fail closed).
      const fresh = await sendTask(gw, server, ALICE);
      expect(fresh.status, fresh.text).to.equal(200);
      expect(fresh.json.result.task.id).to.be.a('string');
      expect((await call(gw, 'GET', `/v1/agent-servers/${server}`)).status, 'the gateway goes on').to.equal(200);
    });
  });
});
