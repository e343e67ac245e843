/**
 * A provider's own Responses event stream, passed on event by event. The lifecycle events that carry
 * the Response object (response.created / in_progress / completed / failed / incomplete) are read so
 * that the final object can be stored, and get `output_text` and (when the gateway expanded the
 * chain itself) `previous_response_id` set as on a JSON answer; every other event passes as it came.
 * A stream that breaks, or ends without a final event, ends with an `error` event and is stored failed.
 */
import { parseSse, type SseEvent } from '../../../core/index.js';
import { failedResponse, outputText, type ResponseObject } from './response-object.js';
import { CLIENT_GONE } from './stream-translate.js';

const encoder = new TextEncoder();
const LIFECYCLE = new Set(['response.created', 'response.in_progress', 'response.completed', 'response.failed', 'response.incomplete']);
const FINAL = new Set(['response.completed', 'response.failed', 'response.incomplete']);

export interface NativeStreamOptions {
  /** Set on every Response object of the stream (the chain the gateway expanded), when defined. */
  previousResponseId?: string;
  /** What is stored when the stream never told its own Response object. */
  fallback: ResponseObject;
  provider: string;
}

export async function* passNativeStream(
  body: AsyncIterable<Uint8Array>, options: NativeStreamOptions, finish: (final: ResponseObject) => Promise<void>,
): AsyncGenerator<Uint8Array> {
  let latest: ResponseObject | undefined;
  let final: ResponseObject | undefined;
  let failure: string | undefined;
  let finished = false;
  try {
    try {
      for await (const event of parseSse(body)) {
        const response = lifecycleResponse(event);
        if (!response) {
          yield encoder.encode(`${event.event ? `event: ${event.event}\n` : ''}data: ${event.data}\n\n`);
          continue;
        }
        const { type, data } = response;
        const object = data['response'] as ResponseObject;
        object.output_text = outputText(object.output ?? []);
        if (options.previousResponseId !== undefined) object.previous_response_id = options.previousResponseId;
        latest = object;
        if (FINAL.has(type)) final = object;
        yield encoder.encode(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
      }
    } catch (e) {
      failure = `provider ${options.provider} stream failed: ${(e as Error).message ?? String(e)}`;
    }
    if (!final && failure === undefined) failure = `provider ${options.provider} stream ended before its final event`;
    const stored = final ?? failedResponse(latest ?? options.fallback, { code: 'stream_failed', message: failure! });
    finished = true;
    await finish(stored);
    if (!final) yield encoder.encode(`event: error\ndata: ${JSON.stringify({ type: 'error', code: 'stream_failed', message: failure, param: null })}\n\n`);
  } finally {
    if (!finished) await finish(failedResponse(latest ?? options.fallback, { code: 'client_closed', message: CLIENT_GONE }));
  }
}

function lifecycleResponse(event: SseEvent): { type: string; data: Record<string, unknown> } | undefined {
  if (event.event !== undefined && !LIFECYCLE.has(event.event)) return undefined;
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(event.data) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const type = event.event ?? (typeof data['type'] === 'string' ? data['type'] : '');
  if (!LIFECYCLE.has(type) || data['response'] === null || typeof data['response'] !== 'object') return undefined;
  return { type, data };
}
