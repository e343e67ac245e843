/** core/form-data.ts: a form body written out again (file parts, repeated fields) and what JSON sees of a file. */
import { expect } from 'chai';
import busboy from 'busboy';
import { encodeMultipart, FormFile, isFormBody } from '../../core/index.js';

async function readBack(body: Record<string, unknown>): Promise<{ fields: [string, string][]; files: [string, string, string, string][]; length: number; declared: number }> {
  const form = encodeMultipart(body);
  const chunks: Uint8Array[] = [];
  for await (const c of form.body) chunks.push(c);
  const bytes = Buffer.concat(chunks);
  const fields: [string, string][] = [];
  const files: [string, string, string, string][] = [];
  await new Promise<void>((resolve, reject) => {
    const parser = busboy({ headers: { 'content-type': form.contentType } });
    parser.on('field', (name, value) => fields.push([name, value]));
    parser.on('file', (name, part, info) => {
      const parts: Buffer[] = [];
      part.on('data', (c: Buffer) => parts.push(c));
      part.on('end', () => files.push([name, info.filename ?? '', info.mimeType, Buffer.concat(parts).toString()]));
    });
    parser.on('close', resolve);
    parser.on('error', reject);
    parser.end(bytes);
  });
  return { fields, files, length: bytes.byteLength, declared: form.length };
}

describe('core/form-data', () => {
  it('writes fields, arrays as name[], objects as JSON and files as file parts; its length is exact', async () => {
    const file = new FormFile('a "quoted".wav', 'audio/wav', Buffer.from('RIFF\r\n--not-a-boundary'));
    const out = await readBack({ model: 'whisper-1', temperature: 0.2, stream: true, timestamp_granularities: ['word', 'segment'], chunking: { type: 'auto' }, skipped: null, file });
    expect(out.fields).to.deep.equal([
      ['model', 'whisper-1'], ['temperature', '0.2'], ['stream', 'true'],
      ['timestamp_granularities[]', 'word'], ['timestamp_granularities[]', 'segment'], ['chunking', '{"type":"auto"}'],
    ]);
    expect(out.files).to.deep.equal([['file', 'a %22quoted%22.wav', 'audio/wav', 'RIFF\r\n--not-a-boundary']]);
    expect(out.declared).to.equal(out.length);
  });

  it('several files under one name go out as name[]', async () => {
    const out = await readBack({ image: [new FormFile('a.png', 'image/png', Buffer.from('A')), new FormFile('b.png', 'image/png', Buffer.from('B'))] });
    expect(out.files.map((f) => [f[0], f[3]])).to.deep.equal([['image[]', 'A'], ['image[]', 'B']]);
  });

  it('JSON sees a file as its descriptor (name, type, size, digest), never its bytes', () => {
    const file = new FormFile('x.wav', 'audio/wav', Buffer.from('abc'));
    expect(JSON.parse(JSON.stringify({ file }))).to.deep.equal({
      file: { filename: 'x.wav', content_type: 'audio/wav', bytes: 3, sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' },
    });
  });

  it('isFormBody: only bodies holding a file part', () => {
    expect(isFormBody({ model: 'm', file: new FormFile('f', 'a/b', Buffer.from('x')) })).to.equal(true);
    expect(isFormBody({ image: [new FormFile('f', 'a/b', Buffer.from('x'))] })).to.equal(true);
    expect(isFormBody({ model: 'm', file: { filename: 'f' } })).to.equal(false);
  });
});
