/**
 * auth.api-key: every protected route needs a known, active `x-gw-api-key`. The first start seeds
 * an organisation-owner key from GW_BOOTSTRAP_API_KEY, or generates one and prints it once.
 * Provides the key store (Services.KeyStore: verification and the key life cycle, see key-store.ts)
 * and runs scheduled rotation. Expired, deleted and rotated-out keys (after their transition
 * window) get 401; verdicts are cached in memory and never outlive a key's validity. A key written
 * on any instance clears every instance's verdicts through the invalidation bus (Services.Changes);
 * without a relay (no Redis) other instances see it within `cacheTtlMs`.
 * Inference and MCP routes also take the key as `Authorization: Bearer` or `x-api-key` when no
 * `x-gw-api-key` is sent (caller-key.ts): what coding agents and MCP clients send.
 */
import {
  Services, MAX_TIMER_MS, BoundedInteger, DAY_MS, Errors, Stage, systemClock, Type,
  changesIn, type Clock, type Plugin, type PluginApi, type Static,
} from '../../../core/index.js';
import { carriedKeyOf, takesCarriedKey } from './caller-key.js';
import { ApiKeyStore } from './key-store.js';
import { RotationScheduler } from './rotation-scheduler.js';
import { DEFAULT_PREFIX, generateSecret } from './secrets.js';

export type { Clock } from '../../../core/index.js';

/** Spec §8: a rotation's transition window is at least 30 minutes; at most 30 days (as on the routes). */
export const MIN_TRANSITION_MS = 30 * 60 * 1000;
const MAX_TRANSITION_MS = 30 * DAY_MS;

const Options = Type.Object({
  /** How long a verified key is trusted without re-reading the store (changes made on this instance apply at once). */
  cacheTtlMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 30_000 }),
  /** How long an unknown key is remembered as unknown. */
  negativeCacheTtlMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 5_000 }),
  cacheMaxEntries: Type.Integer({ minimum: 1, default: 10_000 }),
  /** Transition window of a rotation when neither the request nor the key's policy names one. */
  defaultTransitionMs: BoundedInteger(MIN_TRANSITION_MS, MAX_TRANSITION_MS, 'milliseconds', { default: MIN_TRANSITION_MS }),
  /** How often keys with a rotation policy are checked for a due rotation; 0 turns scheduled rotation off. */
  rotationCheckIntervalMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 60_000 }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

export default class ApiKeyAuthPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'auth.api-key',
    description: 'Gateway API keys: the check on every protected route, rotation, the key store',
    requires: [Services.Records],
    provides: [Services.Auth, Services.KeyStore],
    options: Options,
  };

  #scheduler?: RotationScheduler;

  /** `clock` is for tests (expiry, transition windows, schedules); the loader constructs plugins without arguments. */
  constructor(private readonly clock: Clock = systemClock) {}

  async apply(api: PluginApi<Options>): Promise<void> {
    const keys = new ApiKeyStore(api.services.get(Services.Records), {
      ttlMs: api.options.cacheTtlMs,
      negativeTtlMs: api.options.negativeCacheTtlMs,
      maxEntries: api.options.cacheMaxEntries,
      prefix: api.settings.env['API_KEY_PREFIX'] ?? DEFAULT_PREFIX,
      defaultTransitionMs: api.options.defaultTransitionMs,
      sealer: () => api.services.find(Services.SecretBox),
    }, this.clock);
    await keys.init();
    keys.followChanges(changesIn(api.services));
    await seedFirstKey(keys, api);
    api.services.provide(Services.KeyStore, keys);
    api.services.provide(Services.Auth, { verify: (secret) => keys.verify(secret) });

    api.hooks.onRequest.tapPromise({ name: api.id, stage: Stage.AUTH }, async (ctx) => {
      // Requests the gateway dispatches itself (batch lines) carry their creator's principal already.
      if (ctx.principal) return;
      const headers = ctx.request.headers;
      const secret = headers['x-gw-api-key'];
      if (!secret) {
        const carried = takesCarriedKey(ctx.route) ? carriedKeyOf(headers) : undefined;
        if (!carried) throw Errors.unauthorized(takesCarriedKey(ctx.route) ? 'missing x-gw-api-key, Authorization: Bearer or x-api-key header' : 'missing x-gw-api-key header');
        const principal = await keys.verify(carried.token);
        if (!principal) {
          throw Errors.unauthorized(`the ${carried.header === 'authorization' ? 'Authorization: Bearer' : 'x-api-key'} token is not a known gateway key `
            + '(unknown, expired, deleted or rotated out); to send a provider key in direct mode, send the gateway key as x-gw-api-key');
        }
        // Taken off: nothing after this (direct-mode headers, stored configs, forward_headers) may send the gateway key on.
        delete headers[carried.header];
        ctx.principal = principal;
        return;
      }
      const principal = await keys.verify(secret);
      if (!principal) throw Errors.unauthorized('unknown, expired, deleted or rotated-out x-gw-api-key');
      ctx.principal = principal;
    });

    this.#scheduler = new RotationScheduler(keys, api.options.rotationCheckIntervalMs, api.logger, api.services.get(Services.WorkLeases));
    this.#scheduler.start();
  }

  async close(): Promise<void> {
    await this.#scheduler?.stop();
  }
}

async function seedFirstKey(keys: ApiKeyStore, api: PluginApi<Options>): Promise<void> {
  if ((await keys.count()) > 0) return;
  const given = api.settings.bootstrapApiKey;
  if (given) {
    if (await keys.seedOwnerKey(given, 'bootstrap')) api.logger.info('seeded the first API key from GW_BOOTSTRAP_API_KEY');
    return;
  }
  const secret = generateSecret(api.settings.env['API_KEY_PREFIX'] ?? DEFAULT_PREFIX);
  // Another instance starting at the same time may have seeded first: then there is nothing to show.
  if (!(await keys.seedOwnerKey(secret, 'generated'))) return;
  // Shown once, on the console, never through the logger (log sinks keep lines for a long time).
  process.stdout.write(`gw: generated the first API key (organisation owner), shown only now: ${secret}\n`);
}
