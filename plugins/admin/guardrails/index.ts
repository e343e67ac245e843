/**
 * admin.guardrails: stored guardrails (issue 8). Routes under /v1/guardrails (routes.ts).
 * Registers the store the guardrail runner reads (`GuardrailStoreService`): a config's guardrail array
 * may name a stored guardrail by id (or slug) instead of spelling it out, e.g.
 * `input_guardrails: ["gr-pii"]`. The store answers from memory (catalogue.ts).
 */
import { Services, MAX_TIMER_MS, GuardrailStoreService, Type, changesIn, type Plugin, type PluginApi, type Static } from '../../../core/index.js';
import { DirectoryService } from '../workspaces/contract.js';
import { GuardrailCatalogue } from './catalogue.js';
import { GuardrailRepo } from './repo.js';
import { registerRoutes } from './routes.js';
import { CheckValidator } from './validate.js';

const Options = Type.Object({
  /** How often stored guardrails are re-read (other gateway instances' changes); 0: never. */
  reloadIntervalMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 30_000 }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

export default class GuardrailStorePlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'admin.guardrails',
    description: 'Stored guardrails: /v1/guardrails, referenced by id from guardrail arrays',
    requires: [Services.Records],
    provides: [GuardrailStoreService],
    options: Options,
  };

  #timer?: NodeJS.Timeout;

  async apply(api: PluginApi<Options>): Promise<void> {
    const repo = new GuardrailRepo(api.services.get(Services.Records));
    await repo.init();
    const catalogue = new GuardrailCatalogue(repo);
    await catalogue.reload();
    catalogue.follow(changesIn(api.services), (e) => api.logger.warn({ err: e }, 'reloading guardrails failed'));
    api.services.provide(GuardrailStoreService, catalogue);
    registerRoutes(api.registries.routes, { repo, catalogue, checks: new CheckValidator(api.registries.checks), directory: () => api.services.find(DirectoryService) });
    if (api.options.reloadIntervalMs > 0) {
      this.#timer = setInterval(() => {
        catalogue.reload().catch((e: unknown) => api.logger.warn({ err: e }, 'reloading guardrails failed'));
      }, api.options.reloadIntervalMs);
      this.#timer.unref();
    }
  }

  close(): void {
    if (this.#timer) clearInterval(this.#timer);
  }
}
