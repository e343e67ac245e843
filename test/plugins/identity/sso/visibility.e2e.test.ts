/**
 * Issue 20 item 7: the data visibility settings (membersViewAllData, managersViewAllData,
 * organisationAdminsViewLogs, organisationAdminsViewLogMetadata) apply to people signed in by SSO
 * exactly as to keys, through the real control plane (admin.workspaces) and the logs routes.
 */
import { expect } from 'chai';
import { RequestLogsService } from '../../../../plugins/observe/logs/contract.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import type { OidcBrowser } from '../../../fixtures/oidc-browser.js';
import { CHAT_BODY, postJson } from '../../../helpers/gateway.js';
import { createKey, defaultWorkspaceId, type ControlPlane } from '../../admin/api-keys/helpers.js';
import { startBench, type Bench } from './harness.js';

describe('identity.sso: data visibility for people', () => {
  let bench: Bench;
  let mock: MockOpenAI;
  let workspaceId: string;
  const browsers: Record<string, OidcBrowser> = {};
  const keyIds: Record<string, string> = {};

  before(async () => {
    mock = await startMockOpenAI();
    bench = await startBench();
    const cp = { gw: bench.gw, owner: bench.owner } as unknown as ControlPlane;
    workspaceId = await defaultWorkspaceId(cp);
    expect((await bench.owner.post('/v1/users', { email: 'owner@acme.test', role: 'owner' })).status).to.equal(200);
    expect((await bench.owner.post('/v1/users', { email: 'bob@acme.test', role: 'admin' })).status).to.equal(200);
    for (const [login, role] of [['alice', 'member'], ['manager', 'manager']] as const) {
      const { callback, browser } = await bench.signIn(login);
      const userId = JSON.parse(callback.body).user.id;
      expect((await bench.owner.post(`/v1/workspaces/${workspaceId}/members`, { user_id: userId, role })).status).to.equal(200);
      const key = await createKey(cp, { name: login, type: 'workspace-user', workspace_id: workspaceId, user_id: userId, scopes: ['completions.write'] });
      keyIds[login] = key.id;
      browsers[login] = browser;
      for (let i = 0; i < (login === 'alice' ? 2 : 1); i++) await chat(key.key, login);
    }
    const service = await createKey(cp, { name: 'service', type: 'workspace-service', workspace_id: workspaceId, scopes: [] });
    keyIds['service'] = service.id;
    await chat(service.key, 'service');
    browsers['bob'] = (await bench.signIn('bob')).browser;
    browsers['owner'] = (await bench.signIn('owner')).browser;
    await bench.gw.gateway.runtime.services.get(RequestLogsService).flush();
  });
  after(async () => {
    await bench?.stop();
    await mock?.close();
  });
  afterEach(async () => {
    const reset = { membersViewAllData: true, managersViewAllData: true, organisationAdminsViewLogs: true, organisationAdminsViewLogMetadata: true };
    expect((await bench.owner.put('/v1/organisation/settings', reset)).status).to.equal(200);
    expect((await bench.owner.put(`/v1/workspaces/${workspaceId}/settings`, { managersViewAllData: null })).status).to.equal(200);
  });

  async function chat(key: string, who: string): Promise<void> {
    const headers = {
      'content-type': 'application/json',
      'x-gw-api-key': key,
      'x-gw-config': JSON.stringify({ provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1` }),
      'x-gw-metadata': JSON.stringify({ who }),
    };
    const reply = await postJson(bench.gw.url, '/v1/chat/completions', CHAT_BODY, headers);
    expect(reply.status, reply.text).to.equal(200);
  }

  const logsOf = async (who: string, path = '/v1/logs') => {
    const reply = await bench.withSession(browsers[who]!, 'GET', path);
    expect(reply.status, `${who}: ${JSON.stringify(reply.json)}`).to.equal(200);
    return reply.json;
  };
  const keysSeen = async (who: string) => ((await logsOf(who)).data as { api_key_id: string }[]).map((l) => l.api_key_id).sort();
  const all = () => [keyIds['alice']!, keyIds['alice']!, keyIds['manager']!, keyIds['service']!].sort();

  it('by default members and managers signed in see their whole workspace', async () => {
    expect(await keysSeen('alice')).to.deep.equal(all());
    expect(await keysSeen('manager')).to.deep.equal(all());
  });

  it('membersViewAllData: false limits a member\'s session to their own keys, in logs and analytics', async () => {
    expect((await bench.owner.put('/v1/organisation/settings', { membersViewAllData: false })).status).to.equal(200);
    expect(await keysSeen('alice')).to.deep.equal([keyIds['alice'], keyIds['alice']]);
    const analytics = await logsOf('alice', '/v1/analytics/groups/api_key');
    expect(analytics.data.map((r: { requests: number }) => r.requests)).to.deep.equal([2]);
    expect(await keysSeen('manager')).to.deep.equal(all());
  });

  it('managersViewAllData: false limits a manager\'s session; a workspace override gives it back', async () => {
    expect((await bench.owner.put('/v1/organisation/settings', { managersViewAllData: false })).status).to.equal(200);
    expect(await keysSeen('manager')).to.deep.equal([keyIds['manager']]);
    expect(await keysSeen('alice')).to.deep.equal(all());
    expect((await bench.owner.put(`/v1/workspaces/${workspaceId}/settings`, { managersViewAllData: true })).status).to.equal(200);
    expect(await keysSeen('manager')).to.deep.equal(all());
  });

  it('organisationAdminsViewLogs: false refuses an admin\'s session the logs, not analytics; an owner\'s session keeps both', async () => {
    expect((await bench.owner.put('/v1/organisation/settings', { organisationAdminsViewLogs: false, membersViewAllData: false })).status).to.equal(200);
    const refused = await bench.withSession(browsers['bob']!, 'GET', '/v1/logs');
    expect(refused.status).to.equal(403);
    expect(refused.json.error.message).to.contain('organisationAdminsViewLogs');
    expect((await bench.withSession(browsers['bob']!, 'GET', '/v1/analytics/groups/api_key')).status).to.equal(200);
    expect(await keysSeen('owner')).to.deep.equal(all());
  });

  it('organisationAdminsViewLogMetadata: false hides metadata from an admin\'s session only', async () => {
    expect((await bench.owner.put('/v1/organisation/settings', { organisationAdminsViewLogMetadata: false })).status).to.equal(200);
    const admin = await logsOf('bob');
    expect(admin.data).to.have.length(4);
    expect(admin.data.every((l: { metadata: unknown }) => l.metadata === null)).to.equal(true);
    const owner = await logsOf('owner');
    expect(owner.data.every((l: { metadata: unknown }) => l.metadata !== null)).to.equal(true);
    const member = await logsOf('alice');
    expect(member.data.every((l: { metadata: unknown }) => l.metadata !== null)).to.equal(true);
  });
});
