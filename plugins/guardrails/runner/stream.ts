/**
 * Output guardrails on a stream (OpenAI-format SSE, which every adapter produces, or a Messages API
 * stream, whose events name themselves: its text is the text_delta pieces).
 *
 *   held (a sync output hook denies): every chunk is read before anything is sent; the text is
 *     assembled from the chunk deltas and checked; then the held chunks are replayed (rewritten
 *     when a check transformed the text) or the outcome becomes a 446 before any byte was sent.
 *   passed (no blocking hook): chunks go to the client as they come; a copy of their bytes is kept
 *     and the verdicts are computed when the stream ends, for the logs only.
 */
type Obj = Record<string, unknown>;

export interface HeldStream {
  readonly chunks: readonly Uint8Array[];
  /** The data of each event, parsed (undefined for `[DONE]` and what is not JSON). */
  readonly events: readonly { data: string; json: Obj | undefined }[];
  /** The stream assembled as one unified answer (chat.completion or text_completion). */
  readonly answer: Obj;
}

export type HoldResult =
  | { kind: 'held'; stream: HeldStream }
  | { kind: 'too-large' }
  | { kind: 'failed'; message: string };

/** Reads the whole stream, up to `maxBytes`; a provider error (event or thrown) turns into `failed`. */
export async function holdStream(source: AsyncIterable<Uint8Array>, maxBytes: number): Promise<HoldResult> {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    for await (const chunk of source) {
      bytes += chunk.byteLength;
      // Leaving for-await early closes the source (the upstream connection is released).
      if (bytes > maxBytes) return { kind: 'too-large' };
      chunks.push(chunk);
    }
  } catch (e) {
    return { kind: 'failed', message: `the provider stream failed: ${e instanceof Error ? e.message : String(e)}` };
  }
  const events = parseEvents(chunks);
  for (const e of events) {
    const error = e.json?.['error'] as Obj | undefined;
    if (error && typeof error === 'object') {
      return { kind: 'failed', message: typeof error['message'] === 'string' ? error['message'] : 'the provider stream failed' };
    }
  }
  return { kind: 'held', stream: { chunks, events, answer: assemble(events) } };
}

/**
 * The held stream in one write (it is all here: no reason to dribble it out): the bytes as they
 * came, or rewritten so that each choice's content is `texts[index]`.
 */
export async function* replay(held: HeldStream, texts?: ReadonlyMap<number, string>): AsyncGenerator<Uint8Array> {
  if (!texts) {
    yield held.chunks.length === 1 ? held.chunks[0]! : Buffer.concat(held.chunks);
    return;
  }
  const written = new Set<number>();
  let out = '';
  let messages = false;
  for (const event of held.events) {
    const json = event.json;
    if (!json) continue;
    const choices = json['choices'];
    if (!Array.isArray(choices)) {
      const type = messageEventType(json);
      if (type === undefined) {
        out += `data: ${event.data}\n\n`;
        continue;
      }
      // A Messages stream: events are named, the text is the text_delta pieces (one text, index 0).
      messages = true;
      const delta = json['delta'] as Obj | undefined;
      const text = texts.get(0);
      if (type === 'content_block_delta' && delta?.['type'] === 'text_delta' && text !== undefined) {
        const piece = written.has(0) ? '' : text;
        written.add(0);
        out += `event: ${type}\ndata: ${JSON.stringify({ ...json, delta: { ...delta, text: piece } })}\n\n`;
      } else {
        out += `event: ${type}\ndata: ${event.data}\n\n`;
      }
      continue;
    }
    const rewritten = choices.map((c: Obj) => {
      const index = typeof c['index'] === 'number' ? c['index'] : 0;
      const text = texts.get(index);
      if (text === undefined) return c;
      const delta = c['delta'] as Obj | undefined;
      const key = delta && typeof delta['content'] === 'string' ? 'delta' : typeof c['text'] === 'string' ? 'text' : undefined;
      if (!key) return c;
      // The whole text in the first piece of the choice, the later pieces emptied.
      const piece = written.has(index) ? '' : text;
      written.add(index);
      return key === 'delta' ? { ...c, delta: { ...delta, content: piece } } : { ...c, text: piece };
    });
    out += `data: ${JSON.stringify({ ...json, choices: rewritten })}\n\n`;
  }
  // A Messages stream ends with its message_stop event; chat streams with [DONE].
  yield Buffer.from(messages ? out : out + 'data: [DONE]\n\n', 'utf8');
}

