/**
 * Forwarding to a provider with a native Responses API (`{base}/responses`, OpenAI format) through
 * the shared transport. Native forwarding applies when the config is one provider (direct headers,
 * or a config without targets) listed in the plugin's `nativeProviders`; a strategy tree always
 * goes through the chat pipeline so that fallback, load balancing and conditions apply.
 *
 * Time-out: `request_timeout` (or the plugin's `timeoutMs`) bounds a JSON answer as a whole and a
 * stream up to its headers (408). Unreachable provider or a body that is not its protocol: 502.
 */
import {
  baseUrlOf, compile, Errors, GatewayError, parseJsonBytes, providerErrorFromBody, StringEnum, Type,
  type ConfigNode, type RequestContext, type Transport,
} from '../../../core/index.js';
import { RESPONSE_STATUSES } from './schemas.js';
import { withOpenAICredentials } from '../../../providers/openai/credentials.js';

export interface NativeTarget {
  provider: string;
  baseUrl: string;
  target: ConfigNode;
}

export type NativeAnswer =
  | { kind: 'json'; value: Record<string, unknown>; headers: Record<string, string> }
  | { kind: 'stream'; body: AsyncIterable<Uint8Array>; headers: Record<string, string> };

const ResponseShape = compile(Type.Object({
  id: Type.String({ minLength: 1 }),
  object: Type.Literal('response'),
  created_at: Type.Integer(),
  status: StringEnum([...RESPONSE_STATUSES]),
  output: Type.Array(Type.Object({ type: Type.String() })),
}));

export function nativeTarget(config: ConfigNode, bases: Readonly<Record<string, string>>): NativeTarget | undefined {
  if (config.targets && config.targets.length > 0) return undefined;
  const provider = config.provider;
  if (typeof provider !== 'string' || !Object.hasOwn(bases, provider)) return undefined;
  return { provider, target: config, baseUrl: baseUrlOf(config, bases[provider]!) };
}

export async function sendNative(
  transport: Transport, ctx: RequestContext, to: NativeTarget, body: Record<string, unknown>, defaultTimeoutMs: number,
): Promise<NativeAnswer> {
  const configured = to.target.request_timeout;
  const timeoutMs = typeof configured === 'number' && configured > 0 ? configured : defaultTimeoutMs;
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), timeoutMs);
  const signal = AbortSignal.any([ctx.request.signal, timer.signal]);
  const provider = to.provider;
  const stream = body['stream'] === true;
  try {
    const reply = await transport.send({ url: `${to.baseUrl}/responses`, method: 'POST', headers: headers(to.target, stream), body: JSON.stringify(body) }, signal);
    const contentType = reply.headers['content-type'] ?? '';
    if (reply.status < 400 && stream && contentType.includes('text/event-stream')) {
      clearTimeout(timeout);
      return { kind: 'stream', body: reply.body, headers: reply.headers };
    }
    const bytes = await reply.bytes();
    if (reply.status >= 400) throw providerErrorFromBody(reply.status, bytes, provider);
    const value = contentType.includes('json') ? parseJsonBytes(bytes) : undefined;
    if (stream || value === undefined) throw Errors.badGateway(`provider ${provider} answered with ${contentType || 'no content-type'}, not ${stream ? 'an event stream' : 'JSON'}`, provider);
    const issue = checkResponse(value);
    if (issue) throw Errors.badGateway(`provider ${provider} answered with a response object that does not fit spec §2.2: ${issue}`, provider);
    return { kind: 'json', value: value as Record<string, unknown>, headers: reply.headers };
  } catch (e) {
    if (e instanceof GatewayError) throw e;
    if (ctx.request.signal.aborted) throw Errors.clientClosed();
    if (timer.signal.aborted) throw Errors.timeout(timeoutMs, provider);
    throw Errors.badGateway(`provider ${provider} is unreachable: ${(e as Error).message ?? String(e)}`, provider);
  } finally {
    clearTimeout(timeout);
  }
}

/** "path: rule" of the first misfit of a provider's Response object, or undefined. */
export function checkResponse(value: unknown): string | undefined {
  if (ResponseShape.check(value)) return undefined;
  const issue = ResponseShape.issues(value, 1)[0]!;
  return `${issue.path || '(root)'}: ${issue.rule}`;
}

function headers(target: ConfigNode, stream: boolean): Record<string, string> {
  return withOpenAICredentials(target, { 'content-type': 'application/json', accept: stream ? 'text/event-stream' : 'application/json' });
}
