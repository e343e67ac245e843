/**
 * AWS Signature Version 4 with the maintained Smithy signer, for every AWS service the gateway
 * calls (Bedrock, Secrets Manager ...): the service name is the caller's. It signs the exact bytes
 * sent and the path as it goes on the wire (already URL-encoded; the signer encodes that path once
 * more for the canonical request, as every AWS service but S3 expects).
 */
import { lazy } from '../lazy.js';
import type { UpstreamRequest } from '../types.js';

/** Imported on the first signature: only gateways calling AWS need it. */
const smithy = lazy(async () => {
  const [{ Sha256 }, { SignatureV4 }] = await Promise.all([import('@aws-crypto/sha256-js'), import('@smithy/signature-v4')]);
  return { Sha256, SignatureV4 };
});

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface AwsSignInput {
  url: string;
  /** Headers to send and sign (lower-case names); `host` is added from the URL. */
  headers: Record<string, string>;
  body: string;
  region: string;
  /** The signing name of the service (`bedrock`, `secretsmanager` ...). */
  service: string;
  credentials: AwsCredentials;
  /** For tests: the signing time (default now). */
  signingDate?: Date;
}

/** A signed POST ready for the transport: `authorization`, `x-amz-date`, `x-amz-content-sha256` (+ token) set. */
export async function signedAwsPost(input: AwsSignInput): Promise<UpstreamRequest> {
  const url = new URL(input.url);
  const { Sha256, SignatureV4 } = smithy.loaded ?? await smithy();
  const signer = new SignatureV4({ service: input.service, region: input.region, credentials: input.credentials, sha256: Sha256 });
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port ? { port: Number(url.port) } : {}),
      path: url.pathname,
      query: {},
      // The host header is signed, so it is sent explicitly with the same value.
      headers: { ...input.headers, host: url.host },
      body: input.body,
    },
    input.signingDate ? { signingDate: input.signingDate } : undefined,
  );
  return { url: input.url, method: 'POST', headers: signed.headers as Record<string, string>, body: input.body };
}
