/**
 * observe.logs: every request recorded after its answer, off the request path, in the record store
 * (table `request_logs`), with routes to read them.
 *
 *   onResponse  → one entry (field reads; the usage scan reads a few bytes) into a bounded queue
 *                 (oldest shed and counted under overload: a request never waits for the log)
 *   every flushIntervalMs, or once batchSize entries wait → the batch, one at a time (store.ts): on
 *                 SQLite a transaction in the store's writer thread, on PostgreSQL one unnest INSERT
 *   close (SIGTERM)  → the queue and the batch in flight are written before the store closes
 *   every retentionSweepIntervalMs → rows older than retentionDays are deleted, by one instance of a fleet
 *
 * Per request it also keeps what the answer alone does not tell: time in provider calls (an
 * innermost wrapAttempt, so every try counts) and the model sent upstream; for streams whose
 * client asked for `stream_options.include_usage`, the tail where the usage chunk is (without
 * that option a stream's tokens are unknown: null). Bodies only with `recordBodies`, redacted.
 * Cost comes from `PricingService` (policy.usage-limits) when loaded, else null; a cache hit costs 0.
 * The serving integration's `pricing_adjustments.multiplier` applies (the pricing service reads it).
 * The `RequestLogsService` (contract.ts, service.ts) serves analytics and metrics.
 */
import {
  PeriodicWork, Services, MAX_TIMER_MS, Stage, StringEnum, Type, WrapStage,
  type Plugin, type PluginApi, type RequestContext, type Static,
} from '../../../core/index.js';
import { captureOf, keepTail, timeCalls } from './capture.js';
import { pendingLog } from './entry.js';
import { PricingService } from '../../policies/usage-limits/contract.js';
import { RequestLogsService } from './contract.js';
import { Recorder } from './recorder.js';
import { registerLogRoutes } from './routes.js';
import { MAX_ROWS_PER_INSERT } from './schema.js';
import { createService } from './service.js';
import { LogStore } from './store.js';
import { Visibility } from './visibility.js';

const Options = Type.Object({
  /** Entries waiting to be written; beyond it the oldest are shed (and counted). */
  queueCapacity: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 10_000 }),
  /** Rows written together (capped so one statement's parameters fit every engine). */
  batchSize: Type.Integer({ minimum: 1, maximum: MAX_ROWS_PER_INSERT, default: 500 }),
  /** Longest wait before queued entries are written: about what a crash (kill -9) may lose (at most ~batchSize entries plus the batch being written). */
  flushIntervalMs: Type.Integer({ minimum: 10, maximum: 60_000, default: 200 }),
  /** Record request and response bodies (secrets redacted). Off by default: bodies hold users' data. */
  recordBodies: Type.Boolean({ default: false }),
  /** Longest recorded body (characters of its JSON); longer ones are cut and marked `…[truncated]`. */
  maxBodyBytes: Type.Integer({ minimum: 256, maximum: 16 * 1024 * 1024, default: 64 * 1024 }),
  /** Index trace ids: fast `trace_id` filters on large tables, for about twice the write cost per row on SQLite. */
  indexTraceIds: Type.Boolean({ default: false }),
  /** Age after which logs are deleted. */
  retentionDays: Type.Number({ exclusiveMinimum: 0, maximum: 3650, default: 30 }),
  /** How often the retention sweep runs. */
  retentionSweepIntervalMs: Type.Integer({ minimum: 10, maximum: MAX_TIMER_MS, default: 60 * 60_000 }),
  /** `inference`: requests to inference routes (chat, completions, embeddings ...); `all`: every route but the log, analytics, metrics and health routes. */
  routes: StringEnum(['inference', 'all'], { default: 'inference' }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

const DAY_MS = 24 * 60 * 60_000;
/** The first retention sweep runs shortly after boot, not during it. */
const FIRST_SWEEP_DELAY_MS = 5_000;

export default class RequestLogsPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'observe.logs',
    description: 'Request logs in the record store: batched, bounded, with retention and /v1/logs routes',
    requires: [Services.Records],
    provides: [RequestLogsService],
    options: Options,
  };

  #recorder?: Recorder;
  #retention?: PeriodicWork;

  async apply(api: PluginApi<Options>): Promise<void> {
    const o = api.options;
    const logs = new LogStore(api.services.get(Services.Records));
    await logs.init(o.indexTraceIds);
    const recorder = new Recorder(logs, {
      capacity: o.queueCapacity,
      batchSize: o.batchSize,
      flushIntervalMs: o.flushIntervalMs,
      rows: { maxBodyBytes: o.maxBodyBytes },
      // The usage-limits plugin may be applied after this one: looked up when a batch is written.
      pricing: () => api.services.find(PricingService),
    }, api.logger);
    this.#recorder = recorder;
    const visibility = new Visibility(api.services);
    const service = createService(recorder, logs, visibility, o.retentionDays * DAY_MS);
    api.services.provide(RequestLogsService, service);
    registerLogRoutes(api.registries.routes, logs, visibility, service, api.services);

    const recorded = o.routes === 'inference' ? isInference : isRecordedRoute;
    const bodies = o.recordBodies;
    const maxBodyBytes = bodies ? o.maxBodyBytes : 0;

    api.hooks.wrapAttempt.tap({ name: api.id, stage: WrapStage.CALL }, (run) => timeCalls(run));

    // Streams are written after this: keep their tail (usage chunk) when it can hold usage, or the body.
    api.hooks.respond.tap({ name: api.id, stage: Stage.OBSERVE }, (response, ctx) => {
      if (response.stream && recorded(ctx) && (bodies || asksForUsage(ctx))) {
        response.stream = keepTail(response.stream, captureOf(ctx), maxBodyBytes);
      }
      return response;
    });

    api.hooks.onResponse.tap({ name: api.id, stage: Stage.OBSERVE }, (ctx, response, completion) => {
      if (!recorded(ctx)) return;
      try {
        recorder.push(pendingLog(ctx, response, completion, bodies));
      } catch (e) {
        api.logger.error({ err: e, traceId: ctx.traceId || undefined }, 'request log entry failed');
      }
    });

    // One instance of a fleet sweeps per interval (a work lease); deleting is idempotent anyway.
    this.#retention = new PeriodicWork(api.services.get(Services.WorkLeases), 'observe.logs:retention', o.retentionSweepIntervalMs, async () => {
      const n = await service.sweep();
      if (n > 0) api.logger.info({ deleted: n, retentionDays: o.retentionDays }, 'request logs past retention deleted');
    }, (e) => api.logger.warn({ err: e }, 'request log retention sweep failed'));
    this.#retention.start(Math.min(FIRST_SWEEP_DELAY_MS, o.retentionSweepIntervalMs));
  }

  async close(): Promise<void> {
    await this.#retention?.stop();
    await this.#recorder?.close();
  }
}

function isInference(ctx: RequestContext): boolean {
  return ctx.endpoint !== undefined;
}

/** `routes: all`: reading the logs (or scraping metrics) is not itself logged. */
function isRecordedRoute(ctx: RequestContext): boolean {
  const path = ctx.route.path;
  return path !== '/metrics' && path !== '/health' && !path.startsWith('/v1/logs') && !path.startsWith('/v1/analytics');
}

function asksForUsage(ctx: RequestContext): boolean {
  if (ctx.endpoint?.streamUsage) return true;
  const options = ctx.body['stream_options'];
  return options !== null && typeof options === 'object' && (options as Record<string, unknown>)['include_usage'] === true;
}
