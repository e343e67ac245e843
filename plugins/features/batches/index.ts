/**
 * feature.batches: `/v1/batches` (create, get, cancel, list). Provider batches are forwarded
 * (provider.ts); gateway-managed batches run every input line through the gateway's own pipeline
 * with bounded concurrency, survive restarts, and write OpenAI-format output and error files
 * (run.ts). Records live in the record store; the config a batch runs with is sealed with the
 * secret box.
 */
import {
  Services, DEFAULT_JSON_MAX_DEPTH, MAX_TIMER_MS, systemClock, Type,
  type Clock, type Plugin, type PluginApi, type Static,
} from '../../../core/index.js';
import { BatchManager } from './manager.js';
import { ProviderBatches } from './provider.js';
import { BatchRepo } from './repo.js';
import { batchRoutes } from './routes.js';

export type { Clock } from '../../../core/index.js';

const Options = Type.Object({
  /** Lines of one managed batch in flight at once. */
  concurrency: Type.Integer({ minimum: 1, maximum: 1024, default: 8 }),
  /** Requests per input file (OpenAI's limit). */
  maxLines: Type.Integer({ minimum: 1, default: 50_000 }),
  /** Longest input line, bytes. */
  maxLineBytes: Type.Integer({ minimum: 1024, default: 10 * 1024 * 1024 }),
  /** Validation problems reported in `errors.data`. */
  maxReportedErrors: Type.Integer({ minimum: 1, default: 100 }),
  /** Window of an `immediate` batch (`24h` is 86400 s), seconds, counted from created_at. */
  immediateWindowSeconds: Type.Integer({ minimum: 1, default: 24 * 3600 }),
  /** Provider ids whose OpenAI-compatible API has `/batches` (base URLs come from feature.files). */
  batchProviders: Type.Array(Type.String({ minLength: 1 }), { default: ['openai'] }),
  /** How often running batches are checked against their window. */
  expiryCheckIntervalMs: Type.Integer({ minimum: 1, maximum: MAX_TIMER_MS, default: 60_000 }),
  /** How long this instance's claim on a running batch lasts without renewal (another takes it over after). */
  leaseTtlMs: Type.Integer({ minimum: 100, maximum: MAX_TIMER_MS, default: 20_000 }),
  /** How often claims on running batches are renewed; well under leaseTtlMs. */
  leaseHeartbeatMs: Type.Integer({ minimum: 10, maximum: MAX_TIMER_MS, default: 5_000 }),
  /** How often active batches nobody holds are looked for. */
  leaseScanIntervalMs: Type.Integer({ minimum: 10, maximum: MAX_TIMER_MS, default: 10_000 }),
  /** How long shutdown waits for running batches to record finished lines. */
  shutdownTimeoutMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 10_000 }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

export default class BatchesPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'feature.batches',
    description: 'Batches: forwarded to the provider or run by the gateway',
    requires: [Services.Records, Services.Files, Services.SecretBox], dependsOn: ['security.secret-box'],
    options: Options,
  };

  #manager?: BatchManager;

  /** `clock` is for tests (expiry); the loader constructs plugins without arguments. */
  constructor(private readonly clock: Clock = systemClock) {}

  async apply(api: PluginApi<Options>): Promise<void> {
    const options = api.options;
    if (options.leaseHeartbeatMs >= options.leaseTtlMs) {
      throw new Error(`feature.batches: leaseHeartbeatMs (${options.leaseHeartbeatMs}) must be less than leaseTtlMs (${options.leaseTtlMs})`);
    }
    const kernel = api.services.get(Services.Kernel);
    const files = api.services.get(Services.Files);
    const box = api.services.get(Services.SecretBox);
    const repo = new BatchRepo(api.services.get(Services.Records));
    await repo.init();
    const manager = new BatchManager({
      kernel,
      routes: api.registries.routes,
      repo,
      files,
      clock: this.clock,
      logger: api.logger,
      options: {
        concurrency: options.concurrency,
        maxLines: options.maxLines,
        maxLineBytes: options.maxLineBytes,
        maxJsonDepth: api.settings.jsonMaxDepth ?? DEFAULT_JSON_MAX_DEPTH,
        maxReportedErrors: options.maxReportedErrors,
      },
    }, box, {
      expiryCheckIntervalMs: options.expiryCheckIntervalMs,
      shutdownTimeoutMs: options.shutdownTimeoutMs,
      leaseTtlMs: options.leaseTtlMs,
      heartbeatMs: options.leaseHeartbeatMs,
      scanIntervalMs: options.leaseScanIntervalMs,
    }, api.services.get(Services.WorkLeases));
    this.#manager = manager;
    const routes = batchRoutes({
      kernel,
      routes: api.registries.routes,
      repo,
      files,
      box,
      clock: this.clock,
      manager,
      providerBatches: new ProviderBatches(repo, files, box, this.clock),
      batchProviders: new Set(options.batchProviders),
      immediateWindowSeconds: options.immediateWindowSeconds,
    });
    for (const route of routes) api.registries.routes.add(route);
    manager.startTimers();
    // Lines need providers, strategies and policies in place: resume once every plugin is applied.
    api.hooks.ready.tapPromise(api.id, () => manager.resumeInterrupted());
  }

  async close(): Promise<void> {
    await this.#manager?.close();
  }
}
