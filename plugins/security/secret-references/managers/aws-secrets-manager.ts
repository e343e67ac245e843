/**
 * AWS Secrets Manager `GetSecretValue`: the JSON 1.1 protocol (`POST /`, `X-Amz-Target:
 * secretsmanager.GetSecretValue`, body `{SecretId}`), signed with SigV4 as `secretsmanager`. The
 * answer holds `SecretString`, or `SecretBinary` in base64; errors are `{__type, message}`.
 */
import { compile, signedAwsPost, Type } from '../../../../core/index.js';
import { baseOf, HTTP_URL_PATTERN, isObject, jsonOf, SecretFetchError, type SecretManager } from './manager.js';

/** A region is spliced into the host name: only region-shaped names (no host injection). */
const REGION = '^[a-z]{2}(-[a-z0-9]+)+-\\d+$';

const Config = Type.Object({
  region: Type.String({ pattern: REGION, errorMessage: 'must be an AWS region such as "us-east-1"' }),
  access_key_id: Type.String({ pattern: '^[A-Z0-9]{16,128}$', errorMessage: 'must be an AWS access key id (16 to 128 upper-case letters and digits)' }),
  secret_access_key: Type.String({ minLength: 1, maxLength: 256 }),
  session_token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
  endpoint: Type.Optional(Type.String({ pattern: HTTP_URL_PATTERN, maxLength: 2048, errorMessage: 'must be an http(s) URL (a VPC endpoint, or a test server)' })),
}, { additionalProperties: false });

export const SIGNING_SERVICE = 'secretsmanager';
const TARGET = 'secretsmanager.GetSecretValue';

/** `com.amazonaws.secretsmanager#ResourceNotFoundException` or `ResourceNotFoundException` → the latter. */
function errorType(body: unknown): string | undefined {
  const type = isObject(body) ? body['__type'] : undefined;
  if (typeof type !== 'string') return undefined;
  const name = type.slice(type.lastIndexOf('#') + 1).split(':')[0]!;
  return /^[A-Za-z]{1,100}$/.test(name) ? name : undefined;
}

export const awsSecretsManager: SecretManager = {
  id: 'aws_secrets_manager',
  config: compile(Config),
  secretFields: ['secret_access_key', 'session_token'],
  pathProblem: () => undefined,
  async fetch(config, path, ctx) {
    const region = config['region'] as string;
    const endpoint = typeof config['endpoint'] === 'string' ? baseOf(config['endpoint']) : `https://secretsmanager.${region}.amazonaws.com`;
    const sessionToken = config['session_token'];
    const request = await signedAwsPost({
      url: `${endpoint}/`,
      service: SIGNING_SERVICE,
      region,
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': TARGET, accept: 'application/json' },
      body: JSON.stringify({ SecretId: path }),
      credentials: {
        accessKeyId: config['access_key_id'] as string,
        secretAccessKey: config['secret_access_key'] as string,
        ...(typeof sessionToken === 'string' ? { sessionToken } : {}),
      },
    });
    const reply = await ctx.transport.send(request, ctx.signal);
    const body = await jsonOf(reply);
    if (reply.status !== 200) {
      const type = errorType(body) ?? reply.headers['x-amzn-errortype']?.split(':')[0];
      throw new SecretFetchError(`AWS Secrets Manager answered ${reply.status}${type ? ` ${type}` : ''}`);
    }
    if (!isObject(body)) throw new SecretFetchError('AWS Secrets Manager answered with something that is not JSON');
    if (typeof body['SecretString'] === 'string') return { kind: 'text', value: body['SecretString'] };
    if (typeof body['SecretBinary'] === 'string') return { kind: 'text', value: Buffer.from(body['SecretBinary'], 'base64').toString('utf8') };
    throw new SecretFetchError('AWS Secrets Manager answered without SecretString or SecretBinary');
  },
};
