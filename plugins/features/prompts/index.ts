/**
 * feature.prompts: versioned prompt templates (Mustache, logic-less) in the record store.
 *
 *   POST /v1/prompts                          { id?, model, messages | prompt, ...hyperparameters } → { id, version: 1 }
 *                                             (a new prompt only: an id in use is a 400 `duplicate`)
 *   PUT  /v1/prompts/:promptId                { model, messages | prompt, ...hyperparameters, patch? } → { id, version }
 *   DELETE /v1/prompts/:promptId              every version → { id, object: 'prompt', deleted: true }
 *   GET  /v1/prompts/:promptId[?version=N]    the latest (or a given) version
 *   POST /v1/prompts/:promptId/render         { variables, version?, ...hyperparameters } → { success: true, data }  (§4.13)
 *   POST /v1/prompts/:promptId/completions    render, then run `data` through /v1/chat/completions
 *                                             (or /v1/completions for a `prompt` template) with the caller's config
 *
 * A route config with `prompt_id` ("id" or "id@version") renders that template into every chat or
 * text-completion request before body validation (hooks.prepareBody): variables come from the
 * client body's `variables` (then removed), and the client's own fields win over the template's.
 * Prompts belong to the caller's organisation. Who may read, render and write them: access.ts
 * (a `prompt_id` in a config is part of an inference request and is not checked there).
 */
import { Services, MAX_TIMER_MS, dispatchInference, changesIn,
  Errors, JsonPayload, objectBody, queryVersion, requestKey, RequestValues, Stage, timeOrderedId, Type,
  type GatewayResponse, type Plugin, type PluginApi, type RequestContext, type Static,
} from '../../../core/index.js';
import { PromptIdKey } from './contract.js';
import { PromptAccess } from './access.js';
import { renderPrompt, type CompiledPrompt } from './prompt.js';
import { PromptStore } from './prompt-store.js';
import { createIssue, PROMPT_ID_PATTERN, putIssue, renderIssue, templateIssue } from './schemas.js';
import { PROMPTS_CONFIG } from './config-keys.js';

