/**
 * The guard of image and audio event streams (EndpointDef.guardStream): image generation and edits
 * with `partial_images` (`image_generation.partial_image` ... `image_generation.completed`),
 * transcriptions with `stream: true` (`transcript.text.delta` ... `transcript.text.done`), speech
 * with `stream_format: "sse"` (`speech.audio.delta` ... `speech.audio.done`). These streams end with
 * their `*.completed` / `*.done` event (or `[DONE]`): such a stream is whole; a failed or cut one
 * ends with one `data: {"error":...}` event, as the gateway's other streams do (core's guardEventStream).
 */
import { guardEventStream, type EventStreamEnding, type LastEvent } from '../../../core/index.js';

const MEDIA_ENDING: EventStreamEnding = {
  judge(last: LastEvent | undefined) {
    if (!last) return 'cut';
    if (last.data.trim() === '[DONE]') return 'whole';
    if (last.json === undefined) return 'cut';
    const event = last.json as { type?: unknown; error?: unknown } | null;
    // The `event:` line names the type; a data `type` of "error" counts even under another name.
    if (last.type === 'error' || event?.type === 'error' || (typeof event?.error === 'object' && event.error !== null)) return { error: last.data };
    return last.type !== undefined && /\.(completed|done)$/.test(last.type) ? 'whole' : 'cut';
  },
  errorEvent: (envelope) => `data: ${JSON.stringify(envelope)}\n\n`,
};

export function guardMediaStream(source: AsyncIterable<Uint8Array>, onError: (e: unknown) => unknown): AsyncGenerator<Uint8Array> {
  return guardEventStream(source, onError, MEDIA_ENDING);
}
