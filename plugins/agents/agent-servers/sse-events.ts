/**
 * Reads server-sent events out of a relayed stream as its chunks pass, for what they name: each
 * `push` returns the `data` of the events that the chunk completes. The chunks themselves are
 * passed on untouched by the caller. An event longer than MAX_EVENT_CHARS is skipped (not kept
 * whole in memory): the tasks it names are then not recorded, so the client cannot use them later.
 */
export const MAX_EVENT_CHARS = 1024 * 1024;

export class SseEvents {
  readonly #decoder = new TextDecoder();
  #buffer = '';
  /** In an over-long event: drop text until the blank line that ends it. */
  #skipping = false;

  push(chunk: Uint8Array): string[] {
    let text = this.#buffer + this.#decoder.decode(chunk, { stream: true });
    // A trailing \r may be the first half of \r\n: keep it for the next chunk.
    const held = text.endsWith('\r') ? '\r' : '';
    if (held) text = text.slice(0, -1);
    text = text.replace(/\r\n?/g, '\n');
    const blocks = text.split('\n\n');
    let rest = blocks.pop()!;
    const events: string[] = [];
    for (const block of blocks) {
      if (this.#skipping) {
        this.#skipping = false;
        continue;
      }
      const data = dataOf(block);
      if (data !== undefined) events.push(data);
    }
    if (this.#skipping || rest.length > MAX_EVENT_CHARS) {
      this.#skipping = true;
      rest = rest.endsWith('\n') ? '\n' : ''; // half of the blank line that ends the skipped event
    }
    this.#buffer = rest + held;
    return events;
  }
}

/** The joined `data:` lines of one event (field name, then one optional space), if it has any. */
function dataOf(block: string): string | undefined {
  const lines: string[] = [];
  for (const line of block.split('\n')) {
    if (line === 'data' || line.startsWith('data:')) lines.push(line.slice(5).replace(/^ /, ''));
  }
  return lines.length > 0 ? lines.join('\n') : undefined;
}