const Options = Type.Object({
  /** How long the latest version of a prompt is cached (other instances' PUTs show at once through Redis, else after at most this). */
  latestTtlMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 5_000 }),
  /** Compiled versions kept in memory. */
  cacheMaxEntries: Type.Integer({ minimum: 0, default: 1_000 }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

/** Set on requests this plugin dispatches itself: their body is rendered already. */
const RenderedKey = requestKey<true>('prompts.rendered');
const NOTHING = Promise.resolve();

const ENDPOINT_PATHS: Readonly<Record<CompiledPrompt['kind'], { endpoint: string; path: string }>> = {
  chat: { endpoint: 'chatComplete', path: '/v1/chat/completions' },
  completion: { endpoint: 'complete', path: '/v1/completions' },
};

export default class PromptsPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'feature.prompts',
    description: 'Versioned prompt templates: store, render, and prompt_id in configs',
    config: PROMPTS_CONFIG,
    requires: [Services.Records],
    options: Options,
  };

  async apply(api: PluginApi<Options>): Promise<void> {
    const kernel = api.services.get(Services.Kernel);
    const prompts = new PromptStore(api.services.get(Services.Records), api.options);
    prompts.follow(changesIn(api.services));
    await prompts.init();
    const routes = api.registries.routes;
    const access = new PromptAccess(api.services);

    const find = async (ctx: RequestContext, version?: number): Promise<CompiledPrompt> => {
      const id = promptId(ctx);
      const prompt = version === undefined ? await prompts.latest(organisation(ctx), id) : await prompts.version(organisation(ctx), id, version);
      if (!prompt) throw Errors.notFound(version === undefined ? `no prompt "${id}"` : `no version ${version} of prompt "${id}"`, 'prompt_not_found');
      return prompt;
    };

    routes.add({
      method: 'POST', path: '/v1/prompts', body: 'json',
      handler: async (ctx) => {
        await access.authorize(ctx, 'write');
        const body = objectBody(ctx);
        const issue = createIssue(body);
        if (issue) throw Errors.invalidBody(issue.path, issue.rule);
        const { id = `prompt-${timeOrderedId()}`, ...template } = body as { id?: string };
        const invalid = templateIssue(template);
        if (invalid) throw Errors.invalidBody(invalid.path, invalid.rule);
        const created = await prompts.create(organisation(ctx), id, template);
        if (!created) throw Errors.invalidRequest(`body.id: prompt "${id}" exists already (PUT /v1/prompts/${id} stores a new version)`, 'id', 'duplicate');
        return json(200, { id, version: created.version });
      },
    });

    routes.add({
      method: 'PUT', path: '/v1/prompts/:promptId', body: 'json',
      handler: async (ctx) => {
        await access.authorize(ctx, 'write');
        const body = objectBody(ctx);
        const issue = putIssue(body);
        if (issue) throw Errors.invalidBody(issue.path, issue.rule);
        const { patch, ...fields } = body;
        const id = promptId(ctx);
        const org = organisation(ctx);
        const template = patch === true ? backfill(fields, await prompts.latest(org, id)) : fields;
        const invalid = templateIssue(template);
        if (invalid) throw Errors.invalidBody(invalid.path, invalid.rule);
        const stored = await prompts.put(org, id, template);
        return json(200, { id, version: stored.version });
      },
    });

    routes.add({
      method: 'DELETE', path: '/v1/prompts/:promptId', body: 'none',
      handler: async (ctx) => {
        await access.authorize(ctx, 'write');
        const id = promptId(ctx);
        if (!(await prompts.delete(organisation(ctx), id))) throw Errors.notFound(`no prompt "${id}"`, 'prompt_not_found');
        return json(200, { id, object: 'prompt', deleted: true });
      },
    });

    routes.add({
      method: 'GET', path: '/v1/prompts/:promptId', body: 'none',
      handler: async (ctx) => {
        await access.authorize(ctx, 'read');
        const prompt = await find(ctx, queryVersion(ctx));
        return json(200, {
          id: prompt.id, object: 'prompt', version: prompt.version, created_at: prompt.createdAt,
          variables: prompt.required, optional_variables: prompt.optional, template: prompt.template,
        });
      },
    });

    const rendered = async (ctx: RequestContext) => {
      await access.authorize(ctx, 'render');
      const body = objectBody(ctx);
      const issue = renderIssue(body);
      if (issue) throw Errors.invalidBody(issue.path, issue.rule);
      const { variables, version, ...overrides } = body as { variables: Record<string, unknown>; version?: number };
      const prompt = await find(ctx, version);
      return { prompt, data: renderPrompt(prompt, variables, overrides) };
    };

    routes.add({
      method: 'POST', path: '/v1/prompts/:promptId/render', body: 'json',
      handler: async (ctx) => json(200, { success: true, data: (await rendered(ctx)).data }),
    });

    routes.add({
      method: 'POST', path: '/v1/prompts/:promptId/completions', body: 'json',
      handler: async (ctx) => {
        const { prompt, data } = await rendered(ctx);
        return dispatchInference(kernel, ctx, ENDPOINT_PATHS[prompt.kind].path, data, new RequestValues().set(RenderedKey, true).set(PromptIdKey, prompt.id));
      },
    });

    api.hooks.validateConfig.tap(api.id, (node, path, issues) => {
      if (node.prompt_id === undefined) return;
      const at = path ? `${path}.prompt_id` : 'prompt_id';
      if (path) issues.push({ path: at, rule: 'is only supported at the root of a config' });
      else if (parsePromptRef(node.prompt_id) === undefined) issues.push({ path: at, rule: 'must be a prompt id (letters, digits, _ . -), optionally followed by @version' });
    });

    const renderConfigPrompt = async (ctx: RequestContext, ref: string): Promise<void> => {
      const endpoint = ctx.endpoint!.id;
      const { id, version } = parsePromptRef(ref)!;
      const org = organisation(ctx);
      const prompt = version === undefined ? await prompts.latest(org, id) : await prompts.version(org, id, version);
      if (!prompt) throw Errors.invalidConfig('prompt_id', `no prompt "${ref}"`);
      const expected = ENDPOINT_PATHS[prompt.kind];
      if (expected.endpoint !== endpoint) throw Errors.invalidConfig('prompt_id', `prompt "${id}" is a ${prompt.kind} template: send it to ${expected.path}`);
      const { variables = {}, ...client } = ctx.body;
      if (variables === null || typeof variables !== 'object' || Array.isArray(variables)) throw Errors.invalidBody('variables', 'must be an object');
      ctx.body = renderPrompt(prompt, variables as Record<string, unknown>, client);
      ctx.stream = ctx.body['stream'] === true;
    };

    // Every inference request passes here: without prompt_id it costs one property read, no new promise.
    api.hooks.prepareBody.tapPromise({ name: api.id, stage: Stage.CONFIG }, (ctx) => {
      const ref = ctx.config?.prompt_id;
      if (ref === undefined || ctx.values.has(RenderedKey)) return NOTHING;
      const endpoint = ctx.endpoint?.id;
      if (endpoint !== 'chatComplete' && endpoint !== 'complete') return NOTHING;
      return renderConfigPrompt(ctx, ref);
    });
  }
}

function promptId(ctx: RequestContext): string {
  const id = ctx.params['promptId']!;
  if (!PROMPT_ID_PATTERN.test(id)) throw Errors.invalidRequest(`path.promptId: must be 1 to 128 letters, digits, _ . or -`, 'promptId');
  return id;
}

function organisation(ctx: RequestContext): string {
  return ctx.principal?.organisationId ?? '';
}
/** `patch: true`: fields the request leaves out come from the latest version; messages and prompt are one slot. */
function backfill(fields: Record<string, unknown>, latest: CompiledPrompt | undefined): Record<string, unknown> {
  if (!latest) return fields;
  const merged: Record<string, unknown> = {};
  const ownsText = fields['messages'] !== undefined || fields['prompt'] !== undefined;
  for (const [key, value] of Object.entries(latest.template)) {
    if (ownsText && (key === 'messages' || key === 'prompt')) continue;
    merged[key] = value;
  }
  return { ...merged, ...fields };
}

/** `id` or `id@version`. */
export function parsePromptRef(ref: unknown): { id: string; version?: number } | undefined {
  if (typeof ref !== 'string') return undefined;
  const at = ref.lastIndexOf('@');
  const id = at === -1 ? ref : ref.slice(0, at);
  if (!PROMPT_ID_PATTERN.test(id)) return undefined;
  if (at === -1) return { id };
  const version = ref.slice(at + 1);
  return /^[1-9][0-9]{0,8}$/.test(version) ? { id, version: Number(version) } : undefined;
}

function json(status: number, value: unknown): GatewayResponse {
  return { status, headers: { 'content-type': 'application/json' }, json: JsonPayload.of(value) };
}

