/**
 * Google Cloud Secret Manager: `GET {endpoint}/v1/projects/{project}/secrets/{secret}/versions/latest:access`
 * with a service account's access token (`Authorization: Bearer`; the signed-JWT exchange at the
 * account's token_uri is core's, shared with Vertex AI). The answer is
 * `{name, payload: {data: base64, dataCrc32c}}`; errors are `{error: {code, message, status}}`.
 */
import { createPrivateKey } from 'node:crypto';
import { compile, GatewayError, Type, type ServiceAccount } from '../../../../core/index.js';
import { crc32c } from './crc32c.js';
import { baseOf, HTTP_URL_PATTERN, isObject, jsonOf, SecretFetchError, type SecretManager } from './manager.js';

export const DEFAULT_ENDPOINT = 'https://secretmanager.googleapis.com';

const ServiceAccountJson = Type.Object({
  client_email: Type.String({ minLength: 3, maxLength: 320 }),
  private_key: Type.String({ minLength: 1, maxLength: 16_384, pattern: 'PRIVATE KEY-----', errorMessage: 'must be a PEM private key' }),
  private_key_id: Type.Optional(Type.String({ maxLength: 256 })),
  token_uri: Type.Optional(Type.String({ pattern: HTTP_URL_PATTERN, maxLength: 2048, errorMessage: 'must be an http(s) URL' })),
}, { errorMessage: 'must be a Google service-account key object (client_email, private_key ...)' });

const Config = Type.Object({
  project_id: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9.:_-]{0,127}$', errorMessage: 'must be a Google Cloud project id or number' }),
  service_account_json: ServiceAccountJson,
  endpoint: Type.Optional(Type.String({ pattern: HTTP_URL_PATTERN, maxLength: 2048, errorMessage: 'must be an http(s) URL (a private endpoint, or a test server)' })),
}, { additionalProperties: false });

/** A secret id, optionally with its version: `db-password`, `db-password/versions/3`, `.../versions/latest`. */
const SECRET = /^[A-Za-z0-9_-]{1,255}(?:\/versions\/(?:latest|[1-9][0-9]{0,18}))?$/;

export const gcpSecretManager: SecretManager = {
  id: 'gcp_secret_manager',
  config: compile(Config),
  secretFields: ['service_account_json'],
  pathProblem: (path) => (SECRET.test(path) ? undefined : 'must be a secret id (letters, digits, _ or -), optionally followed by /versions/<number or latest>'),
  configProblem(config) {
    const sa = config['service_account_json'] as ServiceAccount;
    try {
      createPrivateKey(sa.private_key);
    } catch {
      return { field: 'service_account_json.private_key', rule: 'is not a usable private key (PEM)' };
    }
    return undefined;
  },
  async fetch(config, path, ctx) {
    const sa = config['service_account_json'] as ServiceAccount;
    let token: string;
    try {
      token = await ctx.tokens.token(sa, ctx.signal);
    } catch (e) {
      // The exchange's own message names the token endpoint's verdict, never the key.
      if (e instanceof GatewayError && e.code !== 'outbound_host_denied') throw new SecretFetchError(e.message.replace(/^[^:]*: /, ''));
      throw e;
    }
    const endpoint = typeof config['endpoint'] === 'string' ? baseOf(config['endpoint']) : DEFAULT_ENDPOINT;
    const name = `projects/${config['project_id'] as string}/secrets/${path.includes('/versions/') ? path : `${path}/versions/latest`}`;
    const reply = await ctx.transport.send(
      { url: `${endpoint}/v1/${name}:access`, method: 'GET', headers: { authorization: `Bearer ${token}`, accept: 'application/json' } },
      ctx.signal,
    );
    const body = await jsonOf(reply);
    if (reply.status !== 200) {
      const error = isObject(body) && isObject(body['error']) ? body['error'] : undefined;
      const status = typeof error?.['status'] === 'string' && /^[A-Z_]{1,64}$/.test(error['status']) ? ` ${error['status']}` : '';
      throw new SecretFetchError(`Secret Manager answered ${reply.status}${status}`);
    }
    const payload = isObject(body) && isObject(body['payload']) ? body['payload'] : undefined;
    if (typeof payload?.['data'] !== 'string') throw new SecretFetchError('Secret Manager answered without payload.data');
    const bytes = Buffer.from(payload['data'], 'base64');
    const sum = payload['dataCrc32c'];
    // int64 fields are JSON strings in Google's REST mapping; a number is accepted too.
    if ((typeof sum === 'string' || typeof sum === 'number') && String(crc32c(bytes)) !== String(sum)) {
      throw new SecretFetchError('Secret Manager\'s payload failed its CRC32C check (damaged in transit)');
    }
    return { kind: 'text', value: bytes.toString('utf8') };
  },
};
