/**
 * `POST /v1/files`: a multipart/form-data body (`purpose`, `file`) parsed with busboy as it arrives;
 * the file part is streamed to disk, never held in memory. Over the size limit → 413 (reading
 * stops); a missing part or an unknown purpose → 400 (the bytes already written are dropped).
 */
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import type busboy from 'busboy';
import { Errors, type FileRecord, type HeaderMap, type Scope } from '../../../core/index.js';
import type { StoredFileService } from './file-service.js';

// busboy (CommonJS) is required on the first multipart body, not at boot.
const require = createRequire(import.meta.url);

export const PURPOSES = ['batch', 'fine-tune'] as const;

/** Room for the multipart framing and the purpose field next to the file itself. */
const FRAMING_ALLOWANCE = 64 * 1024;
const MAX_FILENAME = 255;

export async function receiveUpload(
  files: StoredFileService, headers: HeaderMap, body: AsyncIterable<Uint8Array> | undefined, scope: Scope, maxBytes: number,
): Promise<FileRecord> {
  const contentType = headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) throw Errors.unsupportedMediaType('multipart/form-data');
  const declared = Number(headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes + FRAMING_ALLOWANCE) throw Errors.payloadTooLarge(maxBytes);
  if (!body) throw Errors.invalidBody('file', 'is required');

  const source = body instanceof Readable ? body : Readable.from(body);
  const parts = await parseParts(files, source, contentType, maxBytes);
  const { purpose, upload } = parts;
  if (!upload) throw Errors.invalidBody('file', 'is required');
  if (purpose === undefined || !(PURPOSES as readonly string[]).includes(purpose)) {
    await files.discard(upload.id);
    throw purpose === undefined
      ? Errors.invalidBody('purpose', 'is required')
      : Errors.invalidBody('purpose', `must be one of ${PURPOSES.map((p) => JSON.stringify(p)).join(', ')}`);
  }
  const record: FileRecord = {
    id: upload.id,
    purpose,
    filename: upload.filename,
    bytes: upload.bytes,
    created_at: Math.floor(Date.now() / 1000),
    organisation_id: scope.organisationId,
    workspace_id: scope.workspaceId,
  };
  await files.insert(record);
  return record;
}

interface Parts {
  purpose?: string;
  upload?: { id: string; filename: string; bytes: number };
}

function parseParts(files: StoredFileService, source: Readable, contentType: string, maxBytes: number): Promise<Parts> {
  return new Promise<Parts>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = (require('busboy') as typeof busboy)({
        headers: { 'content-type': contentType },
        // busboy signals its limit on reaching it; one byte more lets a file of exactly maxBytes through.
        limits: { fileSize: maxBytes + 1, files: 1, fields: 16, fieldSize: 1024, parts: 32 },
      });
    } catch (e) {
      return reject(Errors.invalidBody('', `is not valid multipart/form-data (${(e as Error).message})`));
    }
    const parts: Parts = {};
    let writing: Promise<void> | undefined;
    let current: Readable | undefined;
    let settled = false;

    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      // Stop reading the request: the rest of an oversized body is never read (the answer closes the connection).
      source.unpipe(parser);
      parser.removeAllListeners('file');
      // A part still being written is cut, so its temporary file is removed.
      if (current && !current.destroyed) current.destroy(error instanceof Error ? error : undefined);
      reject(error);
    };

    parser.on('field', (name, value) => {
      if (name === 'purpose') parts.purpose = value;
    });
    parser.on('file', (name, part, info) => {
      if (name !== 'file' || writing) {
        part.resume();
        return;
      }
      const id = files.newId();
      const filename = (info.filename || 'file').slice(0, MAX_FILENAME);
      current = part;
      part.once('limit', () => part.destroy(Errors.payloadTooLarge(maxBytes)));
      writing = files.write(id, part, maxBytes).then(
        (bytes) => {
          parts.upload = { id, filename, bytes };
        },
        (e) => fail(e),
      );
    });
    parser.once('error', (e: Error) => fail(Errors.invalidBody('', `is not valid multipart/form-data (${e.message})`)));
    source.once('error', (e: Error) => fail(e));
    parser.once('close', () => {
      void (async () => {
        await writing;
        if (settled) {
          // Failed after the bytes were written (cannot happen today, but never leave them behind).
          if (parts.upload) await files.discard(parts.upload.id);
          return;
        }
        settled = true;
        resolve(parts);
      })();
    });
    source.pipe(parser);
  });
}
