/**
 * Reads a multipart/form-data request (image edits, transcriptions, translations) into a unified
 * body with busboy as it arrives. The file parts are kept in memory, bounded by the body limit:
 * a retry or a fallback must be able to send them again, and the client's stream can be read only
 * once. Over the limit → 413 (reading stops); not a form → 415; a broken form → 400.
 */
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import type busboy from 'busboy';
import { Errors, FormFile, type GatewayRequest } from '../../../core/index.js';
import { BOOLEAN_FIELDS, NUMBER_FIELDS } from './schemas.js';

// busboy (CommonJS) is required on the first multipart body, not at boot.
const require = createRequire(import.meta.url);

const MAX_PARTS = 256;
const MAX_FILENAME = 255;
const UNSAFE_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export async function readForm(request: GatewayRequest, maxBytes: number): Promise<Record<string, unknown>> {
  const contentType = request.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) throw Errors.unsupportedMediaType('multipart/form-data');
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw Errors.payloadTooLarge(maxBytes);
  if (!request.bodyStream) throw Errors.invalidBody('', 'is required');
  return parse(limited(request.bodyStream, maxBytes), contentType, maxBytes);
}

/** The body, stopped with 413 once more than maxBytes came (a chunked body declares no length). */
async function* limited(source: AsyncIterable<Uint8Array>, maxBytes: number): AsyncGenerator<Uint8Array> {
  let bytes = 0;
  for await (const chunk of source) {
    bytes += chunk.byteLength;
    if (bytes > maxBytes) throw Errors.payloadTooLarge(maxBytes);
    yield chunk;
  }
}

/** Text fields as values (numbers and booleans read), `name[]` and repeated names as arrays, files as FormFile. */
function parse(body: AsyncIterable<Uint8Array>, contentType: string, maxBytes: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = (require('busboy') as typeof busboy)({ headers: { 'content-type': contentType }, limits: { fieldSize: maxBytes, parts: MAX_PARTS } });
    } catch (e) {
      return reject(Errors.invalidBody('', `is not valid multipart/form-data (${(e as Error).message})`));
    }
    const fields: Record<string, unknown> = {};
    const pending: Promise<void>[] = [];
    const source = Readable.from(body);
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      source.unpipe(parser);
      source.destroy();
      reject(error);
    };
    const put = (rawName: string, value: unknown) => {
      const many = rawName.endsWith('[]');
      const name = many ? rawName.slice(0, -2) : rawName;
      // A form names its own fields: never let one reach an object's prototype.
      if (name === '' || UNSAFE_NAMES.has(name)) return;
      const existing = fields[name];
      if (existing === undefined) fields[name] = many ? [value] : value;
      else if (Array.isArray(existing)) existing.push(value);
      else fields[name] = [existing, value];
    };
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(Errors.payloadTooLarge(maxBytes));
      put(name, readText(name.replace(/\[\]$/, ''), value));
    });
    parser.on('file', (name, part, info) => {
      const chunks: Buffer[] = [];
      pending.push(new Promise<void>((done) => {
        part.on('data', (c: Buffer) => chunks.push(c));
        part.once('end', () => {
          const filename = (info.filename || 'file').slice(0, MAX_FILENAME);
          put(name, new FormFile(filename, info.mimeType || 'application/octet-stream', Buffer.concat(chunks)));
          done();
        });
        part.once('error', () => done());
      }));
    });
    parser.once('partsLimit', () => fail(Errors.invalidBody('', `must have at most ${MAX_PARTS} parts`)));
    parser.once('error', (e: Error) => fail(Errors.invalidBody('', `is not valid multipart/form-data (${e.message})`)));
    source.once('error', (e: Error) => fail(e));
    parser.once('close', () => {
      void Promise.all(pending).then(() => {
        if (settled) return;
        settled = true;
        resolve(fields);
      });
    });
    source.pipe(parser);
  });
}

/** A form's text as the value the JSON schema expects: numbers and booleans where OpenAI takes them. */
function readText(name: string, value: string): unknown {
  if (NUMBER_FIELDS.has(name) && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  if (BOOLEAN_FIELDS.has(name) && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}
