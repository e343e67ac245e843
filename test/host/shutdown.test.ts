/**
 * The standalone server (`node dist/host/main.js`, what `npm start` runs): the ready line,
 * and SIGTERM draining a stream in flight before exiting 0.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { startMockOpenAI, type MockOpenAI } from '../fixtures/mock-openai.js';
import { CHAT_BODY, directHeaders, TEST_API_KEY } from '../helpers/gateway.js';
import { spawnMain } from '../helpers/main-process.js';

const startMain = (env: Record<string, string>) => spawnMain([], env);

describe('standalone server', function () {
  this.timeout(20_000);
  let mock: MockOpenAI;
  let dataDir: string;

  before(async () => {
    mock = await startMockOpenAI({ streamChunkDelayMs: 150 });
    dataDir = await mkdtemp(join(tmpdir(), 'gw-main-'));
  });
  after(async () => {
    await mock.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('prints the ready line and finishes an in-flight stream on SIGTERM, then exits 0', async () => {
    const { child, url } = await startMain({ PORT: '0', GW_DATA_DIR: dataDir, GW_BOOTSTRAP_API_KEY: TEST_API_KEY, GW_LOG_LEVEL: 'silent' });
    expect(url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST', headers: directHeaders(mock), body: JSON.stringify({ ...CHAT_BODY, stream: true }),
    });
    expect(res.status).to.equal(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).to.contain('chat.completion.chunk');
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    // New connections are refused while the stream is still running.
    await new Promise((r) => setTimeout(r, 50));
    const refused = await fetch(`${url}/health`).then(() => false, () => true);
    expect(refused).to.equal(true);
    let rest = new TextDecoder().decode(first.value);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(rest.trim().endsWith('data: [DONE]')).to.equal(true);
    const [code] = await exited;
    expect(code).to.equal(0);
  });

  it('generates and prints a first key once when none is configured', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gw-main-gen-'));
    try {
      const first = await startMain({ PORT: '0', GW_DATA_DIR: dir, GW_LOG_LEVEL: 'silent', GW_BOOTSTRAP_API_KEY: '' });
      const key = /shown only now: (\S+)/.exec(first.output())?.[1];
      expect(key).to.match(/^gw-[A-Za-z0-9_-]{43}$/);
      const ok = await fetch(`${first.url}/v1/chat/completions`, { method: 'POST', headers: directHeaders(mock, { 'x-gw-api-key': key! }), body: JSON.stringify(CHAT_BODY) });
      expect(ok.status).to.equal(200);
      first.child.kill('SIGTERM');
      await once(first.child, 'exit');
      const second = await startMain({ PORT: '0', GW_DATA_DIR: dir, GW_LOG_LEVEL: 'silent', GW_BOOTSTRAP_API_KEY: '' });
      expect(second.output()).not.to.contain('shown only now');
      const still = await fetch(`${second.url}/v1/chat/completions`, { method: 'POST', headers: directHeaders(mock, { 'x-gw-api-key': key! }), body: JSON.stringify(CHAT_BODY) });
      expect(still.status).to.equal(200);
      second.child.kill('SIGINT');
      const [code] = await once(second.child, 'exit');
      expect(code).to.equal(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('fails to start with a clear message for a bad gateway file', async () => {
    const child = spawn(process.execPath, ['dist/host/main.js', '--config', join(dataDir, 'missing.json')], {
      env: { ...process.env, PORT: '0', GW_DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    const [code] = await once(child, 'exit');
    expect(code).to.equal(1);
    expect(err).to.contain('gw: failed to start: cannot read gateway file');
  });
});
