/**
 * Splits a JSONL byte stream into lines without holding the file: each line is decoded as strict
 * UTF-8 on its own (a bad byte sequence is that line's error), `\r\n` endings are accepted, and a
 * line longer than the cap is reported instead of being buffered.
 */
import { asBuffer } from '../../../core/index.js';

export type RawLine =
  | { no: number; text: string }
  | { no: number; error: 'invalid_utf8' | 'line_too_long' };

const NEWLINE = 0x0a;
const decoder = new TextDecoder('utf-8', { fatal: true });

export async function* jsonlLines(source: AsyncIterable<Uint8Array>, maxLineBytes: number): AsyncGenerator<RawLine> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let tooLong = false;
  let no = 0;

  const take = (piece: Buffer): RawLine => {
    no++;
    const line = tooLong || pendingBytes + piece.byteLength > maxLineBytes
      ? ({ no, error: 'line_too_long' } as const)
      : decode(no, pending.length === 0 ? piece : Buffer.concat([...pending, piece]));
    pending = [];
    pendingBytes = 0;
    tooLong = false;
    return line;
  };

  for await (const chunk of source) {
    const buffer = asBuffer(chunk);
    let start = 0;
    for (;;) {
      const end = buffer.indexOf(NEWLINE, start);
      if (end === -1) {
        const rest = buffer.subarray(start);
        if (!tooLong && rest.byteLength > 0) {
          pendingBytes += rest.byteLength;
          if (pendingBytes > maxLineBytes) {
            tooLong = true;
            pending = [];
          } else {
            pending.push(rest);
          }
        }
        break;
      }
      yield take(buffer.subarray(start, end));
      start = end + 1;
    }
  }
  if (pendingBytes > 0 || tooLong) yield take(Buffer.alloc(0));
}

function decode(no: number, bytes: Buffer): RawLine {
  try {
    const text = decoder.decode(bytes);
    return { no, text: text.endsWith('\r') ? text.slice(0, -1) : text };
  } catch {
    return { no, error: 'invalid_utf8' };
  }
}
