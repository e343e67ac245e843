/**
 * feature.responses: the Responses API with gateway-stored responses (spec §2.2, §4.12, §7).
 *
 *   POST   /v1/responses          forwarded to a provider with a native Responses API (native.ts), or
 *                                 translated through the gateway's own chat pipeline (to-chat.ts,
 *                                 from-chat.ts; streams: stream-translate.ts); `store` (default true)
 *                                 keeps the Response object in the record store
 *   GET    /v1/responses/:id      a stored response; `include` (§4.12) values checked
 *   GET    /v1/responses/:id/input_items   its input items, paged as OpenAI does (input-items.ts)
 *   DELETE /v1/responses/:id      forgets a stored response
 *
 * Unfinished records of a gateway process that stopped or crashed are failed (`server_error`) by the
 * next process that starts, or by any live instance sharing the database (worker-lease.ts).
 *
 * Before any provider call: the body is checked (§8 ranges, metadata limits), `previous_response_id`
 * is expanded from the stored chain (chain.ts), and the input is measured against the model's
 * context window (context-window.ts): `truncation: disabled` (default) over the window is a 400,
 * `auto` drops the oldest items until it fits.
 */
import { Services, MAX_TIMER_MS, dispatchInference,
  Errors, GatewayError, JsonPayload, nowSeconds, objectBody, SSE_HEADERS, Type,
  type GatewayResponse, type Plugin, type PluginApi, type RequestContext, type Static,
} from '../../../core/index.js';
import { conversationBefore } from './chain.js';
import { ContextWindows, DEFAULT_CONTEXT_WINDOWS, estimateTokens, itemChars } from './context-window.js';
import { fromChat, type ChatCompletionLike } from './from-chat.js';
import { listedItems, pageOfItems } from './input-items.js';
import { nativeTarget, sendNative, type NativeTarget } from './native.js';
import { failedResponse, newId, outputText, pendingResponse, type ResponseObject } from './response-object.js';
import { ownerOf, ResponseStore, type Owner } from './response-store.js';
import { createIssue, readInclude, type CreateResponseBody } from './schemas.js';
import { passNativeStream } from './stream-native.js';
import { translateChatStream } from './stream-translate.js';
import { toChatBody } from './to-chat.js';
import { WorkerLease } from './worker-lease.js';

