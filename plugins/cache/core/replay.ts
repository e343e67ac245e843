/**
 * A stored (non-stream) answer replayed as a unified SSE stream, for a streamed request served from
 * the cache: `chat.completion.chunk` events (role, thinking blocks, content, refusal, tool calls,
 * finish) or `text_completion` events (text, finish) per choice, a usage chunk when the client
 * asked `stream_options.include_usage` (every other chunk then carries `usage: null`, as OpenAI's
 * do), and `data: [DONE]`. Built as one buffer: the whole answer is known, nothing to wait for.
 */
type Json = Record<string, unknown>;

const encoder = new TextEncoder();

/** The SSE bytes, or undefined when the answer is not a chat or text completion. */
export function replayAsSse(answer: unknown, includeUsage: boolean): Uint8Array | undefined {
  if (answer === null || typeof answer !== 'object') return undefined;
  const a = answer as Json;
  if (!Array.isArray(a['choices'])) return undefined;
  const choices = a['choices'] as Json[];
  let chunks: Json[];
  if (a['object'] === 'chat.completion') chunks = chatChunks(a, choices, includeUsage);
  else if (a['object'] === 'text_completion') chunks = textChunks(a, choices, includeUsage);
  else return undefined;
  let out = '';
  for (const chunk of chunks) out += `data: ${JSON.stringify(chunk)}\n\n`;
  return encoder.encode(out + 'data: [DONE]\n\n');
}

function head(a: Json, object: string): Json {
  const h: Json = { id: a['id'], object, created: a['created'], model: a['model'] };
  if (a['system_fingerprint'] != null) h['system_fingerprint'] = a['system_fingerprint'];
  if (a['service_tier'] != null) h['service_tier'] = a['service_tier'];
  if (a['provider'] != null) h['provider'] = a['provider'];
  return h;
}

function chatChunks(a: Json, choices: Json[], includeUsage: boolean): Json[] {
  const base = head(a, 'chat.completion.chunk');
  const tail = includeUsage ? { usage: null } : {};
  const chunk = (index: number, delta: Json, finishReason: unknown = null, logprobs: unknown = null): Json =>
    ({ ...base, choices: [{ index, delta, logprobs, finish_reason: finishReason }], ...tail });
  const out: Json[] = [];
  for (let i = 0; i < choices.length; i++) {
    const choice = choices[i]!;
    const index = typeof choice['index'] === 'number' ? choice['index'] : i;
    const message = (choice['message'] ?? {}) as Json;
    const content = message['content'];
    out.push(chunk(index, { role: 'assistant', content: typeof content === 'string' ? '' : null }));
    if (Array.isArray(message['content_blocks']) && message['content_blocks'].length > 0) {
      out.push(chunk(index, { content_blocks: (message['content_blocks'] as Json[]).map((b, j) => ({ index: j, ...b })) }));
    }
    if (typeof content === 'string' && content !== '') out.push(chunk(index, { content }, null, choice['logprobs'] ?? null));
    if (typeof message['refusal'] === 'string') out.push(chunk(index, { refusal: message['refusal'] }));
    if (Array.isArray(message['tool_calls']) && message['tool_calls'].length > 0) {
      const calls = (message['tool_calls'] as Json[]).map((call, j) => {
        const fn = (call['function'] ?? {}) as Json;
        return { index: j, id: call['id'], type: call['type'] ?? 'function', function: { name: fn['name'], arguments: fn['arguments'] ?? '' } };
      });
      out.push(chunk(index, { tool_calls: calls }));
    }
    out.push(chunk(index, {}, choice['finish_reason'] ?? 'stop'));
  }
  if (includeUsage && a['usage'] != null) out.push({ ...base, choices: [], usage: a['usage'] });
  return out;
}

function textChunks(a: Json, choices: Json[], includeUsage: boolean): Json[] {
  const base = head(a, 'text_completion');
  const tail = includeUsage ? { usage: null } : {};
  const chunk = (index: number, text: string, finishReason: unknown): Json =>
    ({ ...base, choices: [{ text, index, logprobs: null, finish_reason: finishReason }], ...tail });
  const out: Json[] = [];
  for (let i = 0; i < choices.length; i++) {
    const choice = choices[i]!;
    const index = typeof choice['index'] === 'number' ? choice['index'] : i;
    const text = typeof choice['text'] === 'string' ? choice['text'] : '';
    if (text !== '') out.push(chunk(index, text, null));
    out.push(chunk(index, '', choice['finish_reason'] ?? 'stop'));
  }
  if (includeUsage && a['usage'] != null) out.push({ ...base, choices: [], usage: a['usage'] });
  return out;
}
