/**
 * Token usage of an answer, for limits that count tokens or cost.
 *   - JSON answers: their `usage` (prompt_tokens/completion_tokens, or input_tokens/output_tokens),
 *     found by scanning the body for the last `"usage"` key and parsing only its object (the
 *     answer itself is not parsed; OpenAI puts usage last; core/json-scan.ts).
 *   - Streams: read as they pass to the client (no delay, no copy kept): the usage chunk when the
 *     stream carries one (OpenAI sends it with `stream_options: {"include_usage": true}`; a Messages
 *     stream in message_start and message_delta), else an estimate of 4 characters per token over
 *     the request's message text and the streamed text.
 *   - Cache hits (`x-gw-cache-status` HIT or SEMANTIC HIT) called no provider: no usage.
 * One stream meter per request, kept in `ctx.values` under `UsageMeterKey`, so every plugin
 * that meters the same answer shares it.
 */
import {
  firstJsonString, lastJsonObject, UsageMeterKey, type GatewayResponse, type RequestContext, type StreamUsageMeter, type TokenUsage,
} from '../../../core/index.js';

export type { TokenUsage };
const CHARS_PER_TOKEN = 4;
/** An event larger than this is not one we can read: dropped rather than buffered. */
const MAX_EVENT_CHARS = 1 << 20;

/** Puts a meter on a streamed answer (once per request). Call from `respond`. */
export function meterStream(ctx: RequestContext, response: GatewayResponse): void {
  if (!response.stream || ctx.values.has(UsageMeterKey)) return;
  const meter = new StreamMeter(ctx);
  response.stream = meter.wrap(response.stream);
  ctx.values.set(UsageMeterKey, meter);
}

export function isCacheHit(response: GatewayResponse): boolean {
  const status = response.headers['x-gw-cache-status'];
  return status === 'HIT' || status === 'SEMANTIC HIT';
}

/** The usage of the written answer (call from `onResponse`); undefined when it has none. */
export function usageOf(ctx: RequestContext, response: GatewayResponse): TokenUsage | undefined {
  if (isCacheHit(response)) return undefined;
  const meter = ctx.values.get(UsageMeterKey);
  if (meter) return meter.result();
  if (!response.json) return undefined;
  const raw = response.json.bytes();
  const tokens = readUsage(lastJsonObject(raw, '"usage"'));
  if (!tokens) return undefined;
  const model = firstJsonString(raw, '"model"') ?? ctx.body['model'];
  return { promptTokens: tokens[0], completionTokens: tokens[1], model: typeof model === 'string' ? model : undefined, estimated: false };
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}

function readUsage(u: unknown): [number, number] | undefined {
  if (!u || typeof u !== 'object') return undefined;
  const r = u as Record<string, unknown>;
  const prompt = num(r['prompt_tokens']) ?? num(r['input_tokens']);
  const completion = num(r['completion_tokens']) ?? num(r['output_tokens']);
  const total = num(r['total_tokens']);
  if (prompt === undefined && completion === undefined && total === undefined) return undefined;
  return [prompt ?? Math.max(0, (total ?? 0) - (completion ?? 0)), completion ?? 0];
}

class StreamMeter implements StreamUsageMeter {
  readonly #decoder = new TextDecoder();
  #buffer = '';
  #tokens: [number, number] | undefined;
  #model: string | undefined;
  #chars = 0;
  #seen = false;
  /** Input tokens a Messages stream's message_start reported. */
  #inputTokens: number | undefined;

  constructor(private readonly ctx: RequestContext) {}

  async *wrap(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    for await (const chunk of source) {
      this.#read(chunk);
      yield chunk;
    }
  }

