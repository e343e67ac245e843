/**
 * The guard of Messages streams (EndpointDef.guardStream), the counterpart of core's OpenAI-format
 * guard: chunks pass as they come; a stream is whole when its last event is `message_stop`. A
 * stream that fails, or ends otherwise (cut, even by a clean close), ends with one `error` event in
 * Anthropic's shape, so that no client takes a cut stream for a whole one. A stream whose last
 * event is the provider's own `error` event already says so: nothing is added (onError hears of it).
 */
import { guardEventStream, type EventStreamEnding, type LastEvent } from '../../../core/index.js';
import { fromEnvelope } from './errors.js';

const encoder = new TextEncoder();

/** One Messages event as SSE bytes: `event:` names the type, `data` carries it too (as Anthropic does). */
export function messageEvent(type: string, data: Record<string, unknown>): Uint8Array {
  return encoder.encode(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

const MESSAGES_ENDING: EventStreamEnding = {
  judge(last: LastEvent | undefined) {
    if (last?.type === 'message_stop') return 'whole';
    if (last?.type === 'error' && last.json !== undefined) return { error: last.data };
    return 'cut';
  },
  errorEvent(envelope) {
    const shaped = fromEnvelope(envelope, 502) ?? { type: 'error', error: { type: 'api_error', message: 'the stream failed' } };
    const { type: _type, ...data } = shaped;
    return new TextDecoder().decode(messageEvent('error', data));
  },
};

export function guardMessagesStream(source: AsyncIterable<Uint8Array>, onError: (e: unknown) => unknown): AsyncGenerator<Uint8Array> {
  return guardEventStream(source, onError, MESSAGES_ENDING);
}
