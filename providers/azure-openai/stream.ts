/**
 * Azure OpenAI opens a stream with an annotation event: `choices: []`, `object: ""`, only
 * `prompt_filter_results`. It is not a chunk of the OpenAI format, and clients that read
 * `choices[0]` of every chunk break on it, so leading events of that kind are dropped. Only the
 * head of the stream is inspected (as text, without JSON parsing); from the first other event on,
 * the bytes pass through untouched.
 */
const decoder = new TextDecoder();

export async function* dropPromptFilterHead(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  let head: Uint8Array | undefined;
  let finished = false;
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done) {
        finished = true;
        if (head && head.byteLength > 0) yield head;
        return;
      }
      head = head ? concat(head, next.value) : next.value;
      for (;;) {
        const end = eventEnd(head);
        if (end === -1) break;
        if (!isPromptFilterEvent(decoder.decode(head.subarray(0, end)))) {
          const rest = head;
          head = undefined;
          yield rest;
          for (;;) {
            const more = await iterator.next();
            if (more.done) {
              finished = true;
              return;
            }
            yield more.value;
          }
        }
        head = head.subarray(end);
      }
    }
  } finally {
    // The client went away (or a later stage failed): release the upstream body.
    if (!finished) await iterator.return?.();
  }
}

function isPromptFilterEvent(event: string): boolean {
  return event.includes('"prompt_filter_results"') && /"choices"\s*:\s*\[\s*\]/.test(event);
}

/** Index just past the first blank line (LF LF or CRLF CRLF), or -1. */
function eventEnd(bytes: Uint8Array): number {
  for (let i = 1; i < bytes.byteLength; i++) {
    if (bytes[i] !== 10) continue;
    if (bytes[i - 1] === 10) return i + 1;
    if (i >= 3 && bytes[i - 1] === 13 && bytes[i - 2] === 10 && bytes[i - 3] === 13) return i + 1;
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}
