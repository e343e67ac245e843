/** feature.batches: the JSONL reader, input line checks, the validating pass and the create-body rules. */
import { expect } from 'chai';
import { jsonlLines, type RawLine } from '../../../../plugins/features/batches/jsonl.js';
import { parseLine } from '../../../../plugins/features/batches/input.js';
import { validateInput } from '../../../../plugins/features/batches/validate-input.js';
import { metadataIssue, parseCreateBody, parseListQuery } from '../../../../plugins/features/batches/body.js';

async function* chunks(...parts: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const p of parts) yield typeof p === 'string' ? Buffer.from(p, 'utf8') : p;
}

async function collect(source: AsyncIterable<Uint8Array>, max = 1024): Promise<RawLine[]> {
  const out: RawLine[] = [];
  for await (const line of jsonlLines(source, max)) out.push(line);
  return out;
}

const ENDPOINT = '/v1/chat/completions';
const good = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ custom_id: id, method: 'POST', url: ENDPOINT, body: { model: 'm', messages: [] }, ...extra });

describe('feature.batches input', () => {
  describe('jsonlLines', () => {
    it('splits lines across chunk boundaries, numbering from 1, with or without a final newline', async () => {
      expect(await collect(chunks('a\nb', 'c\n', 'd'))).to.deep.equal([{ no: 1, text: 'a' }, { no: 2, text: 'bc' }, { no: 3, text: 'd' }]);
      expect(await collect(chunks('a\n'))).to.deep.equal([{ no: 1, text: 'a' }]);
      expect(await collect(chunks(''))).to.deep.equal([]);
    });

    it('accepts CRLF endings and keeps blank lines (numbering stays physical)', async () => {
      expect(await collect(chunks('a\r\n\r\nb\r\n'))).to.deep.equal([{ no: 1, text: 'a' }, { no: 2, text: '' }, { no: 3, text: 'b' }]);
    });

    it('decodes a multi-byte character split between chunks', async () => {
      const bytes = Buffer.from('é€😀\n', 'utf8');
      expect(await collect(chunks(bytes.subarray(0, 1), bytes.subarray(1, 4), bytes.subarray(4)))).to.deep.equal([{ no: 1, text: 'é€😀' }]);
    });

    it('reports a line that is not UTF-8 and goes on', async () => {
      const lines = await collect(chunks(Buffer.from([0x61, 0xff, 0x0a]), 'ok\n'));
      expect(lines).to.deep.equal([{ no: 1, error: 'invalid_utf8' }, { no: 2, text: 'ok' }]);
    });

    it('reports an over-long line without buffering it, and goes on', async () => {
      const lines = await collect(chunks('x'.repeat(10), 'x'.repeat(10), '\nshort\n', 'y'.repeat(30)), 16);
      expect(lines).to.deep.equal([{ no: 1, error: 'line_too_long' }, { no: 2, text: 'short' }, { no: 3, error: 'line_too_long' }]);
    });
  });

  describe('parseLine', () => {
    const check = (text: string) => parseLine({ no: 7, text }, ENDPOINT, 128);

    it('accepts {custom_id, method, url, body}', () => {
      expect(check(good('a'))).to.deep.equal({ no: 7, customId: 'a', body: { model: 'm', messages: [] } });
    });

    it('names the rule each bad line breaks, with its line number', () => {
      const cases: [string, string, string | null][] = [
        ['{not json', 'invalid_json_line', null],
        ['[1,2]', 'invalid_request', null],
        [good('', {}), 'missing_required_parameter', 'custom_id'],
        [JSON.stringify({ method: 'POST', url: ENDPOINT, body: {} }), 'missing_required_parameter', 'custom_id'],
        [good('a', { method: 'GET' }), 'invalid_method', 'method'],
        [good('a', { url: '/v1/embeddings' }), 'invalid_url', 'url'],
        [good('a', { body: 'text' }), 'missing_required_parameter', 'body'],
        [good('a', { body: { model: 'm', stream: true } }), 'invalid_body', 'body.stream'],
      ];
      for (const [text, code, param] of cases) {
        expect(check(text), text).to.deep.include({ code, param, line: 7 });
      }
      expect(parseLine({ no: 3, error: 'invalid_utf8' }, ENDPOINT, 128)).to.deep.include({ code: 'invalid_encoding', line: 3 });
    });

    it('refuses a line nested deeper than the JSON depth limit before parsing it', () => {
      const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
      const tooDeep = check(good('a', { body: { model: 'm', messages: [], extra: '__DEEP__' } }).replace('"__DEEP__"', deep(5_000)));
      expect(tooDeep).to.deep.include({ code: 'invalid_json_line', line: 7 });
      expect((tooDeep as { message: string }).message).to.equal('line: nesting deeper than 128 levels (GW_JSON_MAX_DEPTH)');
      // The line object is level 1 and body level 2: 126 more levels reach the limit exactly.
      const atLimit = check(good('a', { body: { model: 'm', messages: [], extra: '__DEEP__' } }).replace('"__DEEP__"', deep(126)));
      expect(atLimit).to.have.property('customId', 'a');
    });
  });

  describe('validateInput', () => {
    const limits = { maxLines: 5, maxLineBytes: 4096, maxJsonDepth: 128, maxReported: 2 };
    const run = (text: string, l = limits) => validateInput(chunks(text), ENDPOINT, l, () => false);

    it('counts requests and skips blank lines', async () => {
      expect(await run(`${good('a')}\n\n${good('b')}\n`)).to.deep.equal({ total: 2, errors: [] });
    });

    it('reports duplicate custom_ids and caps the reported problems', async () => {
      const verdict = await run(`${good('a')}\n${good('a')}\nnope\nnope\n`);
      expect(verdict.errors).to.have.length(2);
      expect(verdict.errors[0]).to.deep.include({ code: 'duplicate_custom_id', line: 2, param: 'custom_id' });
      expect(verdict.errors[1]).to.deep.include({ code: 'invalid_json_line', line: 3 });
    });

    it('fails an empty file and one with too many requests', async () => {
      expect((await run('\n\n')).errors).to.deep.equal([{ code: 'empty_file', message: 'the input file holds no requests', param: null, line: null }]);
      const many = Array.from({ length: 6 }, (_, i) => good(`r${i}`)).join('\n');
      expect((await run(many)).errors[0]).to.deep.include({ code: 'too_many_requests', line: null });
    });
  });

  describe('create body', () => {
    const body = { input_file_id: 'file-1', endpoint: '/v1/embeddings', completion_window: '24h' };
    const message = (value: unknown) => {
      try {
        parseCreateBody(value);
        return 'ok';
      } catch (e) {
        return (e as Error).message;
      }
    };

    it('accepts the three endpoints, both windows, metadata and unknown extra keys', () => {
      expect(parseCreateBody({ ...body, metadata: { a: 'b' }, output_expires_after: { anchor: 'created_at', seconds: 3600 } }))
        .to.deep.equal({ ...body, metadata: { a: 'b' } });
      expect(parseCreateBody({ ...body, endpoint: '/v1/chat/completions', completion_window: 'immediate', metadata: null }).metadata).to.equal(null);
    });

    it('names the field and the rule', () => {
      expect(message([])).to.equal('body: must be a JSON object');
      const { input_file_id: _omitted, ...withoutFile } = body;
      expect(message(withoutFile)).to.equal('body.input_file_id: is required');
      expect(message({ ...body, input_file_id: '' })).to.equal('body.input_file_id: must be a non-empty string');
      expect(message({ ...body, endpoint: '/v1/moderations' })).to.equal('body.endpoint: must be one of "/v1/chat/completions", "/v1/completions", "/v1/embeddings"');
      expect(message({ ...body, completion_window: '48h' })).to.equal('body.completion_window: must be one of "24h", "immediate"');
    });

    it('enforces the metadata limits of spec §8 (16 pairs, keys <= 64, values <= 512)', () => {
      const pairs = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));
      expect(metadataIssue(pairs(16))).to.equal(undefined);
      expect(metadataIssue(pairs(17))).to.deep.equal({ path: 'metadata', rule: 'must have at most 16 key-value pairs' });
      expect(metadataIssue({ ['k'.repeat(64)]: 'v' })).to.equal(undefined);
      expect(metadataIssue({ ['k'.repeat(65)]: 'v' })?.rule).to.match(/must be at most 64 characters/);
      expect(metadataIssue({ a: 'v'.repeat(512) })).to.equal(undefined);
      expect(metadataIssue({ a: 'v'.repeat(513) })).to.deep.equal({ path: 'metadata.a', rule: 'must be at most 512 characters' });
      expect(metadataIssue({ a: 1 })).to.deep.equal({ path: 'metadata.a', rule: 'must be a string' });
      expect(metadataIssue(['a'])?.path).to.equal('metadata');
      expect(message({ ...body, metadata: pairs(17) })).to.equal('body.metadata: must have at most 16 key-value pairs');
    });

    it('reads the list query: limit 1..100 (default 20), after', () => {
      expect(parseListQuery(new URLSearchParams())).to.deep.equal({ after: undefined, limit: 20 });
      expect(parseListQuery(new URLSearchParams('limit=100&after=batch_x'))).to.deep.equal({ after: 'batch_x', limit: 100 });
      for (const bad of ['0', '101', 'x', '2.5']) {
        expect(() => parseListQuery(new URLSearchParams(`limit=${bad}`))).to.throw('query.limit: must be an integer from 1 to 100');
      }
    });
  });
});