const Options = Type.Object({
  /** Providers with a native Responses API: provider id → default base URL (`{base}/responses`); `custom_host` replaces it. */
  nativeProviders: Type.Record(Type.String({ minLength: 1 }), Type.String({ pattern: '^https?://' }), {
    default: { openai: 'https://api.openai.com/v1' },
  }),
  /** Context windows (tokens) added to or replacing the built-in table; a name ending in `*` is a prefix. */
  contextWindows: Type.Record(Type.String({ minLength: 1 }), Type.Integer({ minimum: 1 }), { default: {} }),
  /** Longest previous_response_id chain followed. */
  maxChainDepth: Type.Integer({ minimum: 1, default: 100 }),
  /** Time a native provider has to answer (a stream: to start) when the config sets no `request_timeout`. */
  timeoutMs: Type.Integer({ minimum: 1, maximum: MAX_TIMER_MS, default: 600_000 }),
  /**
   * How long a gateway process's claim on its unfinished responses lasts without renewal (renewed every
   * third of it): a crashed process's responses are failed this long after its last renewal.
   */
  workerLeaseMs: Type.Integer({ minimum: 100, maximum: MAX_TIMER_MS, default: 30_000 }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;
type Item = Record<string, unknown>;

/** Everything a create request carries from validation to the provider call. */
interface Creation {
  ctx: RequestContext;
  body: CreateResponseBody;
  owner: Owner;
  /** The request's own input items (what is stored with it). */
  own: Item[];
  /** The whole conversation sent: the expanded chain, then `own` (maybe truncated at the front). */
  items: Item[];
  ownFrom: number;
  /** Whether the gateway expanded previous_response_id itself (else a native provider resolves it). */
  expanded: boolean;
  store: boolean;
  createdAt: number;
}

export default class ResponsesPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'feature.responses',
    description: 'Responses API (native or through chat) with stored responses',
    requires: [Services.Records],
    options: Options,
  };
  #lease?: WorkerLease;

  async apply(api: PluginApi<Options>): Promise<void> {
    const kernel = api.services.get(Services.Kernel);
    const transport = api.services.get(Services.Transport);
    const store = new ResponseStore(api.services.get(Services.Records));
    await store.init();
    const lease = new WorkerLease(store, api.options.workerLeaseMs, api.logger);
    this.#lease = lease;
    await lease.start();
    const { nativeProviders, maxChainDepth, timeoutMs } = api.options;
    const windows = new ContextWindows({ ...DEFAULT_CONTEXT_WINDOWS, ...api.options.contextWindows });
    const routes = api.registries.routes;

    const translated = async (c: Creation): Promise<GatewayResponse> => {
      const chatBody = toChatBody(c.body, c.items, c.ownFrom);
      const pending = pendingResponse(newId('resp'), c.body, c.createdAt);
      const save = (final: ResponseObject) => (c.store ? store.update(final) : Promise.resolve());
      if (c.store && !(await store.insert(c.owner, pending, c.own, lease.id))) throw Errors.internal();
      let answer: GatewayResponse;
      try {
        answer = await dispatchInference(kernel, c.ctx, '/v1/chat/completions', chatBody);
      } catch (e) {
        await failWith(e, pending, save, c.store);
        throw e;
      }
      const headers = gatewayHeaders(answer.headers);
      if (answer.status >= 400) {
        const envelope = answer.json?.tryValue() as { error?: { code?: string | null; message?: string } } | undefined;
        await save(failedResponse(pending, { code: envelope?.error?.code ?? null, message: envelope?.error?.message ?? `the chat call answered ${answer.status}` }));
        if (c.store) answer.headers['x-gw-response-id'] = pending.id;
        return answer;
      }
      if (answer.stream) {
        return { status: 200, headers: { ...SSE_HEADERS, ...headers }, stream: translateChatStream(answer.stream, pending, save) };
      }
      const final = fromChat(pending, (answer.json?.tryValue() ?? {}) as ChatCompletionLike);
      if (!final) {
        const error = Errors.badGateway('the chat call answered without a choice to read');
        await failWith(error, pending, save, c.store);
        throw error;
      }
      await save(final);
      // 246: a guardrail failed without deny; the answer stands and says so.
      return json(final, headers, answer.status);
    };

    const native = async (c: Creation, to: NativeTarget): Promise<GatewayResponse> => {
      const fallback = pendingResponse(newId('resp'), c.body, c.createdAt);
      // Native answers are stored once they are known, under the provider's id.
      const save = async (final: ResponseObject) => {
        if (c.store && !(await store.insert(c.owner, final, c.own))) {
          api.logger.warn({ provider: to.provider, responseId: final.id }, 'not stored: a stored response already has this id');
        }
      };
      const forwarded: Item = c.items.length === c.own.length && !c.expanded ? c.body : { ...c.body, input: c.items };
      if (c.expanded) delete forwarded['previous_response_id'];
      c.ctx.responseHeaders['x-gw-provider'] = to.provider;
      let answer;
      try {
        answer = await sendNative(transport, c.ctx, to, forwarded, timeoutMs);
      } catch (e) {
        // Nothing is stored yet, and a client that went away (499) learns no id: nothing to keep then.
        if (!(e instanceof GatewayError && e.status === 499)) await failWith(e, fallback, save, c.store);
        throw e;
      }
      const previous = c.expanded ? c.body.previous_response_id! : undefined;
      if (answer.kind === 'stream') {
        return { status: 200, headers: { ...SSE_HEADERS }, stream: passNativeStream(answer.body, { previousResponseId: previous, fallback, provider: to.provider }, save) };
      }
      const response = answer.value as ResponseObject;
      response.output_text = outputText(response.output);
      if (previous !== undefined) response.previous_response_id = previous;
      await save(response);
      return json(response, {});
    };

    routes.add({
      method: 'POST', path: '/v1/responses', body: 'json',
      handler: async (ctx) => {
        const raw = objectBody(ctx);
        const issue = createIssue(raw);
        if (issue) throw Errors.invalidBody(issue.path, issue.rule);
        const body = raw as CreateResponseBody;
        const config = await kernel.resolveConfig(ctx);
        const to = nativeTarget(config, nativeProviders);
        const owner = ownerOf(ctx.principal);
        const own: Item[] = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input as Item[]);
        let history: Item[] = [];
        let expanded = false;
        if (body.previous_response_id) {
          const before = await conversationBefore(store, owner, body.previous_response_id, maxChainDepth);
          if (before) {
            history = before;
            expanded = true;
          } else if (!to) {
            throw Errors.notFound(`previous_response_id: no stored response "${body.previous_response_id}"`, 'response_not_found');
          }
        }
        const { items, ownFrom } = fitContext(windows, body, [...history, ...own], history.length);
        const creation: Creation = { ctx, body, owner, own, items, ownFrom, expanded, store: body.store !== false, createdAt: nowSeconds() };
        return to ? native(creation, to) : translated(creation);
      },
    });

    routes.add({
      method: 'GET', path: '/v1/responses/:id', body: 'none',
      handler: async (ctx) => {
        const include = readInclude(ctx.request.query);
        const record = await store.get(ownerOf(ctx.principal), ctx.params['id']!);
        if (!record) throw Errors.notFound(`no stored response "${ctx.params['id']}"`, 'response_not_found');
        return json(withInclude(record.response, include), {});
      },
    });

    routes.add({
      method: 'GET', path: '/v1/responses/:id/input_items', body: 'none',
      handler: async (ctx) => {
        readInclude(ctx.request.query);
        const id = ctx.params['id']!;
        const record = await store.get(ownerOf(ctx.principal), id);
        if (!record) throw Errors.notFound(`no stored response "${id}"`, 'response_not_found');
        return json(pageOfItems(listedItems(record.response.id, record.input), ctx.request.query, id), {});
      },
    });

    routes.add({
      method: 'DELETE', path: '/v1/responses/:id', body: 'none',
      handler: async (ctx) => {
        const id = ctx.params['id']!;
        if (!(await store.delete(ownerOf(ctx.principal), id))) throw Errors.notFound(`no stored response "${id}"`, 'response_not_found');
        return json({ id, object: 'response', deleted: true }, {});
      },
    });
  }

  /** After in-flight requests: nothing of this process runs any more, so its leftovers are failed now. */
  async close(): Promise<void> {
    await this.#lease?.stop();
  }
}

