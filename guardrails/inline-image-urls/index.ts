/** guardrail.inline-image-urls: registers `default.inlineImageUrls`. */
import { Services, Type, type Plugin, type PluginApi, type Static } from '../../core/index.js';
import { createInlineImageUrlsCheck } from './check.js';

const Options = Type.Object({
  /** Let the check fetch URLs that resolve to loopback / private / link-local addresses (off: SSRF guard). */
  allowPrivateNetwork: Type.Boolean({ default: false }),
}, { additionalProperties: false });

export default class InlineImageUrlsGuardrail implements Plugin<Static<typeof Options>> {
  static readonly manifest = { id: 'guardrail.inline-image-urls', description: 'default.inlineImageUrls: image URLs of a request are reachable images of bounded size', options: Options };

  apply(api: PluginApi<Static<typeof Options>>): void {
    const check = createInlineImageUrlsCheck(api.services.get(Services.Transport), api.options);
    api.registries.checks.register(check.id, check, api.id);
  }
}
