/** observe.logs building blocks: usage scan, redaction, the drop-oldest queue, visibility kinds and flags. */
import { expect } from 'chai';
import { DropOldestQueue } from '../../../../plugins/observe/logs/queue.js';
import { redact, REDACTED } from '../../../../plugins/observe/logs/redact.js';
import { usageFromJson, usageFromSseTail, usageFromValue } from '../../../../plugins/observe/logs/usage.js';
import { flag, viewerKind } from '../../../../plugins/observe/logs/visibility.js';
import { parseFilter, toWhere } from '../../../../plugins/observe/logs/filter.js';
import { uuidv7 } from '../../../../plugins/observe/logs/ids.js';
import { COLUMNS, MAX_ROWS_PER_INSERT } from '../../../../plugins/observe/logs/schema.js';
import { LogStore } from '../../../../plugins/observe/logs/store.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('observe.logs units', () => {
  describe('usage', () => {
    it('reads the last usage object of a JSON answer, from bytes or a string', () => {
      const body = JSON.stringify({ id: 'x', choices: [{ message: { content: 'say "usage": {"prompt_tokens": 999}' } }], usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } });
      expect(usageFromJson(bytes(body))).to.deep.equal({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
      expect(usageFromJson(body)).to.deep.equal({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
    });

    it('reads a string answer with non-ASCII text and fields after the usage (hook_results spliced in)', () => {
      const body = JSON.stringify({
        choices: [{ message: { content: 'déjà vu 🙂 "usage": {"prompt_tokens": 1}' } }],
        usage: { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 },
        hook_results: { before_request_hooks: [{ id: 'h', checks: [{ data: { match: 'ü "usage": {"x": 1}' } }] }] },
      });
      expect(usageFromJson(body)).to.deep.equal({ prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 });
      expect(usageFromJson(bytes(body))).to.deep.equal({ prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 });
    });

    it('reads the usage of an answer already parsed', () => {
      expect(usageFromValue({ choices: [], usage: { prompt_tokens: 2, completion_tokens: 3 } })).to.deep.equal({ prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 });
      expect(usageFromValue({ usage: null })).to.equal(undefined);
      expect(usageFromValue({ usage: [1] })).to.equal(undefined);
      expect(usageFromValue('text')).to.equal(undefined);
      expect(usageFromValue(null)).to.equal(undefined);
    });

    it('accepts the Responses API names and fills a missing total', () => {
      expect(usageFromJson('{"usage":{"input_tokens":4,"output_tokens":5}}')).to.deep.equal({ prompt_tokens: 4, completion_tokens: 5, total_tokens: 9 });
      expect(usageFromJson('{"usage":{"prompt_tokens":4,"total_tokens":4}}')).to.deep.equal({ prompt_tokens: 4, completion_tokens: null, total_tokens: 4 });
    });

    it('is undefined without usage, with usage null, or with a body cut short', () => {
      expect(usageFromJson('{"id":"x"}')).to.equal(undefined);
      expect(usageFromJson('{"usage":null}')).to.equal(undefined);
      expect(usageFromJson('{"usage":{"prompt_tokens":4,')).to.equal(undefined);
      expect(usageFromJson('not json "usage": {oops}')).to.equal(undefined);
    });

    it('finds the usage chunk at the end of a stream, skipping usage: null chunks and split events', () => {
      const chunk = (o: unknown) => `data: ${JSON.stringify(o)}\n\n`;
      const usage = chunk({ choices: [], usage: { prompt_tokens: 2, completion_tokens: 8, total_tokens: 10 } });
      const tail = [chunk({ choices: [{ delta: { content: 'hi' } }], usage: null }), usage.slice(0, 25), usage.slice(25) + 'data: [DONE]\n\n'];
      expect(usageFromSseTail(tail.map(bytes))).to.deep.equal({ prompt_tokens: 2, completion_tokens: 8, total_tokens: 10 });
      expect(usageFromSseTail([bytes(chunk({ choices: [], usage: null })), bytes('data: [DONE]\n\n')])).to.equal(undefined);
      expect(usageFromSseTail([])).to.equal(undefined);
    });
  });

  describe('redact', () => {
    it('replaces values under secret keys and masks credential-looking strings, without touching the input', () => {
      const input = {
        model: 'gpt-4o', max_tokens: 10,
        messages: [{ role: 'user', content: 'my key is sk-abcdefghijklmnopqrstuvwx, ok?' }],
        api_key: 'sk-live', nested: { Authorization: 'Bearer abc.def.ghi', client_secret: 'x', password: '' },
        header: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXZhbHVl',
        auth: { type: 'bearer', token: 'plain-upstream-token' },
      };
      const copy = structuredClone(input);
      const out = redact(input) as typeof input;
      expect(input).to.deep.equal(copy);
      expect(out.model).to.equal('gpt-4o');
      expect(out.max_tokens).to.equal(10);
      expect(out.messages[0]!.content).to.equal(`my key is ${REDACTED}, ok?`);
      expect(out.api_key).to.equal(REDACTED);
      expect(out.nested).to.deep.equal({ Authorization: REDACTED, client_secret: REDACTED, password: '' });
      expect(out.header).to.equal(REDACTED);
      // An MCP server's bearer token (POST /v1/mcp-servers) looks like nothing in particular.
      expect(out.auth).to.deep.equal({ type: 'bearer', token: REDACTED });
    });
  });

  describe('DropOldestQueue', () => {
    it('keeps the newest entries and counts the shed ones', () => {
      const q = new DropOldestQueue<number>(3);
      for (let i = 1; i <= 5; i++) q.push(i);
      expect(q.size).to.equal(3);
      expect(q.dropped).to.equal(2);
      expect(q.take(2)).to.deep.equal([3, 4]);
      q.push(6);
      q.push(7);
      expect(q.take(10)).to.deep.equal([5, 6, 7]);
      expect(q.size).to.equal(0);
      expect(q.dropped).to.equal(2);
    });

    it('refuses a capacity below 1', () => {
      expect(() => new DropOldestQueue(0)).to.throw(/positive/);
    });
  });

  describe('visibility', () => {
    it('names the viewer as core/authz reads roles', () => {
      const p = (x: object) => ({ keyId: 'k', scopes: [], type: 'organisation-service', ...x });
      expect(viewerKind(p({ type: 'organisation-owner' }))).to.equal('owner');
      expect(viewerKind(p({ role: 'owner' }))).to.equal('owner');
      expect(viewerKind(p({ role: 'admin' }))).to.equal('organisation-admin');
      expect(viewerKind(p({ role: 'admin', workspaceId: 'w' }))).to.equal('workspace-admin');
      expect(viewerKind(p({ type: 'workspace-user', role: 'manager', workspaceId: 'w' }))).to.equal('manager');
      expect(viewerKind(p({ type: 'workspace-user', workspaceId: 'w' }))).to.equal('member');
      expect(viewerKind(p({ type: 'workspace-service', workspaceId: 'w' }))).to.equal('service');
    });

    it('reads flags directly or under data_visibility, defaulting to true', () => {
      expect(flag({}, 'membersViewAllData')).to.equal(true);
      expect(flag({ membersViewAllData: false }, 'membersViewAllData')).to.equal(false);
      expect(flag({ data_visibility: { membersViewAllData: false } }, 'membersViewAllData')).to.equal(false);
      expect(flag({ membersViewAllData: 'no' }, 'membersViewAllData')).to.equal(true);
    });
  });

  describe('filters', () => {
    it('always starts with the caller\'s scope and matches metadata on the stored JSON text, LIKE-escaped', () => {
      const filter = parseFilter(new URLSearchParams({ status_code: '200,429', metadata: JSON.stringify({ team: '50%_off' }) }));
      const where = toWhere(filter, { organisationId: 'o', workspaceId: 'w', keyIds: ['k1'], showMetadata: true });
      expect(where.sql).to.equal("organisation_id = ? AND workspace_id = ? AND api_key_id IN (?) AND status IN (?, ?) AND metadata LIKE ? ESCAPE '\\'");
      expect(where.params).to.deep.equal(['o', 'w', 'k1', 200, 429, '%"team":"50\\%\\_off"%']);
    });
  });
});

describe('observe.logs storage units', () => {
  it('makes time-ordered UUIDv7 ids', () => {
    const a = uuidv7(1_700_000_000_000);
    const b = uuidv7(1_700_000_000_001);
    expect(a).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a.slice(0, 13)).to.equal('018bcfe5-6800');
    expect(a < b).to.equal(true);
    expect(uuidv7(1_700_000_000_000)).not.to.equal(a);
  });

  it('counts up within a millisecond, so ids of one millisecond sort in the order they were made', () => {
    const ids = Array.from({ length: 1000 }, () => uuidv7(1_700_000_000_123));
    expect([...ids].sort()).to.deep.equal(ids);
    expect(new Set(ids).size).to.equal(1000);
    for (const id of ids) expect(id).to.match(/^018bcfe5-687b-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('writes a batch as multi-row INSERTs of power-of-two sizes, reusing their texts', async () => {
    const statements: { sql: string; params: readonly unknown[] }[] = [];
    const store = {
      kind: 'fake', dialect: 'sqlite' as const, migrate: async () => {}, transaction: async () => { throw new Error('unused'); }, get: async () => undefined, all: async () => [], writable: async () => true,
      run: async (sql: string, params: readonly unknown[] = []) => {
        statements.push({ sql, params });
        return { changes: 0 };
      },
    };
    const logs = new LogStore(store);
    const row = (i: number) => COLUMNS.map((c) => (c === 'id' ? `id-${i}` : null));
    await logs.insert(Array.from({ length: 7 }, (_, i) => row(i)));
    expect(statements.map((s) => s.params.length / COLUMNS.length)).to.deep.equal([4, 2, 1]);
    expect(statements.flatMap((s) => s.params.filter((p) => typeof p === 'string'))).to.deep.equal(['id-0', 'id-1', 'id-2', 'id-3', 'id-4', 'id-5', 'id-6']);
    await logs.insert(Array.from({ length: 4 }, (_, i) => row(i)));
    expect(statements[3]!.sql).to.equal(statements[0]!.sql);
    expect(MAX_ROWS_PER_INSERT * COLUMNS.length).to.be.at.most(32_766);
  });
});
