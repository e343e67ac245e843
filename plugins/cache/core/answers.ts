/**
 * Answers in and out of the cache: a hit's response (the stored JSON as is, or its SSE replay for a
 * streamed request) and the capture of a miss's 200 answer for storing (JSON bytes as the provider
 * sent them; a stream recorded as it passes and turned into the equivalent non-stream answer).
 */
import {
  JsonPayload, parseSse, SSE_HEADERS,
  type Attempt, type GatewayResponse, type SseEvent,
} from '../../../core/index.js';
import { assembleAnswer } from './assemble.js';
import type { Entry } from './entry.js';
import { recordStream } from './recorder.js';
import { replayAsSse } from './replay.js';
import type { PendingWrite } from './state.js';

export function jsonResponse(entry: Entry): GatewayResponse {
  return { status: 200, headers: { 'content-type': 'application/json' }, json: JsonPayload.fromBytes(entry.body) };
}

export function replayResponse(entry: Entry, attempt: Attempt): GatewayResponse | undefined {
  const answer = JsonPayload.fromBytes(entry.body).tryValue();
  const options = attempt.body['stream_options'] as Record<string, unknown> | null | undefined;
  const sse = replayAsSse(answer, options?.['include_usage'] === true);
  if (!sse) return undefined;
  return { status: 200, headers: { ...SSE_HEADERS }, stream: once(sse) };
}

/** A whole body as a one-chunk stream. */
async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** Keeps a 200 answer aside: JSON as the provider sent it; a stream recorded as it passes. */
export function capture(response: GatewayResponse, maxBytes: number): PendingWrite['answer'] | undefined {
  if (response.json) {
    // The provider's bytes now: an output guardrail may rewrite the payload later, but the cache
    // stores what the provider said (and runs the guardrails again on every hit).
    const bytes = response.json.bytes();
    const size = typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.byteLength;
    return size > maxBytes ? undefined : () => Promise.resolve(bytes);
  }
  if (response.stream) {
    const recording = recordStream(response.stream, maxBytes);
    response.stream = recording.stream;
    return async () => {
      const bytes = recording.bytes();
      if (!bytes) return undefined;
      const answer = assembleAnswer(await collect(parseSse(once(bytes))));
      return answer ? JSON.stringify(answer) : undefined;
    };
  }
  return undefined;
}

async function collect(events: AsyncIterable<SseEvent>): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}