/** Truncation (spec §7): over the window, `disabled` is a 400 and `auto` drops the oldest items (the last one stays). */
function fitContext(windows: ContextWindows, body: CreateResponseBody, items: Item[], ownFrom: number): { items: Item[]; ownFrom: number } {
  const window = windows.of(body.model);
  if (window === undefined) return { items, ownFrom };
  const tokens = estimateTokens(body.instructions, items);
  if (tokens <= window) return { items, ownFrom };
  if ((body.truncation ?? 'disabled') === 'disabled') {
    throw Errors.invalidRequest(
      `input: about ${tokens} tokens (characters / 4) exceed the ${window}-token context window of ${body.model}; send truncation "auto" to drop the oldest items`,
      'input', 'context_length_exceeded',
    );
  }
  let chars = tokens * 4;
  let drop = 0;
  while (drop < items.length - 1 && Math.ceil(chars / 4) > window) chars -= itemChars(items[drop++]);
  return { items: items.slice(drop), ownFrom: Math.max(0, ownFrom - drop) };
}

/** §4.12: file-search results are part of a stored response only when asked for; the other values concern input items. */
function withInclude(response: ResponseObject, include: ReadonlySet<string>): ResponseObject {
  if (include.has('file_search_call.results')) return response;
  if (!response.output.some((item) => item.type === 'file_search_call')) return response;
  return { ...response, output: response.output.map((item) => (item.type === 'file_search_call' ? { ...item, results: null } : item)) };
}

/** Stores the failure of a call; unexpected errors too, so that an `in_progress` record never outlives its request. */
async function failWith(e: unknown, pending: ResponseObject, save: (final: ResponseObject) => Promise<void>, stored: boolean): Promise<void> {
  if (!stored) return;
  if (!(e instanceof GatewayError)) {
    await save(failedResponse(pending, { code: 'server_error', message: 'the gateway failed while working on this response' }));
    return;
  }
  await save(failedResponse(pending, { code: e.code, message: e.message }));
  e.headers['x-gw-response-id'] = pending.id;
}

function gatewayHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) if (name.startsWith('x-gw-')) out[name] = headers[name]!;
  return out;
}

function json(value: unknown, headers: Record<string, string>, status = 200): GatewayResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, json: JsonPayload.of(value) };
}
