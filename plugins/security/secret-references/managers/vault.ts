/**
 * HashiCorp Vault, KV secrets engine version 2: `GET {address}/v1/{mount}/data/{path}` with the
 * token in `X-Vault-Token` (and `X-Vault-Namespace` on Vault Enterprise / HCP). The answer's
 * `data.data` is the secret's key/value map; `data.metadata` describes the version.
 */
import { compile, Type } from '../../../../core/index.js';
import { baseOf, HTTP_URL_PATTERN, isObject, jsonOf, SecretFetchError, type SecretManager } from './manager.js';

// Path segments of a mount or a secret: no empty, `.` or `..` segment can change what is read.
const SEGMENTS = /^(?!.*\/\/)(?!.*(?:^|\/)\.{1,2}(?:\/|$))[^\s/?#%][^\s?#%]*$/;

const Config = Type.Object({
  address: Type.String({ pattern: HTTP_URL_PATTERN, maxLength: 2048, errorMessage: 'must be the http(s) URL of the Vault server, e.g. https://vault.internal:8200' }),
  token: Type.String({ minLength: 1, maxLength: 4096 }),
  mount: Type.Optional(Type.String({ minLength: 1, maxLength: 256, pattern: SEGMENTS.source, errorMessage: 'must be the path of a KV v2 mount, e.g. "secret" or "team/kv"' })),
  namespace: Type.Optional(Type.String({ minLength: 1, maxLength: 256, pattern: '^[A-Za-z0-9_./-]+$', errorMessage: 'must be a Vault namespace path, e.g. "admin/team"' })),
}, { additionalProperties: false });

const encodePath = (path: string) => path.replace(/^\/+|\/+$/g, '').split('/').map(encodeURIComponent).join('/');

export const vault: SecretManager = {
  id: 'vault',
  config: compile(Config),
  secretFields: ['token'],
  pathProblem: (path) => (SEGMENTS.test(path.replace(/^\/+|\/+$/g, '')) ? undefined : 'must be a path inside the mount (segments without spaces, "?", "#", "%", "." or "..")'),
  async fetch(config, path, ctx) {
    const mount = typeof config['mount'] === 'string' ? config['mount'] : 'secret';
    const url = `${baseOf(config['address'] as string)}/v1/${encodePath(mount)}/data/${encodePath(path)}`;
    const headers: Record<string, string> = { 'x-vault-token': config['token'] as string, accept: 'application/json' };
    if (typeof config['namespace'] === 'string') headers['x-vault-namespace'] = config['namespace'];
    const reply = await ctx.transport.send({ url, method: 'GET', headers }, ctx.signal);
    if (reply.status !== 200) {
      await reply.dump().catch(() => undefined);
      if (reply.status === 403) throw new SecretFetchError('Vault refused the token (403 permission denied): check the token and its policy');
      if (reply.status === 404) throw new SecretFetchError(`Vault holds no secret at ${mount}/${path} (404; deleted, or not a KV v2 mount)`);
      throw new SecretFetchError(`Vault answered ${reply.status}`);
    }
    const body = await jsonOf(reply);
    const data = isObject(body) && isObject(body['data']) ? body['data']['data'] : undefined;
    if (!isObject(data)) throw new SecretFetchError('Vault answered without data.data (is the mount KV version 2?)');
    return { kind: 'map', value: data };
  },
};
