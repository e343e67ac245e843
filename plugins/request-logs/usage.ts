/**
 * Token usage read from an answer without parsing the whole answer: the last `"usage"` key of a
 * JSON body (OpenAI puts it after `choices`) or of the last events of a stream (the final usage
 * chunk that `stream_options.include_usage` asks for). Only the `{...}` after the key is parsed.
 */

export interface Usage {
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
}

const KEY = '"usage"';
const OPEN = 0x7b; // {
const CLOSE = 0x7d; // }
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c;

/**
 * What the scan reads: a string answer is searched as it is (a body the gateway built, e.g. with
 * `hook_results` spliced in, is never encoded just to be searched), bytes as bytes. Every byte the
 * scan compares is ASCII, so char codes and bytes agree.
 */
interface Source {
  readonly length: number;
  lastIndexOf(key: string, from: number): number;
  codeAt(i: number): number;
  text(start: number, end: number): string;
}

class StringSource implements Source {
  constructor(private readonly s: string) {}
  get length(): number {
    return this.s.length;
  }
  lastIndexOf(key: string, from: number): number {
    return this.s.lastIndexOf(key, from);
  }
  codeAt(i: number): number {
    return this.s.charCodeAt(i);
  }
  text(start: number, end: number): string {
    return this.s.slice(start, end);
  }
}

class BytesSource implements Source {
  constructor(private readonly b: Buffer) {}
  get length(): number {
    return this.b.length;
  }
  lastIndexOf(key: string, from: number): number {
    return this.b.lastIndexOf(key, from, 'latin1');
  }
  codeAt(i: number): number {
    return this.b[i]!;
  }
  text(start: number, end: number): string {
    return this.b.toString('utf8', start, end);
  }
}

/** Usage of a JSON answer body, or undefined when it has none. */
export function usageFromJson(body: string | Uint8Array): Usage | undefined {
  return lastUsageObject(typeof body === 'string' ? new StringSource(body) : new BytesSource(Buffer.from(body.buffer, body.byteOffset, body.byteLength)));
}

/** Usage of an answer already parsed (or built as a value): its top-level `usage`. */
export function usageFromValue(value: unknown): Usage | undefined {
  const usage = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)['usage'] : undefined;
  return usage !== null && typeof usage === 'object' && !Array.isArray(usage) ? normalise(usage as Record<string, unknown>) : undefined;
}

/** Usage from the last chunks of an SSE stream (oldest first), or undefined. */
export function usageFromSseTail(chunks: readonly Uint8Array[]): Usage | undefined {
  if (chunks.length === 0) return undefined;
  const bytes = chunks.length === 1 ? Buffer.from(chunks[0]!.buffer, chunks[0]!.byteOffset, chunks[0]!.byteLength) : Buffer.concat(chunks);
  return lastUsageObject(new BytesSource(bytes));
}

/** The last `"usage": {...}` in the body (a `"usage": null` is skipped), normalised. */
function lastUsageObject(body: Source): Usage | undefined {
  let at = body.length;
  while (at > 0) {
    const key = body.lastIndexOf(KEY, at - 1);
    if (key === -1) return undefined;
    at = key;
    const start = valueStart(body, key + KEY.length);
    if (start === -1 || body.codeAt(start) !== OPEN) continue;
    const end = objectEnd(body, start);
    if (end === -1) continue;
    try {
      return normalise(JSON.parse(body.text(start, end + 1)) as Record<string, unknown>);
    } catch {
      continue;
    }
  }
  return undefined;
}

/** Index of the first character of the value after `"usage"` (past spaces and the colon), or -1. */
function valueStart(body: Source, from: number): number {
  let colon = false;
  for (let i = from; i < body.length; i++) {
    const c = body.codeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    if (c === 0x3a && !colon) {
      colon = true;
      continue;
    }
    return colon ? i : -1;
  }
  return -1;
}

/** Index of the `}` closing the object that starts at `start`, strings skipped; -1 when cut. */
function objectEnd(body: Source, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < body.length; i++) {
    const c = body.codeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN) depth++;
    else if (c === CLOSE && --depth === 0) return i;
  }
  return -1;
}

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;
}

/** OpenAI names (`prompt_tokens` ...) or the Responses API's (`input_tokens` ...). */
function normalise(u: Record<string, unknown>): Usage | undefined {
  const prompt = count(u['prompt_tokens'] ?? u['input_tokens']);
  const completion = count(u['completion_tokens'] ?? u['output_tokens']);
  let total = count(u['total_tokens']);
  if (total === null && (prompt !== null || completion !== null)) total = (prompt ?? 0) + (completion ?? 0);
  if (prompt === null && completion === null && total === null) return undefined;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total };
}