  result(): TokenUsage | undefined {
    if (!this.#seen) return undefined;
    const model = this.#model ?? (typeof this.ctx.body['model'] === 'string' ? this.ctx.body['model'] : undefined);
    if (this.#tokens) return { promptTokens: this.#tokens[0], completionTokens: this.#tokens[1], model, estimated: false };
    return {
      promptTokens: Math.ceil(promptChars(this.ctx.body) / CHARS_PER_TOKEN),
      completionTokens: Math.ceil(this.#chars / CHARS_PER_TOKEN),
      model,
      estimated: true,
    };
  }

  #read(chunk: Uint8Array): void {
    this.#seen = true;
    let text = this.#buffer + this.#decoder.decode(chunk, { stream: true });
    if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
    let start = 0;
    for (let end = text.indexOf('\n\n'); end !== -1; end = text.indexOf('\n\n', start)) {
      this.#event(text.slice(start, end));
      start = end + 2;
    }
    this.#buffer = text.length - start > MAX_EVENT_CHARS ? '' : text.slice(start);
  }

  #event(block: string): void {
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('data:')) data += (data ? '\n' : '') + line.slice(line.charCodeAt(5) === 32 ? 6 : 5);
    }
    if (data === '' || data === '[DONE]') return;
    let chunk: Record<string, unknown>;
    try {
      chunk = JSON.parse(data) as Record<string, unknown>;
    } catch {
      return;
    }
    if (!chunk || typeof chunk !== 'object') return;
    if (this.#model === undefined && typeof chunk['model'] === 'string') this.#model = chunk['model'];
    // A Messages stream tells its input tokens in message_start and often only output tokens later.
    const start = chunk['type'] === 'message_start' ? (chunk['message'] as Record<string, unknown> | null) : undefined;
    if (start && typeof start === 'object') {
      if (this.#model === undefined && typeof start['model'] === 'string') this.#model = start['model'];
      this.#inputTokens = messagesInput(start['usage']);
    }
    const tokens = readUsage(chunk['usage']);
    if (tokens) {
      const usage = chunk['usage'] as Record<string, unknown>;
      const promptGiven = num(usage['prompt_tokens']) !== undefined || num(usage['input_tokens']) !== undefined || num(usage['total_tokens']) !== undefined;
      this.#tokens = promptGiven || this.#inputTokens === undefined ? tokens : [this.#inputTokens, tokens[1]];
    }
    const choices = chunk['choices'];
    if (Array.isArray(choices)) for (const choice of choices) this.#chars += choiceChars(choice);
    const delta = chunk['type'] === 'content_block_delta' ? (chunk['delta'] as Record<string, unknown> | null) : undefined;
    if (delta && typeof delta === 'object') for (const key of ['text', 'thinking', 'partial_json']) if (typeof delta[key] === 'string') this.#chars += (delta[key] as string).length;
  }
}

/** A Messages usage's input tokens (as a JSON answer's `input_tokens` are read: cache reads and writes apart). */
function messagesInput(u: unknown): number | undefined {
  return u && typeof u === 'object' ? num((u as Record<string, unknown>)['input_tokens']) : undefined;
}

function choiceChars(choice: unknown): number {
  if (!choice || typeof choice !== 'object') return 0;
  const c = choice as Record<string, unknown>;
  let n = typeof c['text'] === 'string' ? c['text'].length : 0;
  const delta = c['delta'] as Record<string, unknown> | undefined;
  if (delta && typeof delta === 'object') {
    if (typeof delta['content'] === 'string') n += delta['content'].length;
    if (typeof delta['reasoning_content'] === 'string') n += delta['reasoning_content'].length;
    const calls = delta['tool_calls'];
    if (Array.isArray(calls)) {
      for (const call of calls) {
        const args = (call as { function?: { arguments?: unknown } } | null)?.function?.arguments;
        if (typeof args === 'string') n += args.length;
      }
    }
  }
  return n;
}

/** Characters of the request's text: chat messages (string or text parts), or a completion prompt. */
function promptChars(body: Record<string, unknown>): number {
  let n = 0;
  const messages = body['messages'];
  if (Array.isArray(messages)) {
    for (const message of messages) {
      const content = (message as { content?: unknown } | null)?.content;
      if (typeof content === 'string') n += content.length;
      else if (Array.isArray(content)) {
        for (const part of content) {
          const text = (part as { text?: unknown } | null)?.text;
          if (typeof text === 'string') n += text.length;
        }
      }
    }
  }
  const prompt = body['prompt'];
  if (typeof prompt === 'string') n += prompt.length;
  else if (Array.isArray(prompt)) for (const p of prompt) if (typeof p === 'string') n += p.length;
  return n;
}
