/**
 * auth.api-key: every protected route needs a known, active `x-gw-api-key`. The first start seeds
 * an organisation-owner key from GW_BOOTSTRAP_API_KEY, or generates one and prints it once.
 */
import { Errors, Stage, Tokens, Type, type Plugin, type PluginApi, type RecordStore, type Static } from '../../core/index.js';
import { ApiKeyStore, generateSecret } from './key-store.js';

const Options = Type.Object({
  /** How long a verified key is trusted without re-reading the store. */
  cacheTtlMs: Type.Integer({ minimum: 0, default: 30_000 }),
  /** How long an unknown key is remembered as unknown. */
  negativeCacheTtlMs: Type.Integer({ minimum: 0, default: 5_000 }),
  cacheMaxEntries: Type.Integer({ minimum: 1, default: 10_000 }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

export default class ApiKeyAuthPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'auth.api-key',
    description: 'Gateway API key check on every protected route',
    dependsOn: ['store.sqlite'],
    options: Options,
  };

  async apply(api: PluginApi<Options>): Promise<void> {
    const keys = new ApiKeyStore(api.container.resolve<RecordStore>(Tokens.RecordStore), {
      ttlMs: api.options.cacheTtlMs,
      negativeTtlMs: api.options.negativeCacheTtlMs,
      maxEntries: api.options.cacheMaxEntries,
    });
    await keys.init();
    await seedFirstKey(keys, api);
    api.container.register(Tokens.KeyStore, { useValue: keys });

    api.hooks.onRequest.tapPromise({ name: api.id, stage: Stage.AUTH }, async (ctx) => {
      // Requests the gateway dispatches itself (batch lines) carry their creator's principal already.
      if (ctx.principal) return;
      const secret = ctx.request.headers['x-gw-api-key'];
      if (!secret) throw Errors.unauthorized('missing x-gw-api-key header');
      const principal = await keys.verify(secret);
      if (!principal) throw Errors.unauthorized('unknown, expired or revoked x-gw-api-key');
      ctx.principal = principal;
    });
  }
}

async function seedFirstKey(keys: ApiKeyStore, api: PluginApi<Options>): Promise<void> {
  if ((await keys.count()) > 0) return;
  const given = api.settings.bootstrapApiKey;
  if (given) {
    await keys.insertOwnerKey(given, 'bootstrap');
    api.logger.info('seeded the first API key from GW_BOOTSTRAP_API_KEY');
    return;
  }
  const secret = generateSecret(api.settings.env['API_KEY_PREFIX'] ?? 'gw-');
  await keys.insertOwnerKey(secret, 'generated');
  // Shown once, on the console, never through the logger (log sinks keep lines for a long time).
  process.stdout.write(`gw: generated the first API key (organisation owner), shown only now: ${secret}\n`);
}
