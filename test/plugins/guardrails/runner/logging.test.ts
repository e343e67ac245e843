/** Results that come after the answer (async hooks, passed-through streams) are logged with the trace id, without check data. */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway, createLogger, type Gateway } from '../../../../host/index.js';
import GuardrailsRunnerPlugin from '../../../../plugins/guardrails/runner/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { configHeaders, TEST_API_KEY } from '../../../helpers/gateway.js';
import { chat, eventually, leaf, TestChecks } from './harness.js';

describe('guardrails.runner: logs', () => {
  let gateway: Gateway;
  let mock: MockOpenAI;
  let dataDir: string;
  const lines: Record<string, any>[] = [];

  before(async () => {
    mock = await startMockOpenAI();
    dataDir = await mkdtemp(join(tmpdir(), 'gw-guardrail-logs-'));
    const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) });
    gateway = await createGateway({
      composition: { plugins: [GuardrailsRunnerPlugin, TestChecks] },
      env: { GW_DATA_DIR: dataDir, GW_BOOTSTRAP_API_KEY: TEST_API_KEY },
      logger,
    });
  });
  after(async () => {
    await gateway?.close();
    await mock?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('logs async hook results with the trace id, hook and check verdicts, and no check data', async () => {
    const config = leaf(mock, { input_guardrails: [{ id: 'audit', async: true, 'test.forbid': { word: 'secret' } }] });
    const res = await gateway.fetch(new Request('http://gw.local/v1/chat/completions', {
      method: 'POST',
      headers: configHeaders(config, { 'x-gw-trace-id': 'trace-guard-1' }),
      body: JSON.stringify(chat('my secret')),
    }));
    expect(res.status).to.equal(200);
    await res.text();
    await eventually(() => lines.some((l) => l.msg === 'guardrail results after the answer'));
    const line = lines.find((l) => l.msg === 'guardrail results after the answer')!;
    expect(line).to.deep.include({ traceId: 'trace-guard-1', target: 'config', array: 'input_guardrails' });
    expect(line.hooks).to.deep.equal([{ id: 'audit', verdict: false, execution_time: line.hooks[0].execution_time, checks: [{ id: 'test.forbid', verdict: false }] }]);
    expect(JSON.stringify(line)).to.not.contain('secret');
  });
});
