/**
 * Fuzz: a few thousand seeded inputs over every route of the default gateway (bodies, headers,
 * configs, path parameters, queries), sent to a real server in front of a mock provider. Every
 * answer must come in time, every error must be in the envelope (SCIM's in the SCIM error schema), a 5xx must have a provider
 * cause, and no input may reach the gateway's unexpected-error path. Replay a run with
 * GW_FUZZ_SEED; GW_FUZZ_COUNT sets the number of inputs.
 */
import { expect } from 'chai';
import { Errors, Stage, type Plugin, type PluginApi, type RouteDef } from '../../core/index.js';
import { startMockOpenAI, type MockOpenAI } from '../fixtures/mock-openai.js';
import { CHAT_BODY, directHeaders, postJson, startGateway, TEST_API_KEY, type TestGateway } from '../helpers/gateway.js';
import { makeInput, type FuzzInput, type InputContext } from './inputs.js';
import { Random } from './random.js';
import { isLoopbackUrl } from './safety.js';

const SEED = Number(process.env['GW_FUZZ_SEED'] ?? 20261126);
const COUNT = Number(process.env['GW_FUZZ_COUNT'] ?? 3000);
const BUDGET_MS = 120_000;
const ANSWER_TIMEOUT_MS = 15_000;
const CONCURRENCY = 8;
/** Error codes of a 5xx that the provider, not the gateway, caused. */
const PROVIDER_CAUSES = new Set(['bad_gateway', 'circuit_open']);

const watched = { unexpected: [] as unknown[], escapes: [] as string[] };

/** Records unexpected errors, and refuses (and records) any provider call that would leave loopback. */
class WatchPlugin implements Plugin {
  static readonly manifest = { id: 'test.fuzz-watch', description: 'fuzz observer' };
  apply(api: PluginApi): void {
    api.hooks.onError.tap(api.id, (error) => {
      watched.unexpected.push(error);
    });
    api.hooks.beforeRequest.tap({ name: api.id, stage: Stage.FIRST }, (attempt) => {
      const host = attempt.target.custom_host;
      if (isLoopbackUrl(host)) return undefined;
      watched.escapes.push(`${attempt.target.provider} ${String(host)}`);
      const error = Errors.forbidden('fuzz: a target outside loopback');
      return { status: error.status, error, retries: 0 };
    });
  }
}

interface Failure {
  input: FuzzInput;
  why: string;
}

describe('fuzz: seeded hostile inputs over every route', function () {
  this.timeout(BUDGET_MS + 60_000);
  let mock: MockOpenAI;
  let gw: TestGateway;

  before(async () => {
    mock = await startMockOpenAI();
    // Belt and braces: the outbound policy refuses anything outside loopback too.
    gw = await startGateway({ plugins: [WatchPlugin], env: { GW_OUTBOUND_ALLOW: '127.0.0.0/8,::1' } });
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });

  it(`answers ${COUNT} inputs (seed ${SEED}) in time, in the envelope, with no 5xx of its own and no unexpected error`, async () => {
    const routes: RouteDef[] = gw.gateway.runtime.registries.routes.list();
    const ctx: InputContext = {
      base: gw.url, apiKey: TEST_API_KEY, hosts: [`${mock.url}/v1`, 'http://127.0.0.1:1/v1'], knownIds: [], routes,
    };
    const rng = new Random(SEED);
    const statuses = new Map<number, number>();
    const failures: Failure[] = [];
    const started = Date.now();
    let sent = 0;

    const worker = async () => {
      while (sent < COUNT && Date.now() - started < BUDGET_MS) {
        sent++;
        const input = makeInput(rng, ctx);
        const verdict = await send(input, ctx);
        statuses.set(verdict.status, (statuses.get(verdict.status) ?? 0) + 1);
        if (verdict.why) failures.push({ input, why: verdict.why });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    const byStatus = [...statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}:${n}`).join(' ');
    console.log(`      fuzz seed ${SEED}: ${sent} inputs in ${((Date.now() - started) / 1000).toFixed(1)} s; by status ${byStatus}`);
    expect(watched.escapes, 'provider calls that would leave loopback').to.deep.equal([]);
    expect(distinct(failures).map((f) => `${f.why} ← ${summary(f.input)}`), `${failures.length} failures`).to.deep.equal([]);
    expect(watched.unexpected.map((e) => String((e as Error)?.stack ?? e).slice(0, 500)), 'unexpected errors').to.deep.equal([]);
    expect(sent, 'inputs sent within the time budget').to.be.at.least(Math.min(COUNT, 1000));

    // The gateway still serves.
    const after = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock));
    expect(after.status, after.text).to.equal(200);
  });
});

async function send(input: FuzzInput, ctx: InputContext): Promise<{ status: number; why?: string }> {
  let res: Response;
  let text: string;
  try {
    res = await fetch(input.url, {
      method: input.method, headers: input.headers, body: input.body, redirect: 'manual', signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
    });
    text = await res.text();
  } catch (e) {
    const error = e as Error & { cause?: { code?: string } };
    if (error.name === 'TimeoutError') return { status: 0, why: `no answer within ${ANSWER_TIMEOUT_MS} ms` };
    return { status: 0, why: `connection failed: ${error.message} ${error.cause?.code ?? ''}` };
  }
  const status = res.status;
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  // A redirect (the console's /console → /console/, SSO's login) is an answer, not an error.
  if (status >= 300 && status < 400 && res.headers.has('location')) return { status };
  if (status < 300) {
    if (typeof json?.id === 'string' && ctx.knownIds.length < 200) ctx.knownIds.push(json.id);
    return { status };
  }
  // SCIM answers its errors in the SCIM error schema (RFC 7644 §3.12), as identity providers expect.
  if (new URL(input.url).pathname.startsWith('/v1/scim/v2/') && Array.isArray(json?.schemas)) return scimVerdict(status, res, json, text);
  const error = json?.error;
  if (!String(res.headers.get('content-type')).includes('application/json') || typeof error?.message !== 'string' || typeof error?.type !== 'string') {
    return { status, why: `${status} not in the error envelope: ${text.slice(0, 200)}` };
  }
  if (status >= 500 && json.provider === 'gw' && !PROVIDER_CAUSES.has(error.code)) {
    return { status, why: `${status} without a provider cause: ${text.slice(0, 200)}` };
  }
  return { status };
}

function scimVerdict(status: number, res: Response, json: any, text: string): { status: number; why?: string } {
  const shaped = String(res.headers.get('content-type')).includes('application/scim+json')
    && json.schemas.includes('urn:ietf:params:scim:api:messages:2.0:Error') && json.status === String(status) && typeof json.detail === 'string';
  if (!shaped) return { status, why: `${status} not in the SCIM error schema: ${text.slice(0, 200)}` };
  if (status >= 500) return { status, why: `${status} from SCIM: ${text.slice(0, 200)}` };
  return { status };
}

/** One failure of each kind (status and route), ten at most. */
function distinct(failures: Failure[]): Failure[] {
  const kinds = new Map<string, Failure>();
  for (const f of failures) {
    const kind = `${f.why.slice(0, 4)} ${f.input.route}`;
    if (!kinds.has(kind)) kinds.set(kind, f);
  }
  return [...kinds.values()].slice(0, 10);
}

function summary(input: FuzzInput): string {
  const headers = JSON.stringify(input.headers).slice(0, 300);
  return `${input.route} ${input.url.slice(0, 120)} headers ${headers} body ${(input.body ?? '').slice(0, 300)}`;
}
