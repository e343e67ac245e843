/**
 * Who sees which logs and analytics, per role and visibility setting. The control plane is stood
 * in for (harness.ts): principals from a test header, OrgSettings and Directory services that the
 * test changes between requests; one case runs without those services (the degraded default).
 */
import { expect } from 'chai';
import AnalyticsPlugin from '../../../../plugins/observe/analytics/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, postJson, type TestGateway } from '../../../helpers/gateway.js';
import { fakeControlPlane, getJson, logService, mockHeaders, principalHeader, startObserved, type ControlPlaneState } from './harness.js';

const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';

const PEOPLE = {
  memberA: { keyId: 'key-member-a', role: 'member', workspaceId: W1, userId: 'user-a' },
  memberB: { keyId: 'key-member-b', role: 'member', workspaceId: W1, userId: 'user-b' },
  manager: { keyId: 'key-manager', role: 'manager', workspaceId: W1, userId: 'user-m' },
  wsAdmin: { keyId: 'key-ws-admin', role: 'admin', workspaceId: W1, userId: 'user-w' },
  service2: { keyId: 'key-service-2', type: 'workspace-service', workspaceId: W2 },
  orgAdmin: { keyId: 'key-org-admin', type: 'organisation-service', role: 'admin' },
  owner: { keyId: 'key-owner', type: 'organisation-owner' },
  stranger: { keyId: 'key-stranger', type: 'organisation-owner', organisationId: 'org-2' },
  noScope: { keyId: 'key-no-scope', type: 'workspace-service', workspaceId: W1, scopes: ['completions.write'] },
} as const;

type Person = keyof typeof PEOPLE;
const as = (who: Person) => principalHeader(PEOPLE[who]);

