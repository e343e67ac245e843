/**
 * What a request's log needs that the finished response no longer shows: time spent waiting for
 * providers, the model actually sent upstream, the usage of the provider's JSON answer (read as it
 * comes back: a guardrail may deny or rewrite the answer, the tokens were spent all the same), and
 * (for streams) the last chunks, where the usage chunk is, plus the streamed body when bodies are
 * recorded. Kept in `ctx.values` under `CaptureKey`.
 */
import { requestKey, type AttemptRunner, type Outcome, type RequestContext } from '../../../core/index.js';
import { usageFromPayload, type Usage } from './usage.js';

export const CaptureKey = requestKey<Capture>('logs.capture');

/** How many trailing chunks a stream keeps: the usage event, `[DONE]`, and one spare for a split event. */
const TAIL_CHUNKS = 3;

export class Capture {
  /** Milliseconds spent in provider calls (every try; a stream until its first chunk). */
  upstreamMs = 0;
  /** `model` of the last body sent upstream (after override/default params). */
  model: string | undefined;
  /** Usage of the last successful JSON answer of a provider call. */
  usage: Usage | undefined;
  readonly tail: Uint8Array[] = [];
  /** A stream's first chunk: a Messages stream tells its input tokens there (message_start), not at its end. */
  head: Uint8Array | undefined;
  body: Uint8Array[] | undefined;
  bodyBytes = 0;
  bodyCut = false;

  keep(chunk: Uint8Array, maxBodyBytes: number): void {
    this.head ??= chunk;
    const tail = this.tail;
    if (tail.length === TAIL_CHUNKS) tail.shift();
    tail.push(chunk);
    if (maxBodyBytes <= 0 || this.bodyCut) return;
    if (this.bodyBytes + chunk.byteLength > maxBodyBytes) {
      this.bodyCut = true;
      return;
    }
    (this.body ??= []).push(chunk);
    this.bodyBytes += chunk.byteLength;
  }
}

export function captureOf(ctx: RequestContext): Capture {
  let capture = ctx.values.get(CaptureKey);
  if (!capture) ctx.values.set(CaptureKey, (capture = new Capture()));
  return capture;
}

/** Innermost wrapper of each provider call: its duration, the model it sent and the usage it answered. */
export function timeCalls(run: AttemptRunner): AttemptRunner {
  return async (attempt) => {
    const started = performance.now();
    let outcome: Outcome | undefined;
    try {
      outcome = await run(attempt);
      return outcome;
    } finally {
      const capture = captureOf(attempt.ctx);
      capture.upstreamMs += performance.now() - started;
      const model = attempt.body['model'];
      if (typeof model === 'string') capture.model = model;
      const usage = outcome && answerUsage(outcome);
      if (usage) capture.usage = usage;
    }
  };
}

function answerUsage(outcome: Outcome): Usage | undefined {
  const json = outcome.response?.json;
  if (!json || outcome.status < 200 || outcome.status >= 300) return undefined;
  return usageFromPayload(json);
}

/** Passes a stream through, keeping its tail (and its body, bounded) for the log. */
export async function* keepTail(source: AsyncIterable<Uint8Array>, capture: Capture, maxBodyBytes: number): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    capture.keep(chunk, maxBodyBytes);
    yield chunk;
  }
}
