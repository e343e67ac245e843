/** guardrail.valid-urls: registers `default.validUrls`. */
import { Services, Type, type Plugin, type PluginApi, type Static } from '../../core/index.js';
import { createValidUrlsCheck } from './check.js';

const Options = Type.Object({
  /** Let the check fetch URLs that resolve to loopback / private / link-local addresses (off: SSRF guard). */
  allowPrivateNetwork: Type.Boolean({ default: false }),
}, { additionalProperties: false });

export default class ValidUrlsGuardrail implements Plugin<Static<typeof Options>> {
  static readonly manifest = { id: 'guardrail.valid-urls', description: 'default.validUrls: the URLs in the text resolve or answer', options: Options };

  apply(api: PluginApi<Static<typeof Options>>): void {
    const check = createValidUrlsCheck(api.services.get(Services.Transport), api.options);
    api.registries.checks.register(check.id, check, api.id);
  }
}
