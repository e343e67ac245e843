/** feature.fine-tuning end to end: a real gateway in front of a mock provider speaking OpenAI's fine-tuning API. */
import { expect } from 'chai';
import OpenAI from 'openai';
import FineTuningPlugin from '../../../../plugins/features/fine-tuning/index.js';
import { configHeaders, postJson, startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { startMockOpenAIStateful, type MockOpenAIStateful } from '../../../fixtures/mock-openai-ft.js';

const JOBS = '/v1/fine_tuning/jobs';
const CREATE = Object.freeze({ model: 'gpt-4o-mini-2024-07-18', training_file: 'file-abc', suffix: 'support-bot', method: { type: 'supervised' } });

function direct(mock: MockOpenAIStateful, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-gw-api-key': TEST_API_KEY,
    'x-gw-provider': 'openai',
    authorization: 'Bearer sk-test',
    'x-gw-custom-host': `${mock.url}/v1`,
    ...extra,
  };
}

async function getJson(url: string, headers: Record<string, string>) {
  const res = await fetch(url, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: JSON.parse(text), text };
}

describe('feature.fine-tuning (end to end)', () => {
  let gw: TestGateway;
  let mock: MockOpenAIStateful;
  let sdk: OpenAI;

  before(async () => {
    mock = await startMockOpenAIStateful();
    gw = await startGateway({ plugins: [FineTuningPlugin] });
    sdk = new OpenAI({
      apiKey: 'sk-test', baseURL: `${gw.url}/v1`, maxRetries: 0,
      defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-provider': 'openai', 'x-gw-custom-host': `${mock.url}/v1` },
    });
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });
  beforeEach(() => {
    mock.reset();
    mock.jobs.length = 0;
  });

  describe('POST /v1/fine_tuning/jobs', () => {
    it('forwards the body unchanged with the provider key and answers the job', async () => {
      const text = JSON.stringify({ ...CREATE, validation_file: 'file-val', integrations: [{ type: 'wandb', wandb: { project: 'ft', tags: ['a'] } }], seed: 7 });
      const res = await postJson(gw.url, JOBS, text, direct(mock));
      expect(res.status, res.text).to.equal(200);
      expect(res.json).to.include({ object: 'fine_tuning.job', status: 'validating_files', training_file: 'file-abc', validation_file: 'file-val', seed: 7 });
      expect(res.headers.get('x-gw-provider')).to.equal('openai');
      const sent = mock.requests[0]!;
      expect(sent.method).to.equal('POST');
      expect(sent.path).to.equal('/v1/fine_tuning/jobs');
      expect(sent.rawBody).to.equal(text);
      expect(sent.headers['authorization']).to.equal('Bearer sk-test');
      expect(Object.keys(sent.headers).filter((h) => h.startsWith('x-gw-'))).to.deep.equal([]);
    });

    it('works through the openai SDK', async () => {
      const job = await sdk.fineTuning.jobs.create({ ...CREATE, method: { type: 'supervised' } });
      expect(job.id).to.match(/^ftjob-/);
      expect(job.hyperparameters.n_epochs).to.equal('auto');
    });

    const invalid: [string, unknown, string][] = [
      ['a body that is not an object', [1], 'body: must be a JSON object'],
      ['no model', { ...CREATE, model: undefined }, 'body.model: is required'],
      ['no training_file', { ...CREATE, training_file: undefined }, 'body.training_file: is required'],
      ['no suffix (required by §4.8)', { ...CREATE, suffix: undefined }, 'body.suffix: is required'],
      ['a suffix over 64 characters', { ...CREATE, suffix: 'x'.repeat(65) }, 'body.suffix: must be at most 64 character(s)'],
      ['no method', { ...CREATE, method: undefined }, 'body.method: is required'],
      ['a method that is not an object', { ...CREATE, method: 'sft' }, 'body.method: must be an object'],
      ['six integrations', { ...CREATE, integrations: Array.from({ length: 6 }, () => ({ type: 'wandb', wandb: { project: 'p' } })) }, 'body.integrations: must have at most 5 item(s)'],
      ['an integration without its tracker entry', { ...CREATE, integrations: [{ type: 'wandb' }] }, 'body.integrations.0.wandb: is required'],
      ['an integration without project', { ...CREATE, integrations: [{ type: 'wandb', wandb: { name: 'n' } }] }, 'body.integrations.0.wandb.project: is required'],
      ['integration tags that are not strings', { ...CREATE, integrations: [{ type: 'wandb', wandb: { project: 'p', tags: [1] } }] }, 'body.integrations.0.wandb.tags.0: must be a string'],
      ['17 metadata pairs', { ...CREATE, metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) }, 'body.metadata: must have at most 16 key-value pairs'],
      ['a metadata key over 64 characters', { ...CREATE, metadata: { ['k'.repeat(65)]: 'v' } }, 'key must be at most 64 characters'],
      ['a metadata value over 512 characters', { ...CREATE, metadata: { k: 'v'.repeat(513) } }, 'body.metadata.k: must be at most 512 characters'],
      ['a seed that is not an integer', { ...CREATE, seed: 1.5 }, 'body.seed: must be an integer or null'],
    ];
    for (const [what, body, message] of invalid) {
      it(`answers 400 for ${what}, without calling the provider`, async () => {
        const res = await postJson(gw.url, JOBS, body, direct(mock));
        expect(res.status, res.text).to.equal(400);
        expect(res.json.error.message).to.include(message);
        expect(res.json.error.code).to.equal('invalid_body');
        expect(mock.requests).to.have.length(0);
      });
    }

    it('passes a provider refusal on with its status and provider', async () => {
      mock.next({ status: 400, body: { error: { message: 'File file-abc is not a JSONL file', type: 'invalid_request_error', param: 'training_file', code: 'invalid_file' } } });
      const res = await postJson(gw.url, JOBS, CREATE, direct(mock));
      expect(res.status).to.equal(400);
      expect(res.json).to.deep.equal({
        error: { message: 'File file-abc is not a JSONL file', type: 'invalid_request_error', param: 'training_file', code: 'invalid_file' },
        provider: 'openai',
      });
    });
  });

  describe('GET /v1/fine_tuning/jobs (pagination)', () => {
    const list = (query = '') => getJson(`${gw.url}${JOBS}${query}`, direct(mock));

    it('defaults to 20 per page, newest first, and pages on with after', async () => {
      for (let i = 0; i < 25; i++) mock.addJob();
      const ids = mock.jobs.map((j) => j.id).reverse();
      const first = await list();
      expect(first.status, first.text).to.equal(200);
      expect(first.json.object).to.equal('list');
      expect(first.json.data.map((j: { id: string }) => j.id)).to.deep.equal(ids.slice(0, 20));
      expect(first.json.has_more).to.equal(true);
      expect(new URL(mock.requests[0]!.path, 'http://x').searchParams.get('limit')).to.equal('20');

      const second = await list(`?after=${ids[19]}`);
      expect(second.json.data.map((j: { id: string }) => j.id)).to.deep.equal(ids.slice(20));
      expect(second.json.has_more).to.equal(false);
    });

    it('an exact last page has has_more false; after the last id is an empty page', async () => {
      for (let i = 0; i < 4; i++) mock.addJob();
      const ids = mock.jobs.map((j) => j.id).reverse();
      const exact = await list('?limit=4');
      expect(exact.json.data).to.have.length(4);
      expect(exact.json.has_more).to.equal(false);
      const empty = await list(`?after=${ids[3]}&limit=4`);
      expect(empty.json).to.deep.equal({ object: 'list', data: [], has_more: false });
    });

    it('an empty account lists nothing', async () => {
      const res = await list();
      expect(res.json).to.deep.equal({ object: 'list', data: [], has_more: false });
    });

    for (const [query, rule] of [
      ['?limit=0', 'query.limit: must be an integer from 1 to 100'],
      ['?limit=101', 'query.limit: must be an integer from 1 to 100'],
      ['?limit=2.5', 'query.limit: must be an integer from 1 to 100'],
      ['?limit=ten', 'query.limit: must be an integer from 1 to 100'],
      ['?limit=', 'query.limit: must be an integer from 1 to 100'],
      ['?after=', 'query.after: must be a non-empty id'],
    ] as const) {
      it(`answers 400 for ${query}`, async () => {
        const res = await list(query);
        expect(res.status).to.equal(400);
        expect(res.json.error.message).to.equal(rule);
        expect(mock.requests).to.have.length(0);
      });
    }

    it('the SDK auto-paginates through every job', async () => {
      for (let i = 0; i < 12; i++) mock.addJob();
      const seen: string[] = [];
      for await (const job of sdk.fineTuning.jobs.list({ limit: 5 })) seen.push(job.id);
      expect(seen).to.deep.equal(mock.jobs.map((j) => j.id).reverse());
      expect(mock.requests).to.have.length(3);
    });
  });

  describe('GET /v1/fine_tuning/jobs/:id and cancel', () => {
    it('retrieves a job', async () => {
      const job = mock.addJob({ status: 'succeeded', fine_tuned_model: 'ft:gpt-4o-mini:org::abc', finished_at: 1_700_000_000, trained_tokens: 1234 });
      const got = await sdk.fineTuning.jobs.retrieve(job.id);
      expect(got).to.deep.include({ id: job.id, status: 'succeeded', fine_tuned_model: 'ft:gpt-4o-mini:org::abc', trained_tokens: 1234 });
    });

    it('passes a failed job with its error', async () => {
      const job = mock.addJob({ status: 'failed', error: { code: 'invalid_training_file', message: 'bad line 3', param: 'training_file' } });
      const res = await getJson(`${gw.url}${JOBS}/${job.id}`, direct(mock));
      expect(res.status).to.equal(200);
      expect(res.json.error).to.deep.equal({ code: 'invalid_training_file', message: 'bad line 3', param: 'training_file' });
    });

    it('an unknown id is the provider 404', async () => {
      const res = await getJson(`${gw.url}${JOBS}/ftjob-nope`, direct(mock));
      expect(res.status).to.equal(404);
      expect(res.json.provider).to.equal('openai');
      expect(res.json.error.message).to.include('ftjob-nope');
    });

    it('escapes the id in the upstream path', async () => {
      await getJson(`${gw.url}${JOBS}/a%2Fb%3Fc`, direct(mock));
      expect(mock.requests[0]!.path).to.equal('/v1/fine_tuning/jobs/a%2Fb%3Fc');
    });

    it('cancels a running job; cancelling a finished one is the provider 400', async () => {
      const running = mock.addJob({ status: 'running' });
      const cancelled = await sdk.fineTuning.jobs.cancel(running.id);
      expect(cancelled.status).to.equal('cancelled');
      expect(mock.requests[0]!.method).to.equal('POST');
      expect(mock.requests[0]!.path).to.equal(`/v1/fine_tuning/jobs/${running.id}/cancel`);

      const res = await postJson(gw.url, `${JOBS}/${running.id}/cancel`, '', direct(mock));
      expect(res.status).to.equal(400);
      expect(res.json.error.message).to.include('already completed');
    });
  });

  describe('GET /v1/fine_tuning/jobs/:id/checkpoints', () => {
    it('defaults to 10, gives first_id and last_id, and pages on with after', async () => {
      const job = mock.addJob({ status: 'succeeded' });
      const all = mock.addCheckpoints(job.id, 12).map((c) => c.id).reverse();
      const first = await getJson(`${gw.url}${JOBS}/${job.id}/checkpoints`, direct(mock));
      expect(first.status, first.text).to.equal(200);
      expect(first.json.data.map((c: { id: string }) => c.id)).to.deep.equal(all.slice(0, 10));
      expect(first.json).to.include({ has_more: true, first_id: all[0], last_id: all[9] });
      const second = await getJson(`${gw.url}${JOBS}/${job.id}/checkpoints?after=${first.json.last_id}&limit=10`, direct(mock));
      expect(second.json.data.map((c: { id: string }) => c.id)).to.deep.equal(all.slice(10));
      expect(second.json).to.include({ has_more: false, first_id: all[10], last_id: all[11] });
    });

    it('an empty page has null first_id and last_id; the SDK iterates all', async () => {
      const job = mock.addJob({ status: 'running' });
      const empty = await getJson(`${gw.url}${JOBS}/${job.id}/checkpoints`, direct(mock));
      expect(empty.json).to.include({ has_more: false, first_id: null, last_id: null });
      mock.addCheckpoints(job.id, 5);
      const seen: number[] = [];
      for await (const c of sdk.fineTuning.jobs.checkpoints.list(job.id, { limit: 2 })) seen.push(c.step_number);
      expect(seen).to.deep.equal([50, 40, 30, 20, 10]);
    });

    it('answers 400 for a bad limit', async () => {
      const res = await getJson(`${gw.url}${JOBS}/ftjob-x/checkpoints?limit=-1`, direct(mock));
      expect(res.status).to.equal(400);
      expect(mock.requests).to.have.length(0);
    });
  });

  describe('answers that do not fit spec §2.2', () => {
    const job = () => mock.addJob();

    it('a job with an unknown status is a 502 naming the field', async () => {
      const j = job();
      mock.next({ status: 200, body: { ...j, status: 'exploded' } });
      const res = await getJson(`${gw.url}${JOBS}/${j.id}`, direct(mock));
      expect(res.status).to.equal(502);
      expect(res.json.error.message).to.include('status: must be one of');
      expect(res.json.provider).to.equal('openai');
    });

    it('a job missing a required field is a 502 naming it', async () => {
      const { organization_id: _drop, ...rest } = job();
      mock.next({ status: 200, body: rest });
      const res = await postJson(gw.url, JOBS, CREATE, direct(mock));
      expect(res.status).to.equal(502);
      expect(res.json.error.message).to.include('organization_id: is required');
    });

    it('a listed job with six integrations is a 502 naming data.0.integrations', async () => {
      const j = job();
      const six = Array.from({ length: 6 }, () => ({ type: 'wandb', wandb: { project: 'p' } }));
      mock.next({ status: 200, body: { object: 'list', data: [{ ...j, integrations: six }], has_more: false } });
      const res = await getJson(`${gw.url}${JOBS}`, direct(mock));
      expect(res.status).to.equal(502);
      expect(res.json.error.message).to.include('data.0.integrations: must have at most 5 item(s)');
    });

    it('n_epochs must be "auto" or an integer', async () => {
      const j = job();
      mock.next({ status: 200, body: { ...j, hyperparameters: { n_epochs: 'many' } } });
      const res = await getJson(`${gw.url}${JOBS}/${j.id}`, direct(mock));
      expect(res.status).to.equal(502);
      expect(res.json.error.message).to.include('hyperparameters.n_epochs: must be "auto" or an integer');
    });

    it('a checkpoint list without has_more is a 502', async () => {
      mock.next({ status: 200, body: { object: 'list', data: [], first_id: null, last_id: null } });
      const res = await getJson(`${gw.url}${JOBS}/ftjob-x/checkpoints`, direct(mock));
      expect(res.status).to.equal(502);
      expect(res.json.error.message).to.include('has_more: is required');
    });

    it('a body that is not JSON is a 502', async () => {
      mock.next({ status: 200, body: 'plain text' });
      const res = await getJson(`${gw.url}${JOBS}`, direct(mock));
      expect(res.status).to.equal(502);
      expect(res.json.error.message).to.include('not JSON');
    });
  });

  describe('provider resolution and failures', () => {
    it('a strategy config goes to its first leaf with the settings that leaf inherits', async () => {
      const other = await startMockOpenAIStateful();
      try {
        const config = {
          strategy: { mode: 'fallback' },
          targets: [
            { strategy: { mode: 'loadbalance' }, targets: [{ provider: 'openai', api_key: 'sk-first', custom_host: `${mock.url}/v1` }, { provider: 'openai', api_key: 'sk-2', custom_host: `${other.url}/v1` }] },
            { provider: 'openai', api_key: 'sk-3', custom_host: `${other.url}/v1` },
          ],
          vendorD_organization: 'org-parent',
        };
        for (let i = 0; i < 3; i++) {
          const res = await getJson(`${gw.url}${JOBS}`, configHeaders(config));
          expect(res.status, res.text).to.equal(200);
        }
        expect(mock.requests).to.have.length(3);
        expect(other.requests).to.have.length(0);
        expect(mock.requests[0]!.headers['authorization']).to.equal('Bearer sk-first');
        expect(mock.requests[0]!.headers['openai-organization']).to.equal('org-parent');
      } finally {
        await other.close();
      }
    });

    it('a provider without a fine-tuning API here is a 400', async () => {
      const res = await getJson(`${gw.url}${JOBS}`, { 'x-gw-api-key': TEST_API_KEY, 'x-gw-provider': 'anthropic', authorization: 'Bearer sk-ant' });
      expect(res.status).to.equal(400);
      expect(res.json.error.code).to.equal('unsupported_endpoint');
      expect(res.json.error.message).to.equal('provider anthropic does not support fine_tuning');
    });

    it('no provider or config is a 400', async () => {
      const res = await getJson(`${gw.url}${JOBS}`, { 'x-gw-api-key': TEST_API_KEY });
      expect(res.status).to.equal(400);
      expect(res.json.error.code).to.equal('invalid_config');
    });

    it('an invalid config is rejected before any call', async () => {
      const res = await getJson(`${gw.url}${JOBS}`, configHeaders({ provider: 'openai', api_key: 'k', retry: { attempts: 99 } }));
      expect(res.status).to.equal(400);
      expect(res.json.error.message).to.include('retry.attempts');
    });

    it('the gateway key is required', async () => {
      const { 'x-gw-api-key': _k, ...headers } = direct(mock);
      const res = await getJson(`${gw.url}${JOBS}`, headers);
      expect(res.status).to.equal(401);
      expect(mock.requests).to.have.length(0);
    });

    it('request_timeout bounds the provider call (408)', async () => {
      mock.next({ hang: true });
      const started = Date.now();
      const res = await getJson(`${gw.url}${JOBS}`, direct(mock, { 'x-gw-request-timeout': '80' }));
      expect(res.status).to.equal(408);
      expect(res.json.error.code).to.equal('request_timeout');
      expect(Date.now() - started).to.be.below(2000);
    });

    it('an unreachable provider is a 502; a reset connection too', async () => {
      const res = await getJson(`${gw.url}${JOBS}`, direct(mock, { 'x-gw-custom-host': 'http://127.0.0.1:1/v1' }));
      expect(res.status).to.equal(502);
      expect(res.json.error.message).to.include('provider openai is unreachable');
      mock.next({ reset: true });
      const reset = await getJson(`${gw.url}${JOBS}`, direct(mock));
      expect(reset.status).to.equal(502);
    });
  });
});

