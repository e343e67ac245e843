/**
 * observe.feedback end to end: feedback posted by trace id over HTTP, shown with the request's log
 * (GET /v1/logs/:id `feedback`), counted by GET /v1/analytics/graphs/feedbacks; workspace
 * boundaries, scopes, and every bad input a 400 naming the field. Real gateway, loopback mock
 * provider; the control plane is stood in for (principals from a test header, ../logs/harness.ts).
 */
import { expect } from 'chai';
import AnalyticsPlugin from '../../../../plugins/observe/analytics/index.js';
import FeedbackPlugin from '../../../../plugins/observe/feedback/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, postJson, TEST_API_KEY, type JsonReply, type TestGateway } from '../../../helpers/gateway.js';
import { fakeControlPlane, getJson, logService, mockHeaders, principalHeader, startObserved, type ControlPlaneState } from '../logs/harness.js';

const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';
const PEOPLE = {
  owner: { keyId: 'key-owner', type: 'organisation-owner' },
  w1: { keyId: 'key-w1', type: 'workspace-service', workspaceId: W1 },
  w2: { keyId: 'key-w2', type: 'workspace-service', workspaceId: W2 },
  stranger: { keyId: 'key-stranger', type: 'organisation-owner', organisationId: 'org-2' },
  readOnly: { keyId: 'key-read', type: 'workspace-service', workspaceId: W1, scopes: ['logs.view', 'logs.list', 'analytics.view'] },
  memberA: { keyId: 'key-member-a', role: 'member', workspaceId: W1, userId: 'user-a' },
} as const;
type Person = keyof typeof PEOPLE;
const as = (who: Person) => principalHeader(PEOPLE[who]);

