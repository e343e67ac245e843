/**
 * Secrets are shown once (create, rotate, the one read of a pending secret) and nowhere else: not
 * in any GET of the control plane, not in any log line, even at the most verbose level.
 */
import { expect } from 'chai';
import { Writable } from 'node:stream';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway, createLogger, serve, type Gateway, type RunningServer } from '../../../../host/index.js';
import ApiKeysPlugin from '../../../../plugins/admin/api-keys/index.js';
import SecretBoxPlugin from '../../../../plugins/security/secret-box/index.js';
import WorkspacesPlugin from '../../../../plugins/admin/workspaces/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, postJson, TEST_API_KEY } from '../../../helpers/gateway.js';
import { authWith, client, DAY, ManualClock, type Client } from './helpers.js';

describe('admin.api-keys: secrets stay out of answers and logs', () => {
  let mock: MockOpenAI;
  let gateway: Gateway;
  let running: RunningServer;
  let dataDir: string;
  let owner: Client;
  const clock = new ManualClock();
  const lines: string[] = [];
  const answers: string[] = [];

  before(async () => {
    mock = await startMockOpenAI();
    dataDir = await mkdtemp(join(tmpdir(), 'gw-keys-log-'));
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    gateway = await createGateway({
      composition: {
        plugins: [
          SecretBoxPlugin,
          { use: authWith(clock), options: { rotationCheckIntervalMs: 10 } },
          ApiKeysPlugin,
          { use: WorkspacesPlugin, options: { refreshIntervalMs: 0 } },
        ],
      },
      env: { GW_DATA_DIR: dataDir, GW_BOOTSTRAP_API_KEY: TEST_API_KEY },
      logger: createLogger('trace', sink),
    });
    running = await serve(gateway, { port: 0, host: '127.0.0.1', shutdownTimeoutMs: 1000 });
    owner = client(running.url, TEST_API_KEY);
  });
  after(async () => {
    await running.stop();
    await mock.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('shows each secret once and never logs one', async () => {
    const secrets: string[] = [TEST_API_KEY];
    const reads: Client['get'] = async (path) => {
      const reply = await owner.get(path);
      answers.push(reply.text);
      return reply;
    };
    const ws = (await reads('/v1/workspaces/default')).json.id;
    await owner.put('/v1/organisation/settings', { user_api_key_auto_create: true });
    const user = (await owner.post('/v1/users', { email: 'dev@example.com', name: 'Dev' })).json;
    const joined = (await owner.post(`/v1/workspaces/${ws}/members`, { user_id: user.id, role: 'member' })).json;

    const created = (await owner.post('/v1/api-keys', { name: 'app', type: 'organisation-service', rotation_policy: { rotation_period: 'weekly' } })).json;
    secrets.push(created.key);
    const rotated = (await owner.post(`/v1/api-keys/${created.id}/rotate`)).json;
    secrets.push(rotated.key);
    clock.advance(8 * DAY);
    for (let i = 0; i < 200 && !(await owner.get(`/v1/api-keys/${created.id}`)).json.has_pending_secret; i++) await new Promise((r) => setTimeout(r, 10));
    const scheduled = (await owner.get(`/v1/api-keys/${created.id}/pending-secret`)).json;
    secrets.push(scheduled.key);
    const autoKey = (await owner.get(`/v1/api-keys/${joined.api_key.id}/pending-secret`)).json;
    secrets.push(autoKey.key);
    expect(secrets.every((s) => typeof s === 'string' && s.length > 10)).to.equal(true);

    // The keys at work, including a refused one.
    const chat = (key: string) => postJson(running.url, '/v1/chat/completions', CHAT_BODY, {
      'content-type': 'application/json', 'x-gw-api-key': key, 'x-gw-provider': 'openai', authorization: 'Bearer sk-x', 'x-gw-custom-host': `${mock.url}/v1`,
    });
    expect((await chat(scheduled.key)).status).to.equal(200);
    expect((await chat(created.key)).status).to.equal(401);

    await reads('/v1/api-keys?status=active,deleted&page_size=100');
    await reads(`/v1/api-keys/${created.id}`);
    await reads(`/v1/api-keys/${joined.api_key.id}`);
    await reads(`/v1/workspaces/${ws}/members`);
    await reads('/v1/users');
    await reads('/v1/organisation/settings');
    await owner.del(`/v1/api-keys/${created.id}`);
    await reads(`/v1/api-keys/${created.id}`);
    await new Promise((r) => setTimeout(r, 50));

    const logged = lines.join('');
    expect(logged).to.contain('rotated API keys on schedule');
    for (const secret of secrets) {
      expect(logged).not.to.contain(secret);
      for (const answer of answers) expect(answer).not.to.contain(secret);
    }
  });
});
