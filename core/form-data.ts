/**
 * Multipart (form-data) bodies of inference endpoints (image edits, transcriptions ...). A route
 * parses the client's form into a unified body whose text fields are plain values and whose file
 * parts are FormFile values; every attempt (retries, fallbacks) writes the body out again with
 * `encodeMultipart`, so that a target's params (model, override_params) apply to forms as to JSON.
 * A FormFile serialises to a descriptor with a digest (logs, cache keys), never to its bytes.
 */
import { createHash, randomBytes } from 'node:crypto';

export class FormFile {
  readonly sha256: string;

  constructor(
    readonly filename: string,
    readonly contentType: string,
    readonly bytes: Uint8Array,
  ) {
    this.sha256 = createHash('sha256').update(bytes).digest('hex');
  }

  /** What JSON sees (logs, cache keys): the same file makes the same descriptor. */
  toJSON(): { filename: string; content_type: string; bytes: number; sha256: string } {
    return { filename: this.filename, content_type: this.contentType, bytes: this.bytes.byteLength, sha256: this.sha256 };
  }
}

export interface EncodedForm {
  contentType: string;
  /** Its size in bytes (sent as content-length: some hosts refuse chunked uploads). */
  length: number;
  /** The form, part by part (the files' own buffers, never copied into one). */
  body: AsyncIterable<Uint8Array>;
}

const encoder = new TextEncoder();

/** `name` quoted as RFC 7578 asks (quotes and line breaks escaped). */
function quoted(value: string): string {
  return `"${value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;
}

function fieldValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The body as multipart/form-data: FormFile values as file parts, arrays as repeated `name[]`
 * fields (OpenAI's form convention), objects as JSON text, null and undefined left out.
 */
export function encodeMultipart(body: Readonly<Record<string, unknown>>): EncodedForm {
  const boundary = `----gw-form-${randomBytes(12).toString('hex')}`;
  const parts: Uint8Array[] = [];
  const text = (name: string, value: string) => {
    parts.push(encoder.encode(`--${boundary}\r\ncontent-disposition: form-data; name=${quoted(name)}\r\n\r\n${value}\r\n`));
  };
  const file = (name: string, f: FormFile) => {
    parts.push(encoder.encode(
      `--${boundary}\r\ncontent-disposition: form-data; name=${quoted(name)}; filename=${quoted(f.filename)}\r\ncontent-type: ${f.contentType}\r\n\r\n`,
    ));
    parts.push(f.bytes);
    parts.push(encoder.encode('\r\n'));
  };
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    if (value instanceof FormFile) file(name, value);
    else if (Array.isArray(value)) {
      for (const item of value) {
        if (item instanceof FormFile) file(`${name}[]`, item);
        else text(`${name}[]`, fieldValue(item));
      }
    } else text(name, fieldValue(value));
  }
  parts.push(encoder.encode(`--${boundary}--\r\n`));
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: parts.reduce((n, p) => n + p.byteLength, 0),
    body: {
      async *[Symbol.asyncIterator]() {
        yield* parts;
      },
    },
  };
}

/** Whether a body came from a form (holds a file part): adapters then send it as a form again. */
export function isFormBody(body: Readonly<Record<string, unknown>>): boolean {
  for (const value of Object.values(body)) {
    if (value instanceof FormFile) return true;
    if (Array.isArray(value) && value.some((v) => v instanceof FormFile)) return true;
  }
  return false;
}
