/**
 * One request's log entry: picked from the finished request in `onResponse` (field reads, the
 * usage scan of a few bytes, and the hook results' compact text), turned into a row when its batch
 * is written (the rest of the JSON, redaction and the cost are paid there, off the request path).
 * `recordBodies` also decides whether check `data` (which may quote the user's text) is kept.
 */
import { CallSubjectKey, GuardrailResultsKey, UsageMeterKey, type Completion, type GatewayResponse, type RequestContext } from '../../../core/index.js';
import { StoredConfigIdKey } from '../../admin/configs/contract.js';
import { PromptIdKey } from '../../features/prompts/contract.js';
import { SpanKey, type SpanInfo } from '../trace-ids/contract.js';
import { CaptureKey } from './capture.js';
import { hookRowsText } from './hook-rows.js';
import { redact } from './redact.js';
import { usageFromJson, usageFromPayload, usageFromSseTail, type Usage } from './usage.js';

const CACHE_STATUS_HEADER = 'x-gw-cache-status';
const decoder = new TextDecoder();

export interface PendingLog {
  createdAt: number;
  organisationId: string | null;
  workspaceId: string | null;
  apiKeyId: string | null;
  traceId: string | null;
  span: SpanInfo | undefined;
  method: string;
  path: string;
  endpoint: string | null;
  configId: string | null;
  promptId: string | null;
  provider: string | null;
  integration: string | null;
  model: string | null;
  target: string | null;
  status: number;
  errorCode: string | null;
  reason: string | null;
  stream: boolean;
  latencyMs: number;
  upstreamMs: number | null;
  usage: Usage | undefined;
  cacheStatus: string | null;
  retries: number;
  metadata: Record<string, string> | undefined;
  /**
   * Hook results as the row stores them (hook-rows.ts), made now rather than at the batch write:
   * a result's objects kept for the batch's lifetime outlive a minor GC or two (copied, then
   * promoted); one string does not cost that.
   */
  hooks: string | null;
  requestBody: unknown;
  responseBody: string | Uint8Array | readonly Uint8Array[] | undefined;
  responseCut: boolean;
}

export function pendingLog(ctx: RequestContext, response: GatewayResponse, completion: Completion, recordBodies: boolean): PendingLog {
  const principal = ctx.principal;
  const outcome = ctx.outcome;
  const target = outcome?.target;
  const capture = ctx.values.get(CaptureKey);
  // A stream cut after its 200 is logged with its error's status and code.
  const status = completion.status;
  const ok = status < 400;
  const json = response.json;
  let usage: Usage | undefined;
  if (response.stream) {
    if (ok) usage = (capture ? withHeadInput(usageFromSseTail(capture.tail), capture.head) : undefined) ?? meteredUsage(ctx);
  } else {
    // The provider's answer as it came back; else (a cache hit) the answer sent.
    usage = capture?.usage ?? (ok && json ? usageFromPayload(json) : undefined);
  }
  const subject = ctx.values.get(CallSubjectKey);
  const model = subject ? subject.model : capture?.model ?? ctx.body['model'];
  const provider = subject?.provider ?? outcome?.provider ?? (typeof target?.provider === 'string' && !target.provider.startsWith('@') ? target.provider : undefined);
  return {
    createdAt: Math.round(performance.timeOrigin + ctx.startedAt),
    // '' for a caller without an organisation (it queries with ''); null for an unauthenticated request: nobody's.
    organisationId: principal ? principal.organisationId ?? '' : null,
    workspaceId: principal?.workspaceId ?? null,
    apiKeyId: principal?.keyId ?? null,
    traceId: ctx.traceId || null,
    span: ctx.values.get(SpanKey),
    method: ctx.request.method,
    // A fallback route (`/v1/*`, the generic proxy) is logged with the path it served.
    path: ctx.route.path.endsWith('/*') ? ctx.request.path : ctx.route.path,
    endpoint: ctx.endpoint?.id ?? null,
    configId: configIdOf(ctx),
    promptId: promptIdOf(ctx),
    provider: provider ?? null,
    integration: integrationOf(target),
    model: typeof model === 'string' ? model : null,
    target: target?.$path ?? null,
    status,
    errorCode: ok ? null : errorCodeOf(ctx, response),
    reason: ctx.reason ?? null,
    stream: ctx.stream,
    latencyMs: completion.durationMs,
    upstreamMs: capture && capture.upstreamMs > 0 ? capture.upstreamMs : null,
    usage,
    cacheStatus: response.headers[CACHE_STATUS_HEADER] ?? null,
    retries: outcome?.retries ?? 0,
    metadata: hasKeys(ctx.metadata) ? ctx.metadata : undefined,
    hooks: hookRowsText(ctx.values.get(GuardrailResultsKey), recordBodies),
    requestBody: recordBodies ? ctx.body : undefined,
    responseBody: recordBodies ? (response.stream ? capture?.body : json?.bytes() ?? response.raw) : undefined,
    responseCut: recordBodies && response.stream !== undefined && capture?.bodyCut === true,
  };
}