describe('observe.feedback (end to end)', () => {
  let mock: MockOpenAI;
  let gw: TestGateway;
  const state: ControlPlaneState = {
    settings: { '': {} },
    workspaces: [
      { id: W1, slug: 'ws-one', organisation_id: 'org-1', status: 'active' },
      { id: W2, slug: 'ws-two', organisation_id: 'org-1', status: 'active' },
    ],
    keyNames: {},
  };
  const feedback = (body: unknown, who: Person = 'owner') => postJson(gw.url, '/v1/feedback', body, { 'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, ...as(who) });
  const update = async (id: string, body: unknown, who: Person = 'owner'): Promise<JsonReply> => {
    const res = await fetch(`${gw.url}/v1/feedback/${id}`, { method: 'PUT', headers: { 'content-type': 'application/json', ...as(who) }, body: JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: JSON.parse(text), text };
  };
  /** One chat request under `traceId`, by `who`; its log written. */
  const request = async (traceId: string, who: Person = 'owner') => {
    const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock, { ...as(who), 'x-gw-trace-id': traceId }));
    expect(reply.status).to.equal(200);
    await logService(gw).flush();
  };
  const logOf = async (traceId: string, who: Person = 'owner') => {
    const list = await getJson(gw.url, `/v1/logs?trace_id=${traceId}`, as(who));
    expect(list.status, JSON.stringify(list.json)).to.equal(200);
    expect(list.json.data).to.have.length(1);
    const detail = await getJson(gw.url, `/v1/logs/${list.json.data[0].id}`, as(who));
    expect(detail.status).to.equal(200);
    return detail.json;
  };
  const graph = async (query = '', who: Person = 'owner') => {
    const reply = await getJson(gw.url, `/v1/analytics/graphs/feedbacks${query}`, as(who));
    expect(reply.status, JSON.stringify(reply.json)).to.equal(200);
    return reply.json;
  };

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startObserved({ extra: [fakeControlPlane(state), AnalyticsPlugin, FeedbackPlugin] });
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });

  it('records feedback by trace id and shows it with the request\'s log', async () => {
    await request('trace-fb-1');
    const reply = await feedback({ trace_id: 'trace-fb-1', value: 5, weight: 0.5, metadata: { comment: 'good', _user: 'u1' } });
    expect(reply.status, reply.text).to.equal(200);
    expect(reply.json).to.deep.include({ status: 'success', message: 'feedback recorded' });
    expect(reply.json.feedback_ids).to.have.length(1);
    const log = await logOf('trace-fb-1');
    expect(log.feedback).to.have.length(1);
    expect(log.feedback[0]).to.deep.include({ id: reply.json.feedback_ids[0], value: 5, weight: 0.5, metadata: { comment: 'good', _user: 'u1' }, api_key_id: 'key-owner' });
    expect(Date.parse(log.feedback[0].created_at)).to.be.closeTo(Date.now(), 60_000);
    // weight defaults to 1, metadata to null; several feedback on one trace are listed in order.
    const second = await feedback({ trace_id: 'trace-fb-1', value: -2 });
    expect((await logOf('trace-fb-1')).feedback.map((f: { value: number; weight: number; metadata: unknown }) => [f.value, f.weight, f.metadata]))
      .to.deep.equal([[5, 0.5, { comment: 'good', _user: 'u1' }], [-2, 1, null]]);
    expect(second.json.feedback_ids[0]).to.not.equal(reply.json.feedback_ids[0]);
  });

  it('feedback sent before the log is written attaches once it is; a log without feedback shows []', async () => {
    expect((await feedback({ trace_id: 'trace-early', value: 1 })).status).to.equal(200);
    await request('trace-early');
    expect((await logOf('trace-early')).feedback.map((f: { value: number }) => f.value)).to.deep.equal([1]);
    await request('trace-none');
    expect((await logOf('trace-none')).feedback).to.deep.equal([]);
  });

  it('takes an array and answers the ids in the same order', async () => {
    await request('trace-batch');
    const reply = await feedback([{ trace_id: 'trace-batch', value: 10 }, { trace_id: 'trace-batch', value: -10, weight: 0 }]);
    expect(reply.status, reply.text).to.equal(200);
    expect(reply.json.message).to.equal('2 feedback recorded');
    const ids = reply.json.feedback_ids;
    expect((await logOf('trace-batch')).feedback.map((f: { id: string; value: number }) => [f.id, f.value])).to.deep.equal([[ids[0], 10], [ids[1], -10]]);
  });

  it('PUT /v1/feedback/:id changes value, weight or metadata; unknown or out-of-reach ids are 404', async () => {
    await request('trace-put', 'w1');
    const id = (await feedback({ trace_id: 'trace-put', value: 3 }, 'w1')).json.feedback_ids[0];
    const changed = await update(id, { value: -3, metadata: { edited: true } }, 'w1');
    expect(changed.status, changed.text).to.equal(200);
    expect(changed.json).to.deep.equal({ status: 'success', message: 'feedback updated', feedback_ids: [id] });
    expect((await logOf('trace-put', 'w1')).feedback[0]).to.deep.include({ value: -3, weight: 1, metadata: { edited: true } });
    expect((await update(id, { weight: 0.2 }, 'owner')).status, 'organisation-level key').to.equal(200);
    expect((await update(id, { value: 1 }, 'w2')).status, 'another workspace').to.equal(404);
    expect((await update(id, { value: 1 }, 'stranger')).status, 'another organisation').to.equal(404);
    const unknown = await update('00000000-0000-7000-8000-000000000000', { value: 1 });
    expect(unknown.status).to.equal(404);
    expect(unknown.json.error.code).to.equal('feedback_not_found');
    expect((await logOf('trace-put', 'w1')).feedback[0]).to.deep.include({ value: -3, weight: 0.2 });
  });

  it('keeps workspace and organisation boundaries: only the log\'s workspace and organisation-level feedback attach', async () => {
    await request('trace-ws', 'w1');
    await feedback({ trace_id: 'trace-ws', value: 1 }, 'w1');
    await feedback({ trace_id: 'trace-ws', value: 2 }, 'owner');
    await feedback({ trace_id: 'trace-ws', value: 3 }, 'w2');
    await feedback({ trace_id: 'trace-ws', value: 4 }, 'stranger');
    expect((await logOf('trace-ws', 'w1')).feedback.map((f: { value: number }) => f.value)).to.deep.equal([1, 2]);
    expect((await logOf('trace-ws', 'owner')).feedback.map((f: { value: number }) => f.value)).to.deep.equal([1, 2]);
  });

  it('counts feedback in analytics: total, mean value and mean weighted value, per day, within the caller\'s reach', async () => {
    const before = await graph();
    await feedback([{ trace_id: 'trace-an', value: 10, weight: 1 }, { trace_id: 'trace-an', value: -10, weight: 0.25 }, { trace_id: 'trace-an', value: 4, weight: 0 }]);
    const after = await graph();
    expect(after.object).to.equal('analytics-graph');
    expect(after.summary.total).to.equal(before.summary.total + 3);
    // Checked against the same figures computed here from every feedback the owner sees.
    const all = await feedbackOfOrg();
    const mean = all.reduce((s, f) => s + f.value, 0) / all.length;
    const weights = all.reduce((s, f) => s + f.weight, 0);
    const weighted = all.reduce((s, f) => s + f.value * f.weight, 0) / weights;
    expect(after.summary.average_value).to.be.closeTo(mean, 1e-6);
    expect(after.summary.weighted_average_value).to.be.closeTo(weighted, 1e-6);
    const today = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000).toISOString();
    expect(after.data_points.at(-1)).to.deep.include({ timestamp: today, total: after.summary.total });

    // A time range that ends before today counts nothing; one that starts now counts nothing before it.
    expect((await graph('?time_of_generation_max=2020-01-01T00:00:00Z')).summary).to.deep.equal({ total: 0, average_value: null, weighted_average_value: null });
    expect((await graph('?time_of_generation_max=2020-01-01T00:00:00Z')).data_points).to.deep.equal([]);
    const from = Date.now() + 1;
    await new Promise((r) => setTimeout(r, 5));
    await feedback({ trace_id: 'trace-an', value: 7, weight: 0 });
    expect((await graph(`?time_of_generation_min=${from}`)).summary).to.deep.equal({ total: 1, average_value: 7, weighted_average_value: null });

    // A workspace key counts its workspace's feedback only; another organisation sees none of these.
    const w2Before = (await graph('', 'w2')).summary.total;
    await feedback({ trace_id: 'trace-an-w2', value: -1 }, 'w2');
    expect((await graph('', 'w2')).summary).to.deep.include({ total: w2Before + 1 });
    expect((await graph(`?workspace_id=ws-two`)).summary.total).to.equal(w2Before + 1);
    expect((await graph('', 'stranger')).summary.total).to.equal(1); // its own, from the boundaries test
  });

  it('members who see only their own keys count only their own keys\' feedback', async () => {
    state.settings = { '': { membersViewAllData: false } };
    try {
      expect((await graph('', 'memberA')).summary.total).to.equal(0);
      await feedback({ trace_id: 'trace-member', value: 2 }, 'memberA');
      expect((await graph('', 'memberA')).summary).to.deep.equal({ total: 1, average_value: 2, weighted_average_value: 2 });
    } finally {
      state.settings = { '': {} };
    }
  });

  describe('bad input: 400 in the envelope naming the field and the rule', () => {
    const cases: [string, unknown, string, string][] = [
      ['no trace_id', { value: 1 }, 'trace_id', 'is required'],
      ['an empty trace_id', { trace_id: '', value: 1 }, 'trace_id', 'must be a string of 1 to 128 characters'],
      ['a trace_id that is not a string', { trace_id: 7, value: 1 }, 'trace_id', 'must be a string'],
      ['no value', { trace_id: 't' }, 'value', 'is required'],
      ['value above 10', { trace_id: 't', value: 11 }, 'value', 'must be an integer from -10 to 10'],
      ['value below -10', { trace_id: 't', value: -11 }, 'value', 'must be an integer from -10 to 10'],
      ['value a fraction', { trace_id: 't', value: 1.5 }, 'value', 'must be an integer from -10 to 10'],
      ['value a string', { trace_id: 't', value: '5' }, 'value', 'must be an integer from -10 to 10'],
      ['weight above 1', { trace_id: 't', value: 1, weight: 2 }, 'weight', 'must be a number from 0 to 1'],
      ['weight below 0', { trace_id: 't', value: 1, weight: -0.1 }, 'weight', 'must be a number from 0 to 1'],
      ['metadata an array', { trace_id: 't', value: 1, metadata: ['x'] }, 'metadata', 'must be a JSON object'],
      ['metadata too large', { trace_id: 't', value: 1, metadata: { text: 'x'.repeat(17_000) } }, 'metadata', 'must be at most 16384 characters as JSON'],
      ['an unknown field', { trace_id: 't', value: 1, score: 3 }, 'score', ''],
      ['a body that is not an object', '"five"', '', 'must be a JSON object'],
      ['a body of null', 'null', '', 'must be a JSON object'],
      ['an empty array', [], '', 'must be a feedback object or an array of 1 to 100 of them'],
      ['a bad item of an array', [{ trace_id: 't', value: 1 }, { trace_id: 't', value: 99 }], '1.value', 'must be an integer from -10 to 10'],
    ];
    for (const [name, body, param, rule] of cases) {
      it(name, async () => {
        const reply = await feedback(body);
        expect(reply.status, reply.text).to.equal(400);
        expect(reply.json.error.message).to.contain(param);
        expect(reply.json.error.message).to.contain(rule);
        if (param) expect(reply.json.error.param).to.equal(param);
      });
    }

    it('nothing of a refused array is stored', async () => {
      const before = (await graph()).summary.total;
      expect((await feedback([{ trace_id: 't', value: 1 }, { trace_id: 't' }])).status).to.equal(400);
      expect((await graph()).summary.total).to.equal(before);
    });

    it('PUT: an empty change, or a bad field', async () => {
      const id = (await feedback({ trace_id: 't-put-bad', value: 1 })).json.feedback_ids[0];
      const empty = await update(id, {});
      expect(empty.status).to.equal(400);
      expect(empty.json.error.message).to.contain('must set at least one of value, weight, metadata');
      const bad = await update(id, { weight: 'heavy' });
      expect(bad.status).to.equal(400);
      expect(bad.json.error.message).to.contain('weight: must be a number from 0 to 1');
      const traceChange = await update(id, { trace_id: 'other' });
      expect(traceChange.status).to.equal(400);
      expect(traceChange.json.error.message).to.contain('trace_id');
    });

    it('the analytics graph: unknown filters and bad times', async () => {
      for (const [query, message] of [
        ['?model=x', 'query.model: is not a known filter'],
        ['?time_of_generation_min=yesterday', 'query.time_of_generation_min: must be an ISO 8601 date-time'],
        ['?time_of_generation_min=2025-02-01T00:00:00Z&time_of_generation_max=2025-01-01T00:00:00Z', 'must not be after time_of_generation_max'],
      ] as const) {
        const reply = await getJson(gw.url, `/v1/analytics/graphs/feedbacks${query}`, as('owner'));
        expect(reply.status, query).to.equal(400);
        expect(reply.json.error.message).to.contain(message);
      }
    });
  });

  it('scopes: logs.write to write, analytics.view to count; no key is a 401', async () => {
    const refused = await feedback({ trace_id: 't', value: 1 }, 'readOnly');
    expect(refused.status).to.equal(403);
    expect(refused.json.error.message).to.contain('logs.write');
    const res = await fetch(`${gw.url}/v1/feedback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ trace_id: 't', value: 1 }) });
    expect(res.status).to.equal(401);
    const noAnalytics = await getJson(gw.url, '/v1/analytics/graphs/feedbacks', principalHeader({ keyId: 'k', type: 'workspace-service', workspaceId: W1, scopes: ['logs.write'] }));
    expect(noAnalytics.status).to.equal(403);
  });

  /** Every feedback of org-1 (the owner sees them all), read from the table: many have no log to read them through. */
  async function feedbackOfOrg(): Promise<{ value: number; weight: number }[]> {
    const { Services } = await import('../../../../core/index.js');
    const rows = await gw.gateway.runtime.services.get(Services.Records).all<{ value: number; weight: number }>(
      'SELECT value, weight FROM feedback WHERE organisation_id = ?', ['org-1'],
    );
    return rows.map((r) => ({ value: Number(r.value), weight: Number(r.weight) }));
  }
});

describe('observe.feedback not loaded', () => {
  it('logs carry no feedback field and the feedback graph names the plugin to load', async () => {
    const mock = await startMockOpenAI();
    const gw = await startObserved({ extra: [AnalyticsPlugin], disable: ['observe.feedback'] });
    try {
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock, { 'x-gw-trace-id': 'trace-no-fb' }));
      expect(reply.status).to.equal(200);
      await logService(gw).flush();
      const list = await getJson(gw.url, '/v1/logs?trace_id=trace-no-fb');
      const detail = await getJson(gw.url, `/v1/logs/${list.json.data[0].id}`);
      expect(detail.json).to.not.have.property('feedback');
      const graphReply = await getJson(gw.url, '/v1/analytics/graphs/feedbacks');
      expect(graphReply.status).to.equal(500);
      expect(graphReply.json.error.code).to.equal('plugin_not_loaded');
      expect(graphReply.json.error.message).to.contain('observe.feedback');
      expect((await postJson(gw.url, '/v1/feedback', { trace_id: 't', value: 1 }, { 'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY })).status).to.equal(404);
    } finally {
      await gw.stop();
      await mock.close();
    }
  });
});