describe('observe.logs and observe.analytics visibility', () => {
  let mock: MockOpenAI;
  before(async () => {
    mock = await startMockOpenAI();
  });
  after(async () => {
    await mock?.close();
  });

  /** Requests by A (2), B (1), manager (1) in W1 and service2 (1) in W2. */
  async function traffic(gw: TestGateway): Promise<void> {
    for (const [who, n] of [['memberA', 2], ['memberB', 1], ['manager', 1], ['service2', 1]] as const) {
      for (let i = 0; i < n; i++) {
        const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock, { ...as(who), 'x-gw-metadata': JSON.stringify({ who }) }));
        expect(reply.status).to.equal(200);
      }
    }
    await logService(gw).flush();
  }

  const keysSeen = async (gw: TestGateway, who: Person, query = '') => {
    const reply = await getJson(gw.url, `/v1/logs${query}`, as(who));
    expect(reply.status, `${who} ${reply.json?.error?.message ?? ''}`).to.equal(200);
    return (reply.json.data as { api_key_id: string }[]).map((l) => l.api_key_id).sort();
  };
  const analyticsKeys = async (gw: TestGateway, who: Person) => {
    const reply = await getJson(gw.url, '/v1/analytics/groups/api_key', as(who));
    expect(reply.status).to.equal(200);
    return Object.fromEntries((reply.json.data as { api_key: string; requests: number }[]).map((r) => [r.api_key, r.requests]));
  };

  describe('with the control plane\'s services', () => {
    let gw: TestGateway;
    const state: ControlPlaneState = {
      settings: { '': {} },
      workspaces: [
        { id: W1, slug: 'ws-one', organisation_id: 'org-1', status: 'active' },
        { id: W2, slug: 'ws-two', organisation_id: 'org-1', status: 'active' },
      ],
      keyNames: { 'key-member-a': 'Alice\'s key' },
    };
    before(async () => {
      gw = await startObserved({ extra: [fakeControlPlane(state), AnalyticsPlugin] });
      await traffic(gw);
    });
    after(async () => {
      await gw?.stop();
    });
    afterEach(() => {
      state.settings = { '': {} };
    });

    const W1_KEYS = ['key-manager', 'key-member-a', 'key-member-a', 'key-member-b'];

    it('by default members and managers see their whole workspace, never another one', async () => {
      expect(await keysSeen(gw, 'memberA')).to.deep.equal(W1_KEYS);
      expect(await keysSeen(gw, 'manager')).to.deep.equal(W1_KEYS);
      expect(await keysSeen(gw, 'service2')).to.deep.equal(['key-service-2']);
    });

    it('membersViewAllData: false limits members to their own keys, in logs and analytics', async () => {
      state.settings = { '': { membersViewAllData: false } };
      expect(await keysSeen(gw, 'memberA')).to.deep.equal(['key-member-a', 'key-member-a']);
      expect(await keysSeen(gw, 'memberB')).to.deep.equal(['key-member-b']);
      expect(await analyticsKeys(gw, 'memberA')).to.deep.equal({ 'key-member-a': 2 });
      // Managers and workspace admins are not members.
      expect(await keysSeen(gw, 'manager')).to.deep.equal(W1_KEYS);
      expect(await keysSeen(gw, 'wsAdmin')).to.deep.equal(W1_KEYS);
    });

    it('managersViewAllData: false limits managers to their own keys; a workspace override applies', async () => {
      state.settings = { '': { managersViewAllData: false } };
      expect(await keysSeen(gw, 'manager')).to.deep.equal(['key-manager']);
      expect(await keysSeen(gw, 'memberA')).to.deep.equal(W1_KEYS);
      state.settings = { '': { managersViewAllData: false }, [W1]: { managersViewAllData: true } };
      expect(await keysSeen(gw, 'manager')).to.deep.equal(W1_KEYS);
    });

    it('owners and organisation admins see the whole organisation, strangers nothing', async () => {
      state.settings = { '': { membersViewAllData: false, managersViewAllData: false } };
      const all = [...W1_KEYS, 'key-service-2'].sort();
      expect(await keysSeen(gw, 'owner')).to.deep.equal(all);
      expect(await keysSeen(gw, 'orgAdmin')).to.deep.equal(all);
      expect(await keysSeen(gw, 'stranger')).to.deep.equal([]);
      expect(await analyticsKeys(gw, 'stranger')).to.deep.equal({});
    });

    it('organisationAdminsViewLogs: false refuses admins the logs but not analytics; owners keep both', async () => {
      state.settings = { '': { organisationAdminsViewLogs: false } };
      const refused = await getJson(gw.url, '/v1/logs', as('orgAdmin'));
      expect(refused.status).to.equal(403);
      expect(refused.json.error.message).to.contain('organisationAdminsViewLogs');
      expect((await getJson(gw.url, '/v1/logs/groups/model', as('orgAdmin'))).status).to.equal(403);
      expect(Object.values(await analyticsKeys(gw, 'orgAdmin')).reduce((a, b) => a + b, 0)).to.equal(5);
      expect((await getJson(gw.url, '/v1/logs', as('owner'))).status).to.equal(200);
    });

    it('organisationAdminsViewLogMetadata: false hides metadata from admins only', async () => {
      state.settings = { '': { organisationAdminsViewLogMetadata: false } };
      const admin = await getJson(gw.url, '/v1/logs', as('orgAdmin'));
      expect(admin.json.data.map((l: { metadata: unknown }) => l.metadata)).to.satisfy((m: unknown[]) => m.every((x) => x === null));
      const detail = await getJson(gw.url, `/v1/logs/${admin.json.data[0].id}`, as('orgAdmin'));
      expect(detail.json.metadata).to.equal(null);
      const owner = await getJson(gw.url, '/v1/logs', as('owner'));
      expect(owner.json.data.every((l: { metadata: unknown }) => l.metadata !== null)).to.equal(true);
    });

    it('a log outside the caller\'s view is a 404, like an unknown id', async () => {
      const theirs = (await getJson(gw.url, '/v1/logs?api_key_id=key-service-2', as('owner'))).json.data[0];
      expect((await getJson(gw.url, `/v1/logs/${theirs.id}`, as('memberA'))).status).to.equal(404);
      expect((await getJson(gw.url, `/v1/logs/${theirs.id}`, as('service2'))).status).to.equal(200);
    });

    it('resolves a workspace slug, and refuses a workspace outside the key\'s', async () => {
      expect(await keysSeen(gw, 'owner', '?workspace_id=ws-two')).to.deep.equal(['key-service-2']);
      expect(await keysSeen(gw, 'memberA', '?workspace_id=ws-one')).to.deep.equal(W1_KEYS);
      expect((await getJson(gw.url, '/v1/logs?workspace_id=ws-two', as('memberA'))).status).to.equal(403);
      expect((await getJson(gw.url, '/v1/logs?workspace_id=nowhere', as('owner'))).status).to.equal(404);
    });

    it('names keys in api_key groups when the directory knows them', async () => {
      const reply = await getJson(gw.url, '/v1/analytics/groups/api_key', as('owner'));
      const alice = reply.json.data.find((r: { api_key: string }) => r.api_key === 'key-member-a');
      expect(alice).to.deep.equal({ api_key: 'key-member-a', requests: 2, api_key_name: 'Alice\'s key' });
    });

    it('needs logs.list / logs.view / analytics.view scopes (403 otherwise)', async () => {
      for (const path of ['/v1/logs', '/v1/logs/groups/model', '/v1/analytics/groups/model', '/v1/logs/some-id']) {
        const reply = await getJson(gw.url, path, as('noScope'));
        expect(reply.status, path).to.equal(403);
        expect(reply.json.error.code, path).to.equal('forbidden');
      }
    });
  });

  describe('without the control plane\'s services', () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startObserved({ extra: [fakeControlPlane({ settings: {}, workspaces: [], keyNames: {} }, false), AnalyticsPlugin] });
      await traffic(gw);
    });
    after(async () => {
      await gw?.stop();
    });

    it('everyone sees their own organisation\'s data (a workspace key its workspace)', async () => {
      expect(await keysSeen(gw, 'memberA')).to.deep.equal(['key-manager', 'key-member-a', 'key-member-a', 'key-member-b']);
      expect(await keysSeen(gw, 'orgAdmin')).to.have.length(5);
      expect(await keysSeen(gw, 'stranger')).to.deep.equal([]);
      // Workspace ids are taken as given.
      expect(await keysSeen(gw, 'owner', `?workspace_id=${W2}`)).to.deep.equal(['key-service-2']);
    });
  });
});
