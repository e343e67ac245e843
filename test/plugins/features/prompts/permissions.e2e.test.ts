/**
 * Prompt permissions (spec §2.3 v1.10.0, issue 20 item 4) on a real control plane: the settings
 * membersViewPrompts / membersWritePrompts / managersViewPrompts / managersWritePrompts (organisation
 * value, workspace override) decide for workspace-user keys and people; admins always may; service
 * keys need prompts.read / prompts.render / prompts.write. Read is GET, render the render and
 * completions routes, write PUT, POST and DELETE.
 */
import { expect } from 'chai';
import ApiKeysPlugin from '../../../../plugins/admin/api-keys/index.js';
import WorkspacesPlugin from '../../../../plugins/admin/workspaces/index.js';
import PromptsPlugin from '../../../../plugins/features/prompts/index.js';
import SecretBoxPlugin from '../../../../plugins/security/secret-box/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { jsonReply, startGateway, TEST_API_KEY, type JsonReply, type TestGateway } from '../../../helpers/gateway.js';
import { authWith, ManualClock } from '../../admin/api-keys/helpers.js';
import TestPersonPlugin from './person-plugin.js';

const TEMPLATE = Object.freeze({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello {{name}}' }] });
const PROMPT_SETTINGS = ['membersViewPrompts', 'membersWritePrompts', 'managersViewPrompts', 'managersWritePrompts'] as const;

type Who = Record<string, string>;

describe('feature.prompts: prompt permissions', () => {
  let gw: TestGateway;
  let mock: MockOpenAI;
  let ws: string;
  let other: string;
  let n = 0;
  let id: string;
  const owner: Who = { 'x-gw-api-key': TEST_API_KEY };
  const keys: Record<'member' | 'manager' | 'admin' | 'otherMember', Who> = {} as never;

  const call = async (method: string, path: string, who: Who, body?: unknown, extra: Who = {}): Promise<JsonReply> => {
    const headers: Who = { ...who, ...extra };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return jsonReply(await fetch(gw.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
  };
  const ok = async (reply: Promise<JsonReply>): Promise<JsonReply> => {
    const r = await reply;
    if (r.status !== 200) throw new Error(`${r.status} ${r.text}`);
    return r;
  };
  const createKey = async (body: Record<string, unknown>): Promise<Who> => ({ 'x-gw-api-key': (await ok(call('POST', '/v1/api-keys', owner, body))).json.key });
  const memberKey = async (workspaceId: string, role: string, scopes: string[] = ['*']): Promise<Who> => {
    const user = await ok(call('POST', '/v1/users', owner, { email: `${role}-${++n}@example.com`, name: role, role: 'member' }));
    await ok(call('POST', `/v1/workspaces/${workspaceId}/members`, owner, { user_id: user.json.id, role }));
    return createKey({ name: `${role} key`, type: 'workspace-user', workspace_id: workspaceId, user_id: user.json.id, scopes });
  };
  const orgSettings = (patch: Record<string, boolean>) => ok(call('PUT', '/v1/organisation/settings', owner, patch));
  const wsSettings = (workspaceId: string, patch: Record<string, boolean | null>) => ok(call('PUT', `/v1/workspaces/${workspaceId}/settings`, owner, patch));

  // One call per route, by action.
  const read = (who: Who) => call('GET', `/v1/prompts/${id}`, who);
  const render = (who: Who) => call('POST', `/v1/prompts/${id}/render`, who, { variables: { name: 'Ada' } });
  const complete = (who: Who) => call('POST', `/v1/prompts/${id}/completions`, who, { variables: { name: 'Ada' } }, {
    'x-gw-config': JSON.stringify({ provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1` }),
  });
  const put = (who: Who, body: unknown = { ...TEMPLATE, temperature: 0.5 }) => call('PUT', `/v1/prompts/${id}`, who, body);
  const create = (who: Who, pid = `${id}-new`) => call('POST', '/v1/prompts', who, { id: pid, ...TEMPLATE });
  const remove = (who: Who) => call('DELETE', `/v1/prompts/${id}`, who);
  const writes = (who: Who) => [put(who), create(who)];

  const expectRefused = (reply: JsonReply, named: string) => {
    expect(reply.status, reply.text).to.equal(403);
    expect(reply.json.error.code).to.equal('forbidden');
    expect(reply.json.error.message).to.contain(named);
  };
  const expectStatus = (reply: JsonReply, status: number) => expect(reply.status, reply.text).to.equal(status);

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startGateway({
      plugins: [
        SecretBoxPlugin,
        { use: authWith(new ManualClock()), options: { rotationCheckIntervalMs: 0 } },
        ApiKeysPlugin,
        { use: WorkspacesPlugin, options: { refreshIntervalMs: 0 } },
        PromptsPlugin,
        TestPersonPlugin,
      ],
    });
    ws = (await ok(call('GET', '/v1/workspaces/default', owner))).json.id;
    other = (await ok(call('POST', '/v1/workspaces', owner, { name: 'Other' }))).json.id;
    keys.member = await memberKey(ws, 'member');
    keys.manager = await memberKey(ws, 'manager');
    keys.admin = await memberKey(ws, 'admin');
    keys.otherMember = await memberKey(other, 'member');
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });
  beforeEach(async () => {
    mock.reset();
    id = `perm-${++n}`;
    // Spec defaults, no workspace overrides: each test sets what it is about.
    await orgSettings({ membersViewPrompts: true, membersWritePrompts: false, managersViewPrompts: true, managersWritePrompts: true });
    for (const w of [ws, other]) await wsSettings(w, Object.fromEntries(PROMPT_SETTINGS.map((s) => [s, null])));
    await ok(put(owner, TEMPLATE));
  });

  describe('the regression of issue 20', () => {
    it("a workspace member's key cannot overwrite the organisation's prompt while membersWritePrompts is off", async () => {
      await orgSettings({ membersWritePrompts: false });
      // Its scopes (`*`) do not lift it: for people the role and the settings decide.
      expectRefused(await put(keys.member, { model: 'evil', messages: [{ role: 'user', content: 'overwritten' }] }), 'membersWritePrompts');
      expectRefused(await put(keys.member, { model: 'evil', patch: true }), 'membersWritePrompts');
      expectRefused(await remove(keys.member), 'membersWritePrompts');
      expectRefused(await create(keys.member), 'membersWritePrompts');
      const latest = await ok(read(owner));
      expect(latest.json.version).to.equal(1);
      expect(latest.json.template).to.deep.equal(TEMPLATE);
      expectStatus(await call('GET', `/v1/prompts/${id}-new`, owner), 404);
    });
  });

  describe('workspace members', () => {
    it('by default view and render but do not write', async () => {
      expectStatus(await read(keys.member), 200);
      expectStatus(await render(keys.member), 200);
      expectStatus(await complete(keys.member), 200);
      for (const reply of await Promise.all(writes(keys.member))) expectRefused(reply, 'membersWritePrompts');
      expectRefused(await remove(keys.member), 'membersWritePrompts');
    });

    it('write, create and delete with membersWritePrompts on', async () => {
      await orgSettings({ membersWritePrompts: true });
      expect((await ok(put(keys.member))).json.version).to.equal(2);
      expect((await ok(create(keys.member))).json).to.deep.equal({ id: `${id}-new`, version: 1 });
      expect((await ok(remove(keys.member))).json).to.deep.equal({ id, object: 'prompt', deleted: true });
      expectStatus(await read(owner), 404);
    });

    it('neither view nor render with membersViewPrompts off (nothing reaches a provider)', async () => {
      await orgSettings({ membersViewPrompts: false });
      expectRefused(await read(keys.member), 'membersViewPrompts');
      expectRefused(await render(keys.member), 'membersViewPrompts');
      expectRefused(await complete(keys.member), 'membersViewPrompts');
      expect(mock.requests).to.have.length(0);
      // Managers are governed by their own settings.
      expectStatus(await read(keys.manager), 200);
    });
  });

  describe('workspace managers', () => {
    it('by default view, render and write', async () => {
      expectStatus(await read(keys.manager), 200);
      expectStatus(await render(keys.manager), 200);
      expectStatus(await put(keys.manager), 200);
      expectStatus(await create(keys.manager), 200);
      expectStatus(await remove(keys.manager), 200);
    });

    it('do not write with managersWritePrompts off, and still view', async () => {
      await orgSettings({ managersWritePrompts: false });
      for (const reply of await Promise.all(writes(keys.manager))) expectRefused(reply, 'managersWritePrompts');
      expectRefused(await remove(keys.manager), 'managersWritePrompts');
      expectStatus(await read(keys.manager), 200);
      // A member's setting does not govern a manager.
      await orgSettings({ membersWritePrompts: true });
      expectRefused(await put(keys.manager), 'managersWritePrompts');
    });

    it('neither view nor render with managersViewPrompts off', async () => {
      await orgSettings({ managersViewPrompts: false });
      expectRefused(await read(keys.manager), 'managersViewPrompts');
      expectRefused(await render(keys.manager), 'managersViewPrompts');
      expectRefused(await complete(keys.manager), 'managersViewPrompts');
      expectStatus(await read(keys.member), 200);
    });
  });

  describe('admins', () => {
    const allOff = { membersViewPrompts: false, membersWritePrompts: false, managersViewPrompts: false, managersWritePrompts: false };

    it('workspace admins, the organisation owner and organisation admin keys may always', async () => {
      await orgSettings(allOff);
      const orgAdmin = await createKey({ name: 'org admin', type: 'organisation-service', scopes: ['*'] });
      for (const who of [keys.admin, owner, orgAdmin]) {
        expectStatus(await read(who), 200);
        expectStatus(await render(who), 200);
        expectStatus(await put(who), 200);
      }
      expectStatus(await create(keys.admin), 200);
      expectStatus(await remove(keys.admin), 200);
    });
  });

  describe('workspace overrides', () => {
    it('a workspace override beats the organisation setting, in both directions; null restores it', async () => {
      await orgSettings({ membersWritePrompts: true });
      await wsSettings(ws, { membersWritePrompts: false });
      const refused = await put(keys.member);
      expectRefused(refused, 'membersWritePrompts');
      expect(refused.json.error.message).to.contain(`workspace ${ws}`);
      // The other workspace keeps the organisation value.
      expectStatus(await put(keys.otherMember), 200);

      await orgSettings({ membersWritePrompts: false });
      await wsSettings(ws, { membersWritePrompts: true });
      expectStatus(await put(keys.member), 200);
      expectRefused(await put(keys.otherMember), 'membersWritePrompts');

      await wsSettings(ws, { membersWritePrompts: null });
      expectRefused(await put(keys.member), 'membersWritePrompts');
    });

    it('view settings are overridden per workspace too', async () => {
      await wsSettings(other, { membersViewPrompts: false, managersWritePrompts: false });
      expectRefused(await read(keys.otherMember), 'membersViewPrompts');
      expectStatus(await read(keys.member), 200);
      expectStatus(await put(keys.manager), 200);
    });
  });

  describe('service keys', () => {
    it('prompts.read opens GET only', async () => {
      const reader = await createKey({ name: 'reader', type: 'workspace-service', workspace_id: ws, scopes: ['prompts.read'] });
      expectStatus(await read(reader), 200);
      expectRefused(await render(reader), 'prompts.render');
      expectRefused(await complete(reader), 'prompts.render');
      expectRefused(await put(reader), 'prompts.write');
      expectRefused(await create(reader), 'prompts.write');
      expectRefused(await remove(reader), 'prompts.write');
    });

    it('prompts.render opens render and completions only', async () => {
      const renderer = await createKey({ name: 'renderer', type: 'workspace-service', workspace_id: ws, scopes: ['prompts.render'] });
      expectStatus(await render(renderer), 200);
      expectStatus(await complete(renderer), 200);
      expect(mock.requests).to.have.length(1);
      expectRefused(await read(renderer), 'prompts.read');
      expectRefused(await put(renderer), 'prompts.write');
    });

    it('prompts.write opens PUT, POST and DELETE only', async () => {
      const writer = await createKey({ name: 'writer', type: 'organisation-service', scopes: ['prompts.write'] });
      expectStatus(await put(writer), 200);
      expectStatus(await create(writer), 200);
      expectRefused(await read(writer), 'prompts.read');
      expectStatus(await remove(writer), 200);
    });

    it('no prompt scope refuses everything; prompts.* opens everything; settings do not apply to them', async () => {
      const none = await createKey({ name: 'none', type: 'workspace-service', workspace_id: ws, scopes: ['workspaces.read'] });
      expectRefused(await read(none), 'the API key lacks the scope prompts.read');
      expectRefused(await render(none), 'prompts.render');
      expectRefused(await put(none), 'prompts.write');
      await orgSettings({ membersViewPrompts: false, membersWritePrompts: false, managersViewPrompts: false, managersWritePrompts: false });
      const all = await createKey({ name: 'all', type: 'workspace-service', workspace_id: ws, scopes: ['prompts.*'] });
      expectStatus(await read(all), 200);
      expectStatus(await render(all), 200);
      expectStatus(await put(all), 200);
      expectStatus(await remove(all), 200);
    });
  });

  describe('people (session and JWT principals)', () => {
    const person = (role: string, workspaceId = ws) => ({ 'x-test-person': `${role}:${workspaceId}:user-${role}` });

    it('a member person views but does not write; with the setting on they write', async () => {
      expectStatus(await read(person('member')), 200);
      expectStatus(await render(person('member')), 200);
      expectRefused(await put(person('member')), 'membersWritePrompts');
      await orgSettings({ membersWritePrompts: true });
      expectStatus(await put(person('member')), 200);
    });

    it('a manager person follows the manager settings, with workspace overrides', async () => {
      expectStatus(await put(person('manager')), 200);
      await wsSettings(ws, { managersWritePrompts: false, managersViewPrompts: false });
      expectRefused(await put(person('manager')), 'managersWritePrompts');
      expectRefused(await read(person('manager')), 'managersViewPrompts');
      expectStatus(await read(person('manager', other)), 200);
    });

    it('organisation owners and admins, and workspace admins, may always', async () => {
      await orgSettings({ membersViewPrompts: false, membersWritePrompts: false, managersViewPrompts: false, managersWritePrompts: false });
      for (const who of [person('admin', ''), person('owner', ''), person('admin')]) {
        expectStatus(await read(who), 200);
        expectStatus(await put(who), 200);
      }
    });
  });

  describe('POST /v1/prompts and DELETE /v1/prompts/:promptId', () => {
    it('POST creates version 1 of a new prompt, with a generated id when none is given; an id in use is a 400', async () => {
      const created = await ok(create(owner));
      expect(created.json).to.deep.equal({ id: `${id}-new`, version: 1 });
      const again = await create(owner);
      expectStatus(again, 400);
      expect(again.json.error).to.include({ code: 'duplicate', param: 'id' });
      expect(again.json.error.message).to.contain(`prompt "${id}-new" exists already`);
      const generated = await ok(call('POST', '/v1/prompts', owner, TEMPLATE));
      expect(generated.json.id).to.match(/^prompt-[0-9a-f-]{36}$/);
      expect((await ok(call('GET', `/v1/prompts/${generated.json.id}`, owner))).json.template).to.deep.equal(TEMPLATE);
    });

    it('POST refuses a bad id, a patch flag and an invalid template, naming the field', async () => {
      for (const [body, message] of [
        [{ id: 'bad id', ...TEMPLATE }, 'body.id: must be 1 to 128 letters, digits, _ . or -'],
        [{ id: 7, ...TEMPLATE }, 'body.id: must be'],
        [{ ...TEMPLATE, patch: true }, 'body.patch: is not a template field'],
        [{ id: `${id}-x`, model: 'm' }, 'body.messages: is required'],
      ] as const) {
        const reply = await call('POST', '/v1/prompts', owner, body);
        expectStatus(reply, 400);
        expect(reply.json.error.message).to.contain(message);
      }
      expectStatus(await call('GET', `/v1/prompts/${id}-x`, owner), 404);
    });

    it('DELETE removes every version; an unknown prompt is a 404; the id can be used again from version 1', async () => {
      await ok(put(owner));
      await ok(read(owner));
      await ok(call('GET', `/v1/prompts/${id}?version=1`, owner));
      expect((await ok(remove(owner))).json).to.deep.equal({ id, object: 'prompt', deleted: true });
      expectStatus(await read(owner), 404);
      expectStatus(await call('GET', `/v1/prompts/${id}?version=1`, owner), 404);
      const missing = await remove(owner);
      expectStatus(missing, 404);
      expect(missing.json.error.code).to.equal('prompt_not_found');
      const fresh = { model: 'gpt-4o', messages: [{ role: 'user', content: 'fresh' }] };
      expect((await ok(put(owner, fresh))).json.version).to.equal(1);
      expect((await ok(call('GET', `/v1/prompts/${id}?version=1`, owner))).json.template).to.deep.equal(fresh);
    });
  });
});
