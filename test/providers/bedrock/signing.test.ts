/**
 * SigV4: the mock's independent verifier is first checked against AWS's published examples, then the
 * adapter's signed requests must pass it (and fail it with a wrong secret, a changed body, a missing token).
 */
import { expect } from 'chai';
import { encodePathSegment } from '../../../providers/bedrock/adapter.js';
import { signedAwsPost, type AwsSignInput } from '../../../core/index.js';

/** Signed as Bedrock signs (service `bedrock`). */
const signedPost = (input: Omit<AwsSignInput, 'service'>) => signedAwsPost({ ...input, service: 'bedrock' });
import { verifySigV4, type SigV4Request } from '../../fixtures/bedrock-sigv4.js';

const AWS_EXAMPLE = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const ARN = 'arn:aws:bedrock:us-west-2:123456789012:inference-profile/us.anthropic.claude-3-5-haiku-20241022-v1:0';
const AT = new Date(Date.UTC(2025, 0, 15, 10, 30, 0));

/** What the server receives for a request the adapter built. */
function received(url: string, headers: Record<string, string>, body: string): SigV4Request {
  const u = new URL(url);
  return { method: 'POST', url: u.pathname + u.search, headers, body: Buffer.from(body) };
}

describe('bedrock SigV4 signing', () => {
  it('the mock verifier accepts the AWS documentation examples and refuses them altered', () => {
    const post: SigV4Request = {
      method: 'POST',
      url: '/',
      headers: {
        host: 'iam.amazonaws.com',
        'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
        'x-amz-date': '20110909T233600Z',
        authorization: 'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20110909/us-east-1/iam/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=ced6826de92d2bdeed8f846f0bf508e8559e98e4b0199114b84c54174deb456c',
      },
      body: Buffer.from('Action=ListUsers&Version=2010-05-08'),
    };
    const scope2011 = { region: 'us-east-1', service: 'iam', now: Date.UTC(2011, 8, 9, 23, 36) };
    expect(verifySigV4(post, AWS_EXAMPLE, scope2011)).to.equal(undefined);
    expect(verifySigV4({ ...post, body: Buffer.from('Action=ListUsers&Version=2010-05-09') }, AWS_EXAMPLE, scope2011)?.type).to.equal('InvalidSignatureException');
    const get: SigV4Request = {
      method: 'GET',
      url: '/?Action=ListUsers&Version=2010-05-08',
      headers: {
        host: 'iam.amazonaws.com',
        'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
        'x-amz-date': '20150830T123600Z',
        authorization: 'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7',
      },
      body: Buffer.alloc(0),
    };
    const scope2015 = { region: 'us-east-1', service: 'iam', now: Date.UTC(2015, 7, 30, 12, 36) };
    expect(verifySigV4(get, AWS_EXAMPLE, scope2015)).to.equal(undefined);
    expect(verifySigV4({ ...get, url: '/?Action=ListUsers&Version=2010-05-09' }, AWS_EXAMPLE, scope2015)?.message).to.match(/signature we calculated does not match/);
  });

  it('signs the URL-encoded model path and the exact body, for service bedrock in the target region', async () => {
    const url = `https://bedrock-runtime.us-west-2.amazonaws.com/model/${encodePathSegment(ARN)}/converse`;
    expect(url).to.include('/model/arn%3Aaws%3Abedrock%3Aus-west-2%3A123456789012%3Ainference-profile%2Fus.anthropic');
    const body = JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'héllo' }] }] });
    const req = await signedPost({ url, headers: { 'content-type': 'application/json', accept: 'application/json' }, body, region: 'us-west-2', credentials: AWS_EXAMPLE, signingDate: AT });
    expect(req.url).to.equal(url);
    expect(req.body).to.equal(body);
    expect(req.headers['host']).to.equal('bedrock-runtime.us-west-2.amazonaws.com');
    expect(req.headers['x-amz-date']).to.equal('20250115T103000Z');
    expect(req.headers['authorization']).to.match(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20250115\/us-west-2\/bedrock\/aws4_request, SignedHeaders=accept;content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
    expect(req.headers).to.not.have.property('x-amz-security-token');
    const scope = { region: 'us-west-2', service: 'bedrock', now: AT.getTime() };
    expect(verifySigV4(received(url, req.headers, body), AWS_EXAMPLE, scope)).to.equal(undefined);
  });

  it('fails verification with a wrong secret, another region, a changed body or a stale date', async () => {
    const url = 'http://127.0.0.1:9999/model/amazon.nova-lite-v1%3A0/converse';
    const body = '{"messages":[]}';
    const req = await signedPost({ url, headers: { 'content-type': 'application/json' }, body, region: 'us-east-1', credentials: { ...AWS_EXAMPLE, secretAccessKey: 'not-the-secret' }, signingDate: AT });
    expect(req.headers['host']).to.equal('127.0.0.1:9999');
    const scope = { region: 'us-east-1', service: 'bedrock', now: AT.getTime() };
    expect(verifySigV4(received(url, req.headers, body), AWS_EXAMPLE, scope)).to.deep.include({ status: 403, type: 'InvalidSignatureException' });
    const good = await signedPost({ url, headers: { 'content-type': 'application/json' }, body, region: 'us-east-1', credentials: AWS_EXAMPLE, signingDate: AT });
    expect(verifySigV4(received(url, good.headers, body), AWS_EXAMPLE, scope)).to.equal(undefined);
    expect(verifySigV4(received(url, good.headers, body + ' '), AWS_EXAMPLE, scope)?.type).to.equal('InvalidSignatureException');
    expect(verifySigV4(received(url, good.headers, body), AWS_EXAMPLE, { ...scope, region: 'eu-west-1' })?.message).to.match(/valid region/);
    expect(verifySigV4(received(url, good.headers, body), AWS_EXAMPLE, { ...scope, now: AT.getTime() + 6 * 60_000 })?.message).to.match(/Signature expired/);
  });

  it('sends and signs the session token as x-amz-security-token', async () => {
    const url = 'http://127.0.0.1:9999/rerank';
    const body = '{}';
    const credentials = { ...AWS_EXAMPLE, sessionToken: 'FwoGZXIvYXdzEXAMPLETOKEN//session' };
    const req = await signedPost({ url, headers: { 'content-type': 'application/json' }, body, region: 'us-east-1', credentials, signingDate: AT });
    expect(req.headers['x-amz-security-token']).to.equal(credentials.sessionToken);
    expect(req.headers['authorization']).to.include('SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token,');
    const scope = { region: 'us-east-1', service: 'bedrock', now: AT.getTime() };
    expect(verifySigV4(received(url, req.headers, body), credentials, scope)).to.equal(undefined);
    const { 'x-amz-security-token': _token, ...withoutToken } = req.headers;
    expect(verifySigV4(received(url, withoutToken, body), credentials, scope)?.type).to.equal('UnrecognizedClientException');
  });
});
