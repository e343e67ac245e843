/**
 * registerPolicyRoutes with a policy kind of the test's own ("quotas": a type and a positive
 * value, kept in memory), served by a real gateway: the five routes, 404s, 400s, paging, and the
 * kind's hooks (view, changes, afterUpdate, read).
 */
import { expect } from 'chai';
import { compile, Errors, json, StringEnum, Type, type PluginApi, type Static } from '../../../../core/index.js';
import { ConditionsSchema, type Condition } from '../../../../plugins/policies/limits-common/conditions.js';
import { registerPolicyRoutes, type PolicyRecords } from '../../../../plugins/policies/limits-common/policy-routes.js';
import { Workspaces } from '../../../../plugins/policies/limits-common/scope.js';
import type { PolicyListFilter } from '../../../../plugins/policies/limits-common/policy-table.js';
import { startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';

const BASE = '/v1/policies/quotas';

interface Quota {
  id: string;
  type: 'small' | 'large';
  value: number;
  status: string;
  organisation_id: string;
  workspace_id: string;
  conditions: Condition[];
  created_at: string;
}
type NewQuota = Pick<Quota, 'type' | 'value' | 'organisation_id' | 'workspace_id' | 'conditions'>;
type QuotaChanges = Partial<Pick<Quota, 'type' | 'value' | 'conditions' | 'status'>>;

const QuotaType = StringEnum(['small', 'large']);
const Value = Type.Number({ exclusiveMinimum: 0 });
const CreateBody = Type.Object({
  conditions: ConditionsSchema,
  type: QuotaType,
  value: Value,
  workspace_id: Type.Optional(Type.String({ minLength: 1 })),
  organisation_id: Type.Optional(Type.String({ minLength: 1 })),
}, { additionalProperties: false });
const UpdateBody = Type.Object({
  conditions: Type.Optional(ConditionsSchema),
  type: Type.Optional(QuotaType),
  value: Type.Optional(Value),
}, { additionalProperties: false });

/** The table, in memory, in creation order. */
class QuotaRecords implements PolicyRecords<Quota, NewQuota, QuotaChanges> {
  readonly rows = new Map<string, Quota>();
  #next = 0;

  async insert(quota: NewQuota): Promise<Quota> {
    const id = `q${++this.#next}`;
    const row: Quota = { id, status: 'active', created_at: new Date().toISOString(), ...quota };
    this.rows.set(id, row);
    return { ...row };
  }

  async get(id: string): Promise<Quota | undefined> {
    const row = this.rows.get(id);
    return row && { ...row };
  }

  async update(id: string, changes: QuotaChanges): Promise<Quota | undefined> {
    const row = this.rows.get(id);
    if (!row) return undefined;
    for (const [key, value] of Object.entries(changes)) if (value !== undefined) Object.assign(row, { [key]: value });
    return { ...row };
  }

  async list(filter: PolicyListFilter, offset: number, limit: number): Promise<{ data: Quota[]; total: number }> {
    const all = [...this.rows.values()].filter((q) => q.organisation_id === filter.organisationId && q.status === filter.status
      && (filter.workspaceId === undefined || q.workspace_id === filter.workspaceId)
      && (filter.type === undefined || q.type === filter.type));
    return { data: all.slice(offset, offset + limit), total: all.length };
  }
}

const records = new QuotaRecords();
const seen = { reloads: 0, updated: [] as string[] };

class QuotasPlugin {
  static readonly manifest = { id: 'test.quotas' };

  apply(api: PluginApi): void {
    const quotas = registerPolicyRoutes(api.registries.routes, {
      path: BASE,
      family: 'quotas',
      noun: 'quota',
      object: 'policy_quotas',
      types: ['small', 'large'],
      records,
      index: { changed: async () => void seen.reloads++ },
      workspaces: new Workspaces(() => undefined),
      create: { validator: compile(CreateBody), issues: (b: Static<typeof CreateBody>) => (b.type === 'small' && b.value > 10 ? [{ path: 'value', rule: 'small quotas are at most 10' }] : []) },
      update: { validator: compile(UpdateBody) },
      newPolicy: (body, owner) => ({ type: body.type, value: body.value, ...owner }),
      changes: async (body, quota, conditions) => {
        // A rule that needs the stored record.
        if ((body.type ?? quota.type) === 'small' && (body.value ?? quota.value) > 10) throw Errors.invalidBody('value', 'small quotas are at most 10');
        return { type: body.type, value: body.value, conditions: body.conditions && (await conditions(body.conditions)) };
      },
      afterUpdate: async (updated) => void seen.updated.push(updated.id),
      view: (quota, at) => ({ ...quota, object: 'policy_quotas', viewed: typeof at === 'number' }),
    });
    // A route of the kind's own, reading through the shared lookup.
    api.registries.routes.add({
      method: 'GET', path: `${BASE}/:id/double`, body: 'none',
      handler: async (ctx) => json(200, { double: (await quotas.read(ctx)).value * 2 }),
    });
  }
}

async function call(gw: TestGateway, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(gw.url + path, {
    method,
    headers: { 'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

const QUOTA = { conditions: [{ key: 'endpoint_type', value: 'chatComplete' }], type: 'small', value: 5 };

describe('policies limits-common: registerPolicyRoutes', () => {
  let gw: TestGateway;

  before(async () => {
    gw = await startGateway({ plugins: [QuotasPlugin] });
  });
  after(async () => {
    await gw?.stop();
  });
  beforeEach(() => {
    records.rows.clear();
    seen.reloads = 0;
    seen.updated = [];
  });

  it('creates ({ id, object }) in the caller\'s default workspace, reloading the index; GET answers the view', async () => {
    const created = await call(gw, 'POST', BASE, QUOTA);
    expect(created.status).to.equal(200);
    expect(created.json).to.have.keys('id', 'object');
    expect(created.json.object).to.equal('policy_quotas');
    expect(seen.reloads).to.equal(1);

    const got = await call(gw, 'GET', `${BASE}/${created.json.id}`);
    expect(got.status).to.equal(200);
    expect(got.json).to.deep.include({ ...QUOTA, id: created.json.id, status: 'active', viewed: true });
    // The caller's default workspace (its id, when the directory knows it).
    expect(got.json.workspace_id).to.be.a('string').and.not.equal('');
  });

  it('updates with PUT (answering the view, after the kind\'s afterUpdate) and archives with DELETE', async () => {
    const { json: { id } } = await call(gw, 'POST', BASE, QUOTA);
    const updated = await call(gw, 'PUT', `${BASE}/${id}`, { type: 'large', value: 50 });
    expect(updated.status).to.equal(200);
    expect(updated.json).to.deep.include({ id, type: 'large', value: 50, conditions: QUOTA.conditions, viewed: true });
    expect(seen.updated).to.deep.equal([id]);

    const archived = await call(gw, 'DELETE', `${BASE}/${id}`);
    expect(archived).to.deep.equal({ status: 200, json: { id, object: 'policy_quotas', status: 'archived' } });
    expect(seen.reloads).to.equal(3);
    expect((await call(gw, 'GET', `${BASE}/${id}`)).status).to.equal(404);
    expect((await call(gw, 'GET', `${BASE}/${id}?status=archived`)).json.status).to.equal('archived');
    expect((await call(gw, 'PUT', `${BASE}/${id}`, { value: 1 })).status).to.equal(404);
    expect((await call(gw, 'DELETE', `${BASE}/${id}`)).status).to.equal(404);
  });

  it('answers 404 policy_not_found for an unknown id, on every route that takes one', async () => {
    for (const [method, body] of [['GET'], ['PUT', { value: 1 }], ['DELETE']] as const) {
      const reply = await call(gw, method, `${BASE}/nope`, body);
      expect(reply.status, method).to.equal(404);
      expect(reply.json.error).to.include({ code: 'policy_not_found', message: 'no active quota policy "nope"' });
    }
    const viaOwnRoute = await call(gw, 'GET', `${BASE}/nope/double?status=archived`);
    expect(viaOwnRoute.status).to.equal(404);
    expect(viaOwnRoute.json.error.message).to.equal('no archived quota policy "nope"');
  });

  it('answers 400 naming the field: schema, rules across fields, rules against the stored record', async () => {
    const bad = await call(gw, 'POST', BASE, { ...QUOTA, value: -1 });
    expect(bad.status).to.equal(400);
    expect(bad.json.error).to.include({ code: 'invalid_body', param: 'value' });
    expect(bad.json.error.message).to.match(/^body\.value: /);

    const unknown = await call(gw, 'POST', BASE, { ...QUOTA, colour: 'red' });
    expect(unknown.status).to.equal(400);

    const across = await call(gw, 'POST', BASE, { ...QUOTA, value: 11 });
    expect(across.json.error).to.include({ param: 'value', message: 'body.value: small quotas are at most 10' });

    const { json: { id } } = await call(gw, 'POST', BASE, QUOTA);
    const stored = await call(gw, 'PUT', `${BASE}/${id}`, { value: 20 });
    expect(stored.status).to.equal(400);
    expect(stored.json.error).to.include({ param: 'value', message: 'body.value: small quotas are at most 10' });
    expect((await call(gw, 'PUT', `${BASE}/${id}`, { type: 'huge' })).json.error.param).to.equal('type');
    expect(records.rows.get(id)).to.include({ type: 'small', value: 5 });
    expect((await call(gw, 'GET', `${BASE}?status=deleted`)).json.error.message).to.equal('query.status: must be one of active, archived');
    expect((await call(gw, 'GET', `${BASE}?type=tiny`)).json.error.message).to.equal('query.type: must be one of small, large');
  });

  it('lists in pages ({ object: list, total_count, current_page, page_size, data }), filtered by status and type', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await call(gw, 'POST', BASE, { ...QUOTA, type: i < 3 ? 'small' : 'large' })).json.id);
    await call(gw, 'DELETE', `${BASE}/${ids[0]}`);

    const page0 = await call(gw, 'GET', `${BASE}?page_size=2`);
    expect(page0.status).to.equal(200);
    expect(page0.json).to.include({ object: 'list', total_count: 4, current_page: 0, page_size: 2 });
    expect(page0.json.data.map((q: Quota) => q.id)).to.deep.equal(ids.slice(1, 3));
    expect(page0.json.data[0].viewed).to.equal(true);
    const page1 = await call(gw, 'GET', `${BASE}?page_size=2&current_page=1`);
    expect(page1.json.data.map((q: Quota) => q.id)).to.deep.equal(ids.slice(3, 5));
    expect((await call(gw, 'GET', `${BASE}?page_size=2&current_page=2`)).json.data).to.deep.equal([]);

    expect((await call(gw, 'GET', `${BASE}?type=large`)).json.total_count).to.equal(2);
    const archived = await call(gw, 'GET', `${BASE}?status=archived`);
    expect(archived.json.data.map((q: Quota) => q.id)).to.deep.equal([ids[0]]);
    expect((await call(gw, 'GET', `${BASE}?page_size=0`)).status).to.equal(400);
  });

  it('serves the kind\'s own routes through read()', async () => {
    const { json: { id } } = await call(gw, 'POST', BASE, QUOTA);
    expect(await call(gw, 'GET', `${BASE}/${id}/double`)).to.deep.equal({ status: 200, json: { double: 10 } });
  });
});
