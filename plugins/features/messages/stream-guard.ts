/**
 * The guard of Messages streams (EndpointDef.guardStream), the counterpart of core's OpenAI-format
 * guard: chunks pass as they come; a stream is whole when its last event is `message_stop`. A
 * stream that fails, or ends otherwise (cut, even by a clean close), ends with one `error` event in
 * Anthropic's shape, so that no client takes a cut stream for a whole one. A stream whose last
 * event is the provider's own `error` event already says so: nothing is added (onError hears of it).
 */
import { StreamCutError, StreamErrorEvent } from '../../../core/index.js';
import { fromEnvelope } from './errors.js';

const encoder = new TextEncoder();
/** The stream's last characters kept to read its last event (an error event's message included). */
const TAIL_CHARS = 64 * 1024;

/** One Messages event as SSE bytes: `event:` names the type, `data` carries it too (as Anthropic does). */
export function messageEvent(type: string, data: Record<string, unknown>): Uint8Array {
  return encoder.encode(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

export async function* guardMessagesStream(
  source: AsyncIterable<Uint8Array>, onError: (e: unknown) => unknown,
): AsyncGenerator<Uint8Array> {
  const decoder = new TextDecoder();
  let tail = '';
  try {
    for await (const chunk of source) {
      if (chunk.byteLength === 0) continue;
      tail += decoder.decode(chunk, { stream: true });
      if (tail.length > 2 * TAIL_CHARS) tail = tail.slice(-TAIL_CHARS);
      yield chunk;
    }
  } catch (e) {
    yield errorEvent(tail, onError(e));
    return;
  }
  tail = (tail + decoder.decode()).replace(/\r\n?/g, '\n');
  const ending = lastEvent(tail);
  if (ending.type === 'message_stop') return;
  if (ending.type === 'error') {
    onError(new StreamErrorEvent(ending.data));
    return;
  }
  yield errorEvent(tail, onError(new StreamCutError()));
}

function errorEvent(tail: string, envelope: unknown): Uint8Array {
  const shaped = fromEnvelope(envelope, 502) ?? { type: 'error', error: { type: 'api_error', message: 'the stream failed' } };
  const { type: _type, ...data } = shaped;
  // Close the event the stream stopped in, so that the error event is read as one of its own.
  const separator = tail === '' || tail.endsWith('\n\n') ? '' : tail.endsWith('\n') ? '\n' : '\n\n';
  return encoder.encode(separator + new TextDecoder().decode(messageEvent('error', data)));
}

/** The type and data of the stream's last event (from its `event:` line, else its data's `type`). */
function lastEvent(tail: string): { type: string | undefined; data: string } {
  const text = tail.trimEnd();
  const block = text.slice(text.lastIndexOf('\n\n') + 1);
  let type: string | undefined;
  let data = '';
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) type = line.slice(6).trim();
    else if (line.startsWith('data:')) data += (data ? '\n' : '') + line.slice(line.startsWith('data: ') ? 6 : 5);
  }
  try {
    const parsed = JSON.parse(data) as { type?: unknown } | null;
    if (type === undefined && typeof parsed?.type === 'string') type = parsed.type;
  } catch {
    return { type: undefined, data }; // an event cut in its data: the stream was cut
  }
  return { type, data };
}
