/**
 * Reads an OpenAI-format event stream as it arrives: each `data:` event's JSON, in order, until
 * `[DONE]` or the end of the body.
 */
export async function* streamEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<Record<string, unknown>> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffered.search(/\r?\n\r?\n/)) >= 0) {
      const event = buffered.slice(0, end);
      buffered = buffered.slice(end).replace(/^\r?\n\r?\n/, '');
      const data = event.split(/\r?\n/).filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trimStart()).join('\n');
      if (data === '[DONE]') return;
      if (data) yield JSON.parse(data) as Record<string, unknown>;
    }
  }
}

/** The text an event adds: a chat delta's content (or a whole message's, for answers that are not streamed). */
export function textOf(event: Record<string, unknown>): string {
  const choice = (event['choices'] as Array<Record<string, any>> | undefined)?.[0];
  return choice?.['delta']?.['content'] ?? choice?.['message']?.['content'] ?? '';
}
