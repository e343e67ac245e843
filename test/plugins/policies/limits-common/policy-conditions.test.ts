/** Conditions and group_by: which requests a policy selects, and how it buckets them. */
import { expect } from 'chai';
import type { RequestContext } from '../../../../core/index.js';
import { compileMatcher, type Condition } from '../../../../plugins/policies/limits-common/conditions.js';

function request(o: { keyId?: string; endpoint?: string; metadata?: Record<string, string> }): RequestContext {
  return {
    principal: o.keyId ? { keyId: o.keyId, type: 'workspace-service', scopes: [] } : undefined,
    endpoint: o.endpoint ? { id: o.endpoint } : undefined,
    metadata: o.metadata ?? {},
  } as unknown as RequestContext;
}

const matches = (conditions: Condition[], ctx: RequestContext, ws = 'ws-1') => compileMatcher(conditions, [{ key: 'api_key' }]).matches(ctx, ws);

describe('policy.rate-limits: conditions and group_by', () => {
  it('buckets by a JWT caller\'s claims: jwt.sub and jwt.groups as mapped, any other claim as given', () => {
    const jwt = { subject: 'alice', groups: ['ops', 'eng'], claims: { sub: 'raw-sub', tenant: 't1', level: 3, roles: ['b', 'a'], ext: { x: 1 } } };
    const ctx = { principal: { keyId: 'jwt:alice', type: 'workspace-user', scopes: [], jwt }, metadata: {} } as unknown as RequestContext;
    const group = (key: string) => compileMatcher([{ key: 'api_key', value: '*' }], [{ key }]).group(ctx, 'ws');
    expect(group('jwt.sub')).to.equal('alice');
    expect(group('jwt.groups')).to.equal(encodeURIComponent('eng,ops'));
    expect(group('jwt.tenant')).to.equal('t1');
    expect(group('jwt.level')).to.equal('3');
    expect(group('jwt.roles')).to.equal(encodeURIComponent('a,b'));
    expect(group('jwt.ext')).to.equal(encodeURIComponent('{"x":1}'));
    expect(group('jwt.missing')).to.equal('');
    // A caller without a JWT counts in the empty bucket.
    expect(compileMatcher([{ key: 'api_key', value: '*' }], [{ key: 'jwt.sub' }]).group(request({ keyId: 'k1' }), 'ws')).to.equal('');
  });

  it('matches every condition key: workspace_id, endpoint_type, api_key, metadata.<key>', () => {
    const ctx = request({ keyId: 'k1', endpoint: 'chatComplete', metadata: { team: 'red' } });
    expect(matches([{ key: 'workspace_id', value: 'ws-1' }], ctx)).to.equal(true);
    expect(matches([{ key: 'workspace_id', value: 'ws-2' }], ctx)).to.equal(false);
    expect(matches([{ key: 'endpoint_type', value: 'chatComplete' }], ctx)).to.equal(true);
    expect(matches([{ key: 'endpoint_type', value: 'embed' }], ctx)).to.equal(false);
    expect(matches([{ key: 'api_key', value: 'k1' }], ctx)).to.equal(true);
    expect(matches([{ key: 'metadata.team', value: 'red' }], ctx)).to.equal(true);
    expect(matches([{ key: 'metadata.team', value: 'blue' }], ctx)).to.equal(false);
  });

  it('needs all conditions (AND), any value of a list (OR), "*" for any present value, and honours excludes', () => {
    const ctx = request({ keyId: 'k1', endpoint: 'chatComplete', metadata: { team: 'red' } });
    expect(matches([{ key: 'endpoint_type', value: 'chatComplete' }, { key: 'metadata.team', value: 'blue' }], ctx)).to.equal(false);
    expect(matches([{ key: 'metadata.team', value: ['blue', 'red'] }], ctx)).to.equal(true);
    expect(matches([{ key: 'metadata.team', value: '*' }], ctx)).to.equal(true);
    expect(matches([{ key: 'metadata.user', value: '*' }], ctx)).to.equal(false);
    expect(matches([{ key: 'metadata.team', value: '*', excludes: ['red'] }], ctx)).to.equal(false);
    expect(matches([{ key: 'metadata.team', value: '*', excludes: 'green' }], ctx)).to.equal(true);
  });

  it('buckets by the group_by values, URI-encoded; a missing value is the empty bucket', () => {
    const matcher = compileMatcher([{ key: 'api_key', value: '*' }], [{ key: 'api_key' }, { key: 'metadata.user' }]);
    expect(matcher.group(request({ keyId: 'k1', metadata: { user: 'a,b' } }), 'ws')).to.equal('k1,a%2Cb');
    expect(matcher.group(request({ keyId: 'k1' }), 'ws')).to.equal('k1,');
    expect(compileMatcher([{ key: 'api_key', value: '*' }], [{ key: 'workspace_id' }]).group(request({}), 'ws:1')).to.equal('ws%3A1');
  });
});
