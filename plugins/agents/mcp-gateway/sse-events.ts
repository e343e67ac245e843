/**
 * Server-sent events as the MCP relay needs them: each event as soon as its blank line arrives,
 * with its `id:` (clients resume with Last-Event-ID), `event:` and `retry:` kept, and its raw text
 * so an event nobody changes is passed on byte for byte. core's parseSse drops ids; hence this one.
 */
export interface RelayedEvent {
  /** The event exactly as received, blank line included. */
  readonly raw: string;
  readonly id?: string;
  readonly event?: string;
  readonly retry?: string;
  /** The `data:` lines joined with "\n"; undefined for an event without data (a comment, a bare id). */
  readonly data?: string;
}

export async function* sseEvents(source: AsyncIterable<Uint8Array>): AsyncGenerator<RelayedEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of source) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = eventEnd(buffer)) !== -1) {
      yield parseEvent(buffer.slice(0, end));
      buffer = buffer.slice(end);
    }
  }
  buffer += decoder.decode();
  if (buffer.trim() !== '') yield parseEvent(buffer + '\n\n');
}

/** Index just past the first blank line (LF or CRLF line ends), or -1. */
function eventEnd(buffer: string): number {
  const lf = buffer.indexOf('\n\n');
  const crlf = buffer.indexOf('\r\n\r\n');
  if (lf === -1 && crlf === -1) return -1;
  if (crlf !== -1 && (lf === -1 || crlf < lf)) return crlf + 4;
  return lf + 2;
}

function parseEvent(raw: string): RelayedEvent {
  const data: string[] = [];
  let id: string | undefined;
  let event: string | undefined;
  let retry: string | undefined;
  for (const line of raw.split(/\r?\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'retry') retry = value;
  }
  return { raw, id, event, retry, data: data.length > 0 ? data.join('\n') : undefined };
}

/** An event with new data and the same id and name. */
export function rewrittenEvent(e: Pick<RelayedEvent, 'id' | 'event'>, data: string): string {
  let out = '';
  if (e.event !== undefined) out += `event: ${e.event}\n`;
  if (e.id !== undefined) out += `id: ${e.id}\n`;
  for (const line of data.split('\n')) out += `data: ${line}\n`;
  return out + '\n';
}
