/** A throw-away service account for the tests: a fresh RSA key pair (generated once per run). */
import { generateKeyPairSync } from 'node:crypto';
import { startVertexMock, type VertexMock, type VertexMockOptions } from '../../fixtures/mock-vertex.js';

export const CLIENT_EMAIL = 'gw-test@gw-test-project.iam.gserviceaccount.com';
export const PROJECT_ID = 'gw-test-project';

type KeyPair = { privateKey: string; publicKey: string };
let pair: KeyPair | undefined;
let stranger: KeyPair | undefined;

const generate = (): KeyPair => generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});

/** The test account's keys. */
export function keyPair(): KeyPair {
  return (pair ??= generate());
}

/** Another key, which the mock does not know. */
export function strangerKeyPair(): KeyPair {
  return (stranger ??= generate());
}

/** The key file as Google issues it, its token_uri pointing at the mock. */
export function serviceAccount(tokenUri: string, privateKey = keyPair().privateKey): Record<string, string> {
  return {
    type: 'service_account',
    project_id: PROJECT_ID,
    private_key_id: 'a1b2c3d4e5',
    private_key: privateKey,
    client_email: CLIENT_EMAIL,
    client_id: '100000000000000000001',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: tokenUri,
  };
}

export function startMock(options: VertexMockOptions = {}): Promise<VertexMock> {
  return startVertexMock({ publicKey: keyPair().publicKey, clientEmail: CLIENT_EMAIL, ...options });
}

/** A config routing to the mock with a service account (region us-central1, project from the key file). */
export function vertexConfig(mock: VertexMock, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    provider: 'vertex-ai',
    cloudC_region: 'us-central1',
    cloudC_service_account_json: serviceAccount(mock.tokenUri),
    custom_host: `${mock.url}/v1`,
    ...extra,
  };
}
