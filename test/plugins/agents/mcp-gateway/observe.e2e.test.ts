/**
 * agents.mcp-gateway with the rest of the gateway: guardrails on tool arguments and results (from
 * the request's x-gw-config), one request-log row per tool call (server, tool, status, key,
 * workspace), metrics by server and tool, and rate limits that select `endpoint_type` `mcp`.
 */
import { expect } from 'chai';
import { RequestLogsService } from '../../../../plugins/observe/logs/contract.js';
import type { TestGateway } from '../../../helpers/gateway.js';
import { startMockMcp, type MockMcp } from '../../../fixtures/mock-mcp-server.js';
import { as, call, connect, registerServer, startMcpGateway, textOf } from './harness.js';

const caller = (keyId: string) => as({ keyId, workspaceId: 'ws-1', scopes: ['*'] });

describe('agents.mcp-gateway: guardrails, logs, metrics and rate limits', () => {
  let gw: TestGateway;
  let upstream: MockMcp;

  before(async () => {
    upstream = await startMockMcp();
    gw = await startMcpGateway();
    await registerServer(gw, { slug: 'obs', url: upstream.url });
  });
  after(async () => {
    await gw?.stop();
    await upstream?.close();
  });

  const guarded = {
    input_guardrails: [{ id: 'no-forbidden-args', deny: true, 'default.contains': { words: ['forbidden'], operator: 'none' } }],
    output_guardrails: [{ id: 'no-secret-results', deny: true, 'default.contains': { words: ['SECRET-DATA'], operator: 'none' } }],
  };

  it('denies a tool call whose arguments fail an input guardrail, without calling upstream', async () => {
    const before = upstream.toolRuns.length;
    const { client } = await connect(gw, 'obs', { ...caller('k-guard'), 'x-gw-config': JSON.stringify(guarded) });
    const denied = await client.callTool({ name: 'echo', arguments: { text: 'this is forbidden' } }).then(() => undefined, (e: { code?: number; message: string; data?: any }) => e);
    expect(denied?.code).to.equal(-32002);
    expect(denied?.message).to.contain('no-forbidden-args').and.contain('echo');
    expect(upstream.toolRuns.length).to.equal(before);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'this is fine' } }))).to.equal('this is fine');
    await client.close();
  });

  it('denies a tool result that fails an output guardrail', async () => {
    const { client } = await connect(gw, 'obs', { ...caller('k-guard'), 'x-gw-config': JSON.stringify(guarded) });
    const denied = await client.callTool({ name: 'leak', arguments: {} }).then(() => undefined, (e: { code?: number; message: string }) => e);
    expect(denied?.code).to.equal(-32002);
    expect(denied?.message).to.contain('no-secret-results').and.contain('result of tool "leak"');
    expect(JSON.stringify(denied)).to.not.contain('here is SECRET-DATA');
    await client.close();
  });

  it('refuses an invalid guardrail config with a 400 naming the field', async () => {
    const { client } = await connect(gw, 'obs', { ...caller('k-guard'), 'x-gw-config': JSON.stringify({ input_guardrails: [{ id: 'x', 'default.nope': {} }] }) });
    const refused = await client.callTool({ name: 'echo', arguments: { text: 'x' } }).then(() => undefined, (e: Error) => e);
    expect(refused?.message, refused?.message).to.contain('input_guardrails');
    expect((refused as { code?: number }).code).to.equal(400);
    await client.close();
  });

  it('writes one request-log row per tool call: server, tool, status, key, workspace, endpoint mcp, hook results', async () => {
    const { client } = await connect(gw, 'obs', { ...caller('k-logs'), 'x-gw-config': JSON.stringify(guarded) });
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    await client.callTool({ name: 'echo', arguments: { text: 'forbidden' } }).catch(() => undefined);
    await client.close();
    await gw.gateway.runtime.services.get(RequestLogsService).flush();
    const logs = await call(gw, 'GET', '/v1/logs?ai_service=obs&api_key_id=k-logs&page_size=100');
    expect(logs.status, logs.text).to.equal(200);
    const rows = logs.json.data as any[];
    const calls = rows.filter((r) => r.model === 'add' || r.model === 'echo');
    expect(calls).to.have.length(2);
    const add = calls.find((r) => r.model === 'add');
    expect(add).to.include({ ai_service: 'obs', endpoint: 'mcp', path: '/v1/mcp/:server', method: 'POST', status: 200, api_key_id: 'k-logs', workspace_id: 'ws-1' });
    expect(add.latency_ms).to.be.a('number');
    const hooks = (add.hook_results as { id: string; array: string; verdict: boolean; target: string }[]).map((h) => [h.id, h.array, h.verdict, h.target]);
    expect(hooks).to.deep.equal([['no-forbidden-args', 'input_guardrails', true, 'config'], ['no-secret-results', 'output_guardrails', true, 'config']]);
    const echo = calls.find((r) => r.model === 'echo');
    expect(echo.reason).to.equal('mcp_guardrail_denied');
    expect(echo.hook_results.map((h: { id: string; verdict: boolean }) => [h.id, h.verdict])).to.deep.equal([['no-forbidden-args', false]]);
    // Messages that are not tool calls are logged too, under the server, without a tool.
    expect(rows.some((r) => r.model === null && r.ai_service === 'obs')).to.equal(true);
  });

  it('counts tool calls in the metrics by server and tool', async () => {
    const { client } = await connect(gw, 'obs', caller('k-metrics'));
    await client.callTool({ name: 'echo', arguments: { text: 'count me' } });
    await client.close();
    const res = await fetch(`${gw.url}/metrics`);
    const text = await res.text();
    expect(text).to.match(/subject_calls_total\{provider="obs",called="echo",status="200"\} \d+/);
    expect(text).to.match(/subject_call_duration_seconds_count\{provider="obs",called="echo"\} \d+/);
  });

  it('answers 429 once a rate limit on endpoint_type mcp is spent, and leaves other messages alone', async () => {
    const created = await call(gw, 'POST', '/v1/policies/rate-limits', {
      workspace_id: 'ws-1', conditions: [{ key: 'endpoint_type', value: 'mcp' }, { key: 'api_key', value: 'k-limited' }],
      group_by: [{ key: 'api_key' }], type: 'requests', unit: 'rpm', value: 2,
    });
    expect(created.status, created.text).to.equal(200);
    const { client } = await connect(gw, 'obs', caller('k-limited'));
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: '1' } }))).to.equal('1');
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: '2' } }))).to.equal('2');
    const limited = await client.callTool({ name: 'echo', arguments: { text: '3' } }).then(() => undefined, (e: { code?: number; message: string }) => e);
    expect(limited?.code).to.equal(429);
    expect(limited?.message).to.contain('rate limit');
    // tools/list is not a tool call: not limited.
    expect((await client.listTools()).tools.length).to.be.greaterThan(0);
    await client.close();
  });
});
