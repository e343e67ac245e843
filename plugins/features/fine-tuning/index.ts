/**
 * feature.fine-tuning: OpenAI-format fine-tuning routes (spec §4.8–4.11), forwarded to the provider
 * the request names (direct headers or config; a strategy tree's first leaf, see target.ts):
 *
 *   POST /v1/fine_tuning/jobs                      create (body checked first: §4.8, §8)
 *   GET  /v1/fine_tuning/jobs?after&limit          list (limit default 20)
 *   GET  /v1/fine_tuning/jobs/:id                  retrieve
 *   POST /v1/fine_tuning/jobs/:id/cancel           cancel
 *   GET  /v1/fine_tuning/jobs/:id/checkpoints?after&limit   checkpoints (limit default 10)
 *
 * Every answer is checked against its §2.2 shape before the client sees it (misfit: 502 naming
 * the field) and passed on as the provider's bytes. The gateway keeps no fine-tuning state.
 */
import {
  MAX_TIMER_MS, Errors, firstLeaf, JsonPayload, objectBody, Services, Type,
  type GatewayResponse, type Plugin, type PluginApi, type RequestContext, type Static,
} from '../../../core/index.js';
import { callProvider, providerTarget } from './provider-call.js';
import { pageQuery, readPage } from './query.js';
import { answerIssue, createJobIssues, type AnswerShape } from './schemas.js';

const Options = Type.Object({
  /**
   * Providers with an OpenAI-format fine-tuning API: provider id → default base URL (with the
   * version segment). A target's `custom_host` replaces the base. Other providers answer 400.
   */
  providers: Type.Record(Type.String({ minLength: 1 }), Type.String({ pattern: '^https?://' }), {
    default: { openai: 'https://api.openai.com/v1' },
  }),
  /** Largest `limit` accepted on the list routes. */
  maxLimit: Type.Integer({ minimum: 1, default: 100 }),
  /** Time the provider has to answer when the config sets no `request_timeout`. */
  timeoutMs: Type.Integer({ minimum: 1, maximum: MAX_TIMER_MS, default: 60_000 }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

const JOBS = '/v1/fine_tuning/jobs';
export const DEFAULT_JOB_LIMIT = 20;
export const DEFAULT_CHECKPOINT_LIMIT = 10;

export default class FineTuningPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'feature.fine-tuning',
    description: 'Fine-tuning jobs and checkpoints, forwarded to the provider (OpenAI format)',
    options: Options,
  };

  apply(api: PluginApi<Options>): void {
    const kernel = api.services.get(Services.Kernel);
    const transport = api.services.get(Services.Transport);
    const { providers, maxLimit, timeoutMs } = api.options;

    const forward = async (ctx: RequestContext, method: 'GET' | 'POST', path: string, shape: AnswerShape, body?: string | Uint8Array): Promise<GatewayResponse> => {
      const config = await kernel.resolveConfig(ctx);
      const to = providerTarget(firstLeaf(config, api.configKeys), providers, 'fine_tuning');
      const answer = await callProvider(transport, ctx, to, method, path, body, timeoutMs);
      const issue = answerIssue(shape, answer.value);
      if (issue) {
        throw Errors.badGateway(`provider ${to.provider} answered with a ${shape} that does not fit spec §2.2: ${issue.path || '(root)'}: ${issue.rule}`, to.provider);
      }
      ctx.responseHeaders['x-gw-provider'] = to.provider;
      return { status: 200, headers: { 'content-type': 'application/json' }, json: JsonPayload.fromBytes(answer.bytes) };
    };
    const jobPath = (ctx: RequestContext) => `/fine_tuning/jobs/${encodeURIComponent(ctx.params['id']!)}`;
    const routes = api.registries.routes;

    routes.add({
      method: 'POST', path: JOBS, body: 'json',
      handler: (ctx) => {
        const body = objectBody(ctx);
        const issue = createJobIssues(body)[0];
        if (issue) throw Errors.invalidBody(issue.path, issue.rule);
        return forward(ctx, 'POST', '/fine_tuning/jobs', 'job', ctx.request.rawBody ?? JSON.stringify(body));
      },
    });
    routes.add({
      method: 'GET', path: JOBS, body: 'none',
      handler: (ctx) => forward(ctx, 'GET', '/fine_tuning/jobs' + pageQuery(readPage(ctx.request.query, DEFAULT_JOB_LIMIT, maxLimit)), 'job list'),
    });
    routes.add({ method: 'GET', path: `${JOBS}/:id`, body: 'none', handler: (ctx) => forward(ctx, 'GET', jobPath(ctx), 'job') });
    routes.add({ method: 'POST', path: `${JOBS}/:id/cancel`, body: 'raw', handler: (ctx) => forward(ctx, 'POST', `${jobPath(ctx)}/cancel`, 'job') });
    routes.add({
      method: 'GET', path: `${JOBS}/:id/checkpoints`, body: 'none',
      handler: (ctx) => forward(ctx, 'GET', `${jobPath(ctx)}/checkpoints` + pageQuery(readPage(ctx.request.query, DEFAULT_CHECKPOINT_LIMIT, maxLimit)), 'checkpoint list'),
    });
  }
}
