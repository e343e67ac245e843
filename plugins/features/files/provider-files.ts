/**
 * Talking to a provider's OpenAI-compatible files API through the shared transport: which provider
 * a config names, its credentials, multipart bodies built around a stored file, and provider errors
 * turned into our envelope (status and message kept, `provider` set).
 */
import { randomBytes } from 'node:crypto';
import {
  baseUrlOf, Errors, isGatewayError, providerErrorFromBody, type ConfigNode, type ProviderApi, type Transport, type UpstreamReply, type UpstreamRequest,
} from '../../../core/index.js';
import { withOpenAICredentials } from '../../../providers/openai/credentials.js';

/**
 * The provider API a config names: a single provider (no targets) listed in `bases`, at its
 * `custom_host` when set. Strategies and providers without such an API are answered by the gateway.
 */
export function providerApiOf(config: ConfigNode, bases: Readonly<Record<string, string>>): ProviderApi | undefined {
  if (config.targets && config.targets.length > 0) return undefined;
  const provider = config.provider;
  if (typeof provider !== 'string' || !Object.hasOwn(bases, provider)) return undefined;
  return { provider, baseUrl: baseUrlOf(config, bases[provider]!), headers: withOpenAICredentials(config, {}) };
}

/** Sends one request to the provider; network failures become 502, provider errors keep their status. */
export async function sendToProvider(
  transport: Transport, api: ProviderApi, request: UpstreamRequest, signal: AbortSignal,
): Promise<UpstreamReply> {
  let reply: UpstreamReply;
  try {
    reply = await transport.send(request, signal);
  } catch (e) {
    if (signal.aborted) throw signal.reason ?? e;
    // The outbound policy refused the host, or the upload failed on the client's side: that error, not a 502.
    if (isGatewayError(e)) throw e;
    throw Errors.badGateway(`provider ${api.provider} is unreachable: ${networkReason(e)}`, api.provider);
  }
  if (reply.status >= 400) {
    const body = await reply.bytes().catch(() => new Uint8Array(0));
    throw providerErrorFromBody(reply.status, body, api.provider);
  }
  return reply;
}

/** Sends and parses a JSON answer; an answer that is not JSON is a 502. */
export async function providerJson(
  transport: Transport, api: ProviderApi, request: UpstreamRequest, signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const reply = await sendToProvider(transport, api, request, signal);
  const text = await reply.text();
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    /* reported below */
  }
  throw Errors.badGateway(`provider ${api.provider} answered ${request.method} ${new URL(request.url).pathname} with something that is not a JSON object`, api.provider);
}

/** A multipart/form-data body of text fields and one file, with its exact length. */
export function multipartBody(
  fields: ReadonlyArray<readonly [string, string]>,
  file: { field: string; filename: string; bytes: number; body: AsyncIterable<Uint8Array> },
): { contentType: string; length: number; body: AsyncIterable<Uint8Array> } {
  const boundary = `----gw${randomBytes(16).toString('hex')}`;
  let head = '';
  for (const [name, value] of fields) {
    head += `--${boundary}\r\ncontent-disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`;
  }
  head += `--${boundary}\r\ncontent-disposition: form-data; name="${quote(file.field)}"; filename="${quote(file.filename)}"\r\n`
    + 'content-type: application/octet-stream\r\n\r\n';
  const headBytes = Buffer.from(head, 'utf8');
  const tailBytes = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
  async function* body() {
    yield headBytes;
    yield* file.body;
    yield tailBytes;
  }
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: headBytes.byteLength + file.bytes + tailBytes.byteLength,
    body: body(),
  };
}

/** Quotes a header parameter: no quotes, backslashes or line breaks survive. */
function quote(value: string): string {
  return value.replace(/["\\\r\n]/g, '_');
}

function networkReason(e: unknown): string {
  const err = e as { code?: string; cause?: { code?: string } };
  return err?.code ?? err?.cause?.code ?? 'network error';
}