/** A stored config's id: set by the plugin that resolved it, or the `x-gw-config` header when it names one. */
function configIdOf(ctx: RequestContext): string | null {
  const known = ctx.values.get(StoredConfigIdKey);
  if (typeof known === 'string') return known;
  const header = ctx.request.headers['x-gw-config'];
  if (header === undefined) return null;
  const text = header.trim();
  return text === '' || text.startsWith('{') ? null : text;
}

function promptIdOf(ctx: RequestContext): string | null {
  const known = ctx.values.get(PromptIdKey);
  if (typeof known === 'string') return known;
  const ref = ctx.config?.prompt_id;
  if (typeof ref !== 'string') return null;
  const at = ref.indexOf('@');
  return at === -1 ? ref : ref.slice(0, at);
}

/** The stored integration behind a target (`@slug` or legacy virtual key), when it used one. */
function integrationOf(target: Record<string, unknown> | undefined): string | null {
  if (!target) return null;
  const vk = target['virtual_key'];
  if (typeof vk === 'string') return vk;
  const provider = target['provider'];
  return typeof provider === 'string' && provider.startsWith('@') ? provider : null;
}

function errorCodeOf(ctx: RequestContext, response: GatewayResponse): string | null {
  const code = ctx.streamError?.code ?? ctx.outcome?.error?.code;
  if (code) return code;
  const envelope = response.json?.tryValue() as { error?: { code?: unknown } } | undefined;
  const c = envelope?.error?.code;
  return typeof c === 'string' ? c : null;
}

/** A stream's end that reports no input tokens takes them from its head (a Messages stream's message_start). */
function withHeadInput(usage: Usage | undefined, head: Uint8Array | undefined): Usage | undefined {
  if (!usage || usage.prompt_tokens !== null || !head) return usage;
  const input = usageFromJson(head)?.prompt_tokens ?? null;
  if (input === null) return usage;
  return { prompt_tokens: input, completion_tokens: usage.completion_tokens, total_tokens: input + (usage.completion_tokens ?? 0) };
}

/** Usage another plugin's meter read from the stream; estimates are not recorded (unknown stays null). */
function meteredUsage(ctx: RequestContext): Usage | undefined {
  const result = ctx.values.get(UsageMeterKey)?.result();
  if (!result || result.estimated) return undefined;
  return { prompt_tokens: result.promptTokens, completion_tokens: result.completionTokens, total_tokens: result.promptTokens + result.completionTokens };
}

function hasKeys(o: Record<string, unknown>): boolean {
  for (const _ in o) return true;
  return false;
}

export interface RowOptions {
  maxBodyBytes: number;
}

/** The values of one row, in `COLUMNS` order. */
export function toRow(e: PendingLog, id: string, cost: number | null, o: RowOptions): unknown[] {
  const u = e.usage;
  return [
    id, e.createdAt, e.organisationId, e.workspaceId, e.apiKeyId, e.traceId, e.span?.spanId ?? null,
    e.span?.parentSpanId ?? null, e.span?.spanName ?? null, e.method, e.path, e.endpoint, e.configId, e.promptId,
    e.provider, e.integration, e.model, e.target, e.status, e.errorCode, e.reason, e.stream ? 1 : 0,
    round(e.latencyMs), e.upstreamMs === null ? null : round(e.upstreamMs), u?.prompt_tokens ?? null,
    u?.completion_tokens ?? null, u?.total_tokens ?? null, cost, e.cacheStatus, e.retries,
    e.metadata ? JSON.stringify(e.metadata) : null, e.hooks,
    e.requestBody === undefined ? null : bodyText(JSON.stringify(redact(e.requestBody)), o.maxBodyBytes),
    responseText(e, o.maxBodyBytes),
  ];
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

function responseText(e: PendingLog, max: number): string | null {
  const body = e.responseBody;
  if (body === undefined) return null;
  if (Array.isArray(body)) {
    const text = (body as readonly Uint8Array[]).map((c) => decoder.decode(c, { stream: true })).join('') + decoder.decode();
    return bodyText(redact(text) as string, max, e.responseCut);
  }
  const text = typeof body === 'string' ? body : decoder.decode(body as Uint8Array);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return bodyText(redact(text) as string, max);
  }
  return bodyText(JSON.stringify(redact(value)), max);
}

/** A body over the cap is cut and marked, so a reader knows it is not whole. */
function bodyText(text: string, max: number, alreadyCut = false): string {
  if (text.length <= max && !alreadyCut) return text;
  return `${text.slice(0, max)}…[truncated]`;
}
