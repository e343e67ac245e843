/**
 * Reading a request body. However the client fails to send it, the reader fails with a
 * GatewayError: 499 when the client went away, or the error the host destroyed the request
 * with (408 when it was too slow, 400 when it was malformed); never a bare stream error, which
 * the kernel would log as unexpected and answer as a 500.
 */
import type { IncomingMessage } from 'node:http';
import { Errors, isGatewayError, type GatewayError } from '../core/index.js';

/** Why a body could not be read: the host's own error, else the client went away. */
export function bodyFailure(error: unknown): GatewayError {
  return isGatewayError(error) ? error : Errors.clientClosed();
}

/** The body, bounded by `limit` (413 beyond it). Listeners, not an async iterator: cheaper per request. */
export function readNodeBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(Errors.payloadTooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (error?: unknown) => {
      req.off('data', onData).off('end', onEnd).off('error', done).off('close', onClose);
      if (error === undefined) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
      else reject(bodyFailure(error));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause(); // the 413 goes out with `connection: close`; the rest is never read
        done(Errors.payloadTooLarge(limit));
      } else chunks.push(chunk);
    };
    const onEnd = () => done();
    const onClose = () => done(req.errored ?? Errors.clientClosed());
    req.on('data', onData).on('end', onEnd).on('error', done).on('close', onClose);
  });
}

/** A body read whole through the Fetch API; the same failures as readNodeBody. */
export async function readWebBody(body: AsyncIterable<Uint8Array>, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += chunk.byteLength;
      if (size > limit) throw Errors.payloadTooLarge(limit);
      chunks.push(chunk);
    }
  } catch (e) {
    throw bodyFailure(e);
  }
  return Buffer.concat(chunks, size);
}

/** A body handed on as a stream (uploads), failing with the same errors as a body read whole. */
export async function* streamedBody(body: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of body) yield chunk;
  } catch (e) {
    throw bodyFailure(e);
  }
}
