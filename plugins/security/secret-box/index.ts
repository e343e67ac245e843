/**
 * security.secret-box: registers the SecretBox service (AES-256-GCM) under Services.SecretBox.
 * Key: env GW_SECRET_KEY (32 bytes, base64 or hex; checked at boot), else `<dataDir>/secret.key`,
 * generated on the first start with mode 0600.
 */
import { join } from 'node:path';
import { Services, Type, type Plugin, type PluginApi, type Static } from '../../../core/index.js';
import { loadOrCreateKeyFile, parseKey } from './key.js';
import { AesGcmSecretBox } from './secret-box.js';

export type { SecretBox } from '../../../core/index.js';

const Options = Type.Object({
  /** Key file used when GW_SECRET_KEY is not set; default `<GW_DATA_DIR>/secret.key`. */
  keyFile: Type.Optional(Type.String({ minLength: 1 })),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

export default class SecretBoxPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'security.secret-box',
    description: 'Encrypts small secrets at rest (AES-256-GCM)',
    provides: [Services.SecretBox],
    options: Options,
  };

  async apply(api: PluginApi<Options>): Promise<void> {
    const fromEnv = api.settings.env['GW_SECRET_KEY'];
    let key: Buffer;
    if (fromEnv !== undefined && fromEnv !== '') {
      key = parseKey(fromEnv, 'GW_SECRET_KEY');
    } else {
      const loaded = await loadOrCreateKeyFile(api.options.keyFile ?? join(api.settings.dataDir, 'secret.key'));
      if (loaded.warning) api.logger.warn(loaded.warning);
      key = loaded.key;
    }
    api.services.provide(Services.SecretBox, new AesGcmSecretBox(key));
  }
}