const MESSAGE_EVENTS = new Set(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop', 'ping']);

/** The event type of a Messages API stream event (its data names it), or undefined. */
function messageEventType(json: Obj): string | undefined {
  const type = json['type'];
  return typeof type === 'string' && MESSAGE_EVENTS.has(type) ? type : undefined;
}

/**
 * Passes the stream through unchanged and keeps a copy of its bytes (up to `maxBytes`); when it
 * ended normally, `onEnd` gets the assembled answer (not when the client left or the cap was hit).
 */
export async function* observe(
  source: AsyncIterable<Uint8Array>, maxBytes: number, onEnd: (answer: Obj | undefined) => void,
): AsyncGenerator<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let keep = true;
  for await (const chunk of source) {
    if (keep) {
      bytes += chunk.byteLength;
      if (bytes > maxBytes) {
        keep = false;
        chunks.length = 0;
      } else chunks.push(chunk);
    }
    yield chunk;
  }
  onEnd(keep ? assemble(parseEvents(chunks)) : undefined);
}

/** Data of each SSE event (data-only events, LF or CRLF). */
function parseEvents(chunks: readonly Uint8Array[]): { data: string; json: Obj | undefined }[] {
  const text = Buffer.concat(chunks).toString('utf8');
  const events: { data: string; json: Obj | undefined }[] = [];
  let data: string[] = [];
  const flush = () => {
    if (data.length === 0) return;
    const joined = data.join('\n');
    data = [];
    let json: Obj | undefined;
    if (joined !== '[DONE]') {
      try {
        const parsed: unknown = JSON.parse(joined);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) json = parsed as Obj;
      } catch {
        /* not JSON: kept as raw data */
      }
    }
    events.push({ data: joined, json });
  };
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '') flush();
    else if (line.startsWith('data:')) data.push(line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5));
  }
  flush();
  return events;
}

/** One unified answer from the chunks: content (or text) concatenated per choice. */
function assemble(events: readonly { json: Obj | undefined }[]): Obj {
  let head: Obj | undefined;
  let chat = true;
  const texts = new Map<number, string>();
  const finish = new Map<number, unknown>();
  let usage: unknown;
  for (const { json } of events) {
    if (!json) continue;
    const type = messageEventType(json);
    if (type !== undefined) {
      // Messages events: the message head, text deltas, the stop reason and usage.
      if (type === 'message_start') head ??= json['message'] as Obj | undefined;
      const delta = json['delta'] as Obj | undefined;
      if (type === 'content_block_delta' && delta?.['type'] === 'text_delta' && typeof delta['text'] === 'string') {
        texts.set(0, (texts.get(0) ?? '') + delta['text']);
      }
      if (type === 'message_delta') {
        texts.set(0, texts.get(0) ?? '');
        if (delta?.['stop_reason'] != null) finish.set(0, delta['stop_reason']);
        if (json['usage']) usage = json['usage'];
      }
      continue;
    }
    head ??= json;
    if (json['usage']) usage = json['usage'];
    const choices = json['choices'];
    if (!Array.isArray(choices)) continue;
    for (const c of choices as Obj[]) {
      const index = typeof c['index'] === 'number' ? c['index'] : 0;
      const delta = c['delta'] as Obj | undefined;
      let piece: unknown;
      if (delta) piece = delta['content'];
      else {
        chat = false;
        piece = c['text'];
      }
      texts.set(index, (texts.get(index) ?? '') + (typeof piece === 'string' ? piece : ''));
      if (c['finish_reason'] != null) finish.set(index, c['finish_reason']);
    }
  }
  const choices = [...texts.keys()].sort((a, b) => a - b).map((index) => chat
    ? { index, message: { role: 'assistant', content: texts.get(index)! }, finish_reason: finish.get(index) ?? null }
    : { index, text: texts.get(index)!, finish_reason: finish.get(index) ?? null });
  return {
    id: head?.['id'],
    object: chat ? 'chat.completion' : 'text_completion',
    created: head?.['created'],
    model: head?.['model'],
    choices,
    ...(usage ? { usage } : {}),
  };
}
