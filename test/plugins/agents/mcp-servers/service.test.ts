/**
 * agents.mcp-servers: the McpServers service as the MCP gateway uses it: which servers a caller
 * finds, what it learns of them, and secret mappings resolved through a SecretReferences service
 * for the caller's workspace.
 */
import { expect } from 'chai';
import { definePlugin, Errors } from '../../../../core/index.js';
import { SecretReferencesService, type SecretRequester } from '../../../../plugins/security/secret-references/contract.js';
import type { TestGateway } from '../../../helpers/gateway.js';
import { call, principal, registryOf, startRegistry } from './harness.js';

const URL = 'https://mcp.example.com/mcp';

/** Stands in for the secret-references plugin: per-workspace values, and one reference ws-2 may not use. */
const asked: SecretRequester[] = [];
const TestSecretReferences = definePlugin({
  id: 'test.secret-references',
  provides: [SecretReferencesService],
  apply(api) {
    api.services.provide(SecretReferencesService, {
      resolve(reference, requester) {
        asked.push(requester);
        if (reference === 'unknown-ref') return undefined;
        if (requester.workspaceId === 'ws-2') throw Errors.forbidden(`secret reference "${reference}" is not allowed in workspace ws-2`);
        return `${reference}-for-${requester.workspaceId ?? 'organisation'}`;
      },
    });
  },
});

describe('agents.mcp-servers: the McpServers service', () => {
  let gw: TestGateway;
  const ids: Record<string, string> = {};

  before(async () => {
    gw = await startRegistry({ plugins: [TestSecretReferences] });
    const bodies: Record<string, Record<string, unknown>> = {
      'org-all': { allowed_tools: ['search'], denied_tools: ['delete'] },
      'org-two': { allowed_workspaces: ['ws-2'] },
      'one-own': { workspace_id: 'ws-1', auth: { type: 'user_bearer' } },
      mapped: { auth: { type: 'bearer' }, secret_mappings: [{ target_field: 'auth.token', secret_reference: 'team-token' }] },
      unmapped: { auth: { type: 'headers' }, secret_mappings: [{ target_field: 'auth.headers.x-key', secret_reference: 'unknown-ref' }] },
    };
    for (const [slug, body] of Object.entries(bodies)) {
      const res = await call(gw, 'POST', '/v1/mcp-servers', { slug, url: URL, ...body });
      expect(res.status, res.text).to.equal(200);
      ids[slug] = res.json.id;
    }
  });
  after(async () => {
    await gw?.stop();
  });

  it('finds a server by id or slug as the caller may use it, and answers nothing else', () => {
    const registry = registryOf(gw);
    const org = principal({ type: 'organisation-service' });
    const one = principal({ workspaceId: 'ws-1' });
    const two = principal({ workspaceId: 'ws-2' });
    const stranger = principal({ organisationId: 'org-2' });
    expect(registry.find('org-all', one)).to.deep.equal({
      id: ids['org-all'], slug: 'org-all', name: 'org-all', url: URL, organisationId: 'default', workspaceId: null,
      allowAllWorkspaces: true, allowedWorkspaces: [], allowedTools: ['search'], deniedTools: ['delete'], authType: 'none', revision: 1,
    });
    expect(registry.find(ids['org-all']!, one)?.slug).to.equal('org-all');
    expect(registry.find('one-own', one)).to.deep.include({ workspaceId: 'ws-1', authType: 'user_bearer' });
    expect(registry.find('one-own', two)).to.equal(undefined);
    expect(registry.find('org-two', one)).to.equal(undefined);
    expect(registry.find('org-two', two)?.slug).to.equal('org-two');
    expect(registry.find('org-two', org)?.slug).to.equal('org-two');
    expect(registry.find('org-all', stranger)).to.equal(undefined);
    expect(registry.find(ids['org-all']!, stranger)).to.equal(undefined);
    expect(registry.find('nothing', org)).to.equal(undefined);
    // byId answers whoever asks (an admin listing connections).
    expect(registry.byId(ids['one-own']!)?.slug).to.equal('one-own');
    expect(registry.byId('nothing')).to.equal(undefined);
  });

  it('accepts any reference name once a SecretReferences service is loaded (no GW_SECRET_REF_ prefix)', async () => {
    const shown = (await call(gw, 'GET', '/v1/mcp-servers/mapped')).json;
    expect(shown.secret_mappings).to.deep.equal([{ target_field: 'auth.token', secret_reference: 'team-token' }]);
    expect(shown.auth).to.deep.equal({ type: 'bearer' });
  });

  it('resolves mappings for the caller\'s workspace, once per workspace while fresh', async () => {
    const registry = registryOf(gw);
    const info = registry.find('mapped', principal())!;
    asked.length = 0;
    const headers = (p = principal()) => registry.upstreamHeaders(info, p, AbortSignal.timeout(1000));
    expect(await headers(principal({ workspaceId: 'ws-1' }))).to.deep.equal({ authorization: 'Bearer team-token-for-ws-1' });
    expect(await headers(principal({ workspaceId: 'ws-1' }))).to.deep.equal({ authorization: 'Bearer team-token-for-ws-1' });
    expect(await headers(principal({ type: 'organisation-service' }))).to.deep.equal({ authorization: 'Bearer team-token-for-organisation' });
    expect(asked).to.deep.equal([{ organisationId: 'default', workspaceId: 'ws-1' }, { organisationId: 'default', workspaceId: undefined }]);
  });

  it('passes on the service\'s refusal, and names server and reference when a reference is unknown', async () => {
    const registry = registryOf(gw);
    const refused = await registry.upstreamHeaders(registry.find('mapped', principal())!, principal({ workspaceId: 'ws-2' }), AbortSignal.timeout(1000)).catch((e) => e);
    expect(refused).to.deep.include({ status: 403, message: 'secret reference "team-token" is not allowed in workspace ws-2' });
    const unknown = await registry.upstreamHeaders(registry.find('unmapped', principal())!, principal(), AbortSignal.timeout(1000)).catch((e) => e);
    expect(unknown).to.deep.include({ status: 500, code: 'mcp_server_unusable', message: 'MCP server "unmapped": the secret reference "unknown-ref" mapped to auth.headers.x-key is not available' });
  });
});
