/** The exact key: what it covers, what it ignores, and that no secret enters it in clear. */
import { expect } from 'chai';
import type { Target } from '../../../../core/index.js';
import { canonicalJson } from '../../../../plugins/cache/common/canonical-json.js';
import { cacheKey, canonicalBody, providerIdentity } from '../../../../plugins/cache/core/key.js';
import { builtinConfigKeys } from '../../../helpers/config-keys.js';

const keys = await builtinConfigKeys();

const target = (fields: Record<string, unknown>): Target => {
  const t = { ...fields };
  Object.defineProperty(t, '$path', { value: 'config', enumerable: false });
  return t as Target;
};
const body = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], temperature: 0.5 };
const keyOf = (b: Record<string, unknown>, t: Target, namespace?: string, endpoint = 'chatComplete') =>
  cacheKey(endpoint, providerIdentity(t, keys), namespace, canonicalBody(b));
const openai = target({ provider: 'openai', api_key: 'sk-secret-value', custom_host: 'http://127.0.0.1:1/v1', cache: { mode: 'simple' } });

describe('cache key', () => {
  it('canonical JSON sorts keys at every level, keeps array order and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: undefined }], c: null } })).to.equal('{"a":{"c":null,"d":[2,{"z":1}]},"b":1}');
    expect(canonicalJson({ b: 1, a: 2 }, new Set(['b']))).to.equal('{"a":2}');
    expect(canonicalJson([undefined, 'x'])).to.equal('[null,"x"]');
  });

  it('is a sha256 hex digest, equal for equal requests whatever their key order', () => {
    const key = keyOf(body, openai);
    expect(key).to.match(/^[0-9a-f]{64}$/);
    expect(keyOf({ temperature: 0.5, messages: body.messages, model: 'gpt-4o-mini' }, openai)).to.equal(key);
  });

  it('ignores stream and stream_options, and nothing but them', () => {
    const key = keyOf(body, openai);
    expect(keyOf({ ...body, stream: true, stream_options: { include_usage: true } }, openai)).to.equal(key);
    expect(keyOf({ ...body, temperature: 0.6 }, openai)).to.not.equal(key);
    expect(keyOf({ ...body, user: 'u1' }, openai)).to.not.equal(key);
  });

  it('covers the endpoint, the namespace and the provider identity', () => {
    const key = keyOf(body, openai);
    expect(keyOf(body, openai, undefined, 'complete')).to.not.equal(key);
    expect(keyOf(body, openai, 'team-a')).to.not.equal(key);
    expect(keyOf(body, openai, 'team-a')).to.not.equal(keyOf(body, openai, 'team-b'));
    expect(keyOf(body, target({ ...openai, api_key: 'sk-other' }))).to.not.equal(key);
    expect(keyOf(body, target({ ...openai, custom_host: 'http://127.0.0.1:2/v1' }))).to.not.equal(key);
    expect(keyOf(body, target({ ...openai, provider: 'groq' }))).to.not.equal(key);
    expect(keyOf(body, target({ ...openai, cloudA_region: 'eu-west-1' }))).to.not.equal(key);
  });

  it('identity holds credentials only as digests, and settings that are not the provider not at all', () => {
    const identity = providerIdentity(target({
      ...openai, Authorization: 'Bearer sk-auth-secret', cloudA_secret_access_key: 'aws-secret', cloudC_service_account_json: { private_key: 'pk' },
      retry: { attempts: 2 }, request_timeout: 100, name: 'primary',
    }), keys);
    for (const secret of ['sk-secret-value', 'sk-auth-secret', 'aws-secret', 'private_key']) expect(identity).to.not.include(secret);
    expect(identity).to.include('"provider":"openai"').and.include('"custom_host":"http://127.0.0.1:1/v1"').and.include('"api_key":"sha256:');
    expect(identity).to.not.include('retry').and.not.include('cache').and.not.include('primary');
  });
});
