/**
 * An organisation's own guardrail plugin, written as a user would (the docs/guardrails.md example): a module
 * outside the source tree importing the package's built entry, loaded by path from a gateway file,
 * exercised over HTTP — and unit-tested by calling its checks directly.
 */
import { expect } from 'chai';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUILTIN_PLUGINS, createGateway, serve, type Gateway, type RunningServer } from '../../../../host/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { configHeaders, postJson, TEST_API_KEY } from '../../../helpers/gateway.js';
import { chat, leaf } from './harness.js';

/** The docs/guardrails.md example (kept next to this test), importing the package as `gw`. */
const EXAMPLE = join(process.cwd(), 'test/plugins/guardrails/runner/acme-guards.mjs');

describe('guardrails: an organisation plugin loaded by path', () => {
  let dir: string;
  let gateway: Gateway;
  let server: RunningServer;
  let mock: MockOpenAI;

  const config = () => leaf(mock, {
    input_guardrails: [
      { id: 'competitors', deny: true, 'acme.noCompetitors': { names: ['Globex', 'Initech'] } },
      { id: 'code-names', 'acme.redactCodeNames': { codeNames: ['Falcon', 'Osprey'] } },
    ],
    output_guardrails: [{ id: 'code-names-out', 'acme.redactCodeNames': { codeNames: ['Falcon', 'Osprey'] } }],
  });
  const ask = (text: string, cfg: unknown = config()) => postJson(server.url, '/v1/chat/completions', chat(text), configHeaders(cfg));

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gw-acme-'));
    const entryUrl = pathToFileURL(join(process.cwd(), 'dist/host/index.js')).href;
    const source = await readFile(EXAMPLE, 'utf8');
    expect(source).to.contain("from 'gw'");
    // Outside the source tree 'gw' would come from node_modules; here it is the built entry.
    await writeFile(join(dir, 'acme-guards.mjs'), source.replace("from 'gw'", `from '${entryUrl}'`));
    // The runner is named by path until it is a built-in (then the preset loads it).
    const plugins: string[] = BUILTIN_PLUGINS['guardrails.runner'] ? [] : [join(process.cwd(), 'dist/plugins/guardrails/runner/index.js')];
    plugins.push('./acme-guards.mjs');
    await writeFile(join(dir, 'gateway.json'), JSON.stringify({ plugins }));
    mock = await startMockOpenAI();
    gateway = await createGateway({ configFile: join(dir, 'gateway.json'), env: { GW_DATA_DIR: join(dir, 'data'), GW_BOOTSTRAP_API_KEY: TEST_API_KEY, GW_LOG_LEVEL: 'silent' } });
    server = await serve(gateway, { port: 0, host: '127.0.0.1', shutdownTimeoutMs: 2000 });
  });
  afterEach(() => mock.reset());
  after(async () => {
    await server?.stop();
    await mock?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('is loaded from the gateway file and registers its checks', () => {
    expect(gateway.runtime.plugins.map((p) => p.id)).to.include.members(['acme.guards', 'guardrails.runner']);
    expect(gateway.runtime.registries.checks.keys()).to.include.members(['acme.noCompetitors', 'acme.redactCodeNames']);
  });

  it('blocks a request that names a competitor (446), before the provider is called', async () => {
    const res = await ask('Is Globex cheaper than us?');
    expect(res.status).to.equal(446);
    expect(res.json.hook_results.before_request_hooks[0]).to.deep.include({ id: 'competitors', verdict: false });
    expect(res.json.hook_results.before_request_hooks[0].checks[0].data).to.deep.equal({ found: ['Globex'] });
    expect(mock.requests).to.have.length(0);
  });

  it('redacts code names on the way to the provider and on the way back', async () => {
    const res = await ask('When does Falcon ship after Osprey?');
    expect(res.status).to.equal(200);
    expect(mock.requests[0]!.body.messages[0].content).to.equal('When does [internal project] ship after [internal project]?');
    expect(res.json.choices[0].message.content).to.equal('echo: When does [internal project] ship after [internal project]?');
  });

  it("rejects bad params for the organisation's checks with a 400 when the config is loaded", async () => {
    const empty = await ask('hi', leaf(mock, { input_guardrails: [{ 'acme.noCompetitors': { names: [] } }] }));
    expect(empty.status).to.equal(400);
    expect(empty.json.error.message).to.equal('config.input_guardrails.0.acme.noCompetitors.names: must have at least 1 item(s)');
    const regex = await ask('hi', leaf(mock, { output_guardrails: [{ 'acme.redactCodeNames': { codeNames: ['a|b'] } }] }));
    expect(regex.json.error.message).to.equal('config.output_guardrails.0.acme.redactCodeNames.codeNames.0: must match ^[\\w -]+$');
  });

  it('its checks can be unit-tested by calling them directly', async () => {
    const mod = await import(pathToFileURL(join(dir, 'acme-guards.mjs')).href);
    const input = { phase: 'input', request: { json: {}, text: 'initech and Falcon' }, metadata: {}, endpoint: 'chatComplete', signal: AbortSignal.timeout(1000) };
    expect(mod.noCompetitors.check(input, { names: ['Initech'] })).to.deep.equal({ verdict: false, data: { found: ['initech'] } });
    expect(mod.redactCodeNames.check(input, { codeNames: ['Falcon'], replacement: '***' })).to.deep.equal({ verdict: true, transformedText: 'initech and ***' });
  });
});
