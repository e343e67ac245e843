/**
 * Reading one field of a JSON answer without parsing the answer: the last `"key": {...}` object
 * (OpenAI puts `usage` last) or the first `"key": "..."` string. A string body is searched as it is,
 * bytes as bytes: every character the scan compares is ASCII, so char codes and UTF-8 bytes agree.
 */
import { asBuffer } from './bytes.js';

const OPEN = 0x7b; // {
const CLOSE = 0x7d; // }
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c;

interface Source {
  readonly length: number;
  lastIndexOf(key: string, from: number): number;
  indexOf(key: string): number;
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
  indexOf(key: string): number {
    return this.s.indexOf(key);
  }
  codeAt(i: number): number {
    return this.s.charCodeAt(i);
  }
  text(start: number, end: number): string {
    return this.s.slice(start, end);
  }
}

class BytesSource implements Source {
  readonly #b: Buffer;
  constructor(bytes: Uint8Array) {
    this.#b = asBuffer(bytes);
  }
  get length(): number {
    return this.#b.length;
  }
  lastIndexOf(key: string, from: number): number {
    return this.#b.lastIndexOf(key, from, 'latin1');
  }
  indexOf(key: string): number {
    return this.#b.indexOf(key, 0, 'latin1');
  }
  codeAt(i: number): number {
    return this.#b[i]!;
  }
  text(start: number, end: number): string {
    return this.#b.toString('utf8', start, end);
  }
}

function sourceOf(body: string | Uint8Array): Source {
  return typeof body === 'string' ? new StringSource(body) : new BytesSource(body);
}

/** Index of the first character of the value after a key ending at `from` (past blanks and the colon), or -1. */
function valueAt(body: Source, from: number): number {
  let colon = false;
  for (let i = from; i < body.length; i++) {
    const c = body.codeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    if (c === 0x3a && !colon) colon = true;
    else return colon ? i : -1;
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
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN) depth++;
    else if (c === CLOSE && --depth === 0) return i;
  }
  return -1;
}

/**
 * The last `key: {...}` object of a JSON text (`key` with its quotes, e.g. `"usage"`), parsed; an
 * occurrence whose value is not a whole object (`null`, cut short, not JSON) is passed over for an
 * earlier one. A key inside a string is preceded by a backslash and skipped.
 */
export function lastJsonObject(json: string | Uint8Array, key: string): Record<string, unknown> | undefined {
  const body = sourceOf(json);
  for (let at = body.length; at > 0;) {
    const found = body.lastIndexOf(key, at - 1);
    if (found === -1) return undefined;
    at = found;
    if (found > 0 && body.codeAt(found - 1) === BACKSLASH) continue;
    const start = valueAt(body, found + key.length);
    if (start === -1 || body.codeAt(start) !== OPEN) continue;
    const end = objectEnd(body, start);
    if (end === -1) continue;
    try {
      return JSON.parse(body.text(start, end + 1)) as Record<string, unknown>;
    } catch {
      continue;
    }
  }
  return undefined;
}

/** The first `key: "..."` string value of a JSON text (escape-free values only, as model names are). */
export function firstJsonString(json: string | Uint8Array, key: string): string | undefined {
  const body = sourceOf(json);
  const found = body.indexOf(key);
  if (found === -1) return undefined;
  const start = valueAt(body, found + key.length);
  if (start === -1 || body.codeAt(start) !== QUOTE) return undefined;
  for (let i = start + 1; i < body.length; i++) {
    const c = body.codeAt(i);
    if (c === BACKSLASH) return undefined;
    if (c === QUOTE) return body.text(start + 1, i);
  }
  return undefined;
}
