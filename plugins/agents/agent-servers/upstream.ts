/**
 * One call to an agent through the shared transport (so the outbound host rules apply): bounded
 * in time until the answer's headers arrive (a stream may then run as long as the agent sends),
 * cancelled when the client goes away, and every network failure named as the agent's (502).
 */
import { Errors, GatewayError, isGatewayError, type Transport, type UpstreamReply, type UpstreamRequest } from '../../../core/index.js';

export interface UpstreamCall {
  reply: UpstreamReply;
  /** Ends the time limit (a stream runs on) and the link to the client's signal. */
  settle(): void;
}

export async function callAgent(
  transport: Transport, request: UpstreamRequest, clientSignal: AbortSignal, timeoutMs: number, slug: string,
): Promise<UpstreamCall> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('time-out'));
  }, timeoutMs);
  const onClientGone = () => controller.abort(clientSignal.reason);
  clientSignal.addEventListener('abort', onClientGone, { once: true });
  const settle = () => {
    clearTimeout(timer);
    clientSignal.removeEventListener('abort', onClientGone);
  };
  try {
    const reply = await transport.send(request, controller.signal);
    return { reply, settle };
  } catch (e) {
    settle();
    if (timedOut) throw timeoutError(slug, timeoutMs);
    if (clientSignal.aborted) throw Errors.clientClosed();
    if (isGatewayError(e)) throw e; // the outbound host rules refused the host: their own message
    throw Errors.badGateway(`agent server "${slug}" is unreachable: ${(e as Error).message}`, slug);
  }
}

export function timeoutError(slug: string, ms: number): GatewayError {
  return new GatewayError({ status: 408, code: 'request_timeout', provider: slug, message: `agent server "${slug}" did not answer within ${ms} ms (option requestTimeoutMs)` });
}

/** The whole body, or a 502 when it is longer than `limit` (an agent answer is small; a runaway one is not kept). */
export async function readLimited(reply: UpstreamReply, limit: number, slug: string): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of reply.body) {
      size += chunk.length;
      if (size > limit) throw Errors.badGateway(`agent server "${slug}" answered more than ${limit} bytes`, slug);
      chunks.push(chunk);
    }
  } catch (e) {
    if (isGatewayError(e)) throw e;
    throw Errors.badGateway(`agent server "${slug}" broke off its answer: ${(e as Error).message}`, slug);
  }
  return Buffer.concat(chunks, size);
}

/** The media type of a content-type header, lower-case, without parameters. */
export function mediaType(headers: Record<string, string>): string {
  return (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}