describe('feature.fine-tuning options', () => {
  let gw: TestGateway | undefined;
  let mock: MockOpenAIStateful | undefined;
  afterEach(async () => {
    await gw?.stop();
    await mock?.close();
    gw = undefined;
    mock = undefined;
  });

  it('the providers table adds OpenAI-format providers; custom_host replaces their base', async () => {
    mock = await startMockOpenAIStateful();
    gw = await startGateway({
      plugins: [{ use: FineTuningPlugin, options: { providers: { openai: 'https://api.openai.com/v1', 'mistral-ai': 'https://api.mistral.ai/v1' } } }],
    });
    const headers = { 'x-gw-api-key': TEST_API_KEY, 'x-gw-provider': 'mistral-ai', authorization: 'Bearer m-key', 'x-gw-custom-host': `${mock.url}/v1/` };
    const res = await getJson(`${gw.url}${JOBS}?limit=3`, headers);
    expect(res.status, res.text).to.equal(200);
    expect(res.headers.get('x-gw-provider')).to.equal('mistral-ai');
    expect(mock.requests[0]!.path).to.equal('/v1/fine_tuning/jobs?limit=3');
  });

  it('maxLimit caps limit', async () => {
    mock = await startMockOpenAIStateful();
    gw = await startGateway({ plugins: [{ use: FineTuningPlugin, options: { maxLimit: 5 } }] });
    const res = await getJson(`${gw.url}${JOBS}?limit=6`, direct(mock));
    expect(res.status).to.equal(400);
    expect(res.json.error.message).to.equal('query.limit: must be an integer from 1 to 5');
  });

  it('bad options fail at boot', async () => {
    let error: unknown;
    try {
      gw = await startGateway({ plugins: [{ use: FineTuningPlugin, options: { providers: { openai: 'ftp://x' } } }] });
    } catch (e) {
      error = e;
    }
    expect(String(error)).to.include('feature.fine-tuning');
  });
});
