/**
 * The bundled build (dist/bundle/host/main.js, made by host/bundle.ts: what `npm start` and the
 * image run) is the same gateway as dist/host/main.js: the same plugins boot; a chat request is
 * answered; files found beside modules (the log writer's thread, the console's built assets) are
 * found; and its request-log rows are written by the time it exits on SIGTERM. Plugin files share
 * its classes: test/host/user-plugins.test.ts runs against both builds.
 */
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockOpenAI, type MockOpenAI } from '../fixtures/mock-openai.js';
import { CHAT_BODY, directHeaders } from '../helpers/gateway.js';
import { BUNDLED_MAIN, MAIN, runMain, startMain } from '../helpers/main-process.js';
import { modulesLoaded } from '../helpers/module-trace/boot.js';
import { withRecords } from '../helpers/records.js';

/** The files of this package (not node_modules) among the modules a boot loaded. */
const ownFiles = (modules: string[]) => modules.filter((line) => line.includes('/dist/') && !line.includes('/node_modules/'));

function pluginIds(describeJson: string): string[] {
  return (JSON.parse(describeJson) as { plugins: { id: string }[] }).plugins.map((p) => p.id);
}

describe('the bundled build', function () {
  this.timeout(60_000);
  let dataDir: string;
  let child: ChildProcess | undefined;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gw-bundle-'));
  });
  afterEach(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    child = undefined;
    await rm(dataDir, { recursive: true, force: true });
  });

  it('boots the same plugins, in the same order, as dist/host/main.js', async () => {
    const env = { GW_DATA_DIR: dataDir, GW_LOG_LEVEL: 'silent', GW_REDIS_URL: '' };
    const [bundled, compiled] = await Promise.all([runMain(['--describe=json'], env, BUNDLED_MAIN), runMain(['--describe=json'], env, MAIN)]);
    expect(bundled.code, bundled.stderr).to.equal(0);
    expect(pluginIds(bundled.stdout)).to.have.length.above(50).and.deep.equal(pluginIds(compiled.stdout));
  });

  it('boots from its own files: a fifth of the modules of dist/ at most, and TypeBox from its one-file bundle', async () => {
    const modules = await modulesLoaded({ dataDir, args: ['--describe=json'], entry: BUNDLED_MAIN });
    const files = ownFiles(modules);
    expect(files.filter((f) => !f.includes('/dist/bundle/'))).to.deep.equal([]);
    expect(modules.filter((m) => m.includes('/node_modules/@sinclair/typebox/'))).to.deep.equal([]);
    const unbundled = ownFiles(await modulesLoaded({ dataDir, args: ['--describe=json'], entry: MAIN }));
    expect(files.length).to.be.below(unbundled.length / 5);
  });

  describe('serving', () => {
    let mock: MockOpenAI;
    before(async () => {
      mock = await startMockOpenAI();
    });
    after(() => mock.close());

    it('answers chat, serves the console, and has written the request-log rows when it exits on SIGTERM', async () => {
      const gatewayFile = join(dataDir, 'gateway.json');
      // Rows wait in the queue until the stop: the writer thread (loaded from dist/) must drain them then.
      await writeFile(gatewayFile, JSON.stringify({ plugins: [{ use: 'observe.logs', options: { flushIntervalMs: 60_000 } }] }));
      const main = await startMain(dataDir, gatewayFile, BUNDLED_MAIN);
      child = main.child;
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${main.url}/v1/chat/completions`, { method: 'POST', headers: directHeaders(mock), body: JSON.stringify(CHAT_BODY) });
        expect(res.status, await res.clone().text()).to.equal(200);
        expect(((await res.json()) as { object: string }).object).to.equal('chat.completion');
      }
      const page = await fetch(`${main.url}/console/`);
      expect(page.status).to.equal(200);
      const script = /src="([^"]+\.js)"/.exec(await page.text())?.[1];
      expect(script, 'the console page names its script').to.be.a('string');
      expect((await fetch(new URL(script!, `${main.url}/console/`))).status).to.equal(200);

      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = await exited;
      expect(code, main.output()).to.equal(0);
      const rows = await withRecords(dataDir, async (db) => Number((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM request_logs'))!.n));
      expect(rows).to.equal(3);
    });
  });
});
