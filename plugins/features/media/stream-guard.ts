/**
 * The guard of image and audio event streams (EndpointDef.guardStream): image generation and edits
 * with `partial_images` (`image_generation.partial_image` ... `image_generation.completed`),
 * transcriptions with `stream: true` (`transcript.text.delta` ... `transcript.text.done`), speech
 * with `stream_format: "sse"` (`speech.audio.delta` ... `speech.audio.done`). These streams end with
 * their `*.completed` / `*.done` event, not with `[DONE]`: such a stream is whole; a failed or cut
 * one ends with one `data: {"error":...}` event, as the gateway's other streams do. A stream whose
 * last event is the provider's own error already says so: nothing is added (onError hears of it).
 */
import { StreamCutError, StreamErrorEvent } from '../../../core/index.js';

const encoder = new TextEncoder();
/** The stream's last characters kept to read its last event (an image event is large: keep its end only). */
const TAIL_CHARS = 64 * 1024;

export async function* guardMediaStream(
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
  if (ending === 'whole') return;
  if (ending !== 'cut') {
    onError(new StreamErrorEvent(ending.error));
    return;
  }
  yield errorEvent(tail, onError(new StreamCutError()));
}

function errorEvent(tail: string, envelope: unknown): Uint8Array {
  const separator = tail === '' || tail.endsWith('\n\n') ? '' : tail.endsWith('\n') ? '\n' : '\n\n';
  return encoder.encode(`${separator}data: ${JSON.stringify(envelope)}\n\n`);
}

/** Whether the last event ends a stream (`*.completed`, `*.done`, `[DONE]`), is an error, or neither. */
function lastEvent(tail: string): 'whole' | 'cut' | { error: string } {
  if (!tail.endsWith('\n\n')) return 'cut'; // the last event is unfinished
  const text = tail.trimEnd();
  const block = text.slice(text.lastIndexOf('\n\n') + 1);
  let type: string | undefined;
  let data = '';
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) type = line.slice(6).trim();
    else if (line.startsWith('data:')) data += (data ? '\n' : '') + line.slice(line.startsWith('data: ') ? 6 : 5);
  }
  if (data.trim() === '[DONE]') return 'whole';
  let parsed: { type?: unknown; error?: unknown } | null;
  try {
    parsed = JSON.parse(data) as typeof parsed;
  } catch {
    return 'cut';
  }
  if (type === 'error' || (typeof parsed?.error === 'object' && parsed.error !== null) || parsed?.type === 'error') return { error: data };
  type = typeof parsed?.type === 'string' ? parsed.type : type;
  return type !== undefined && /\.(completed|done)$/.test(type) ? 'whole' : 'cut';
}
