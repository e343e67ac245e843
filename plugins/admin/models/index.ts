/**
 * admin.models: `GET /v1/models`, the models the caller can use through its integrations (spec
 * §2.3 v1.15.0): for every integration allowed in the caller's workspace, the provider's default
 * models plus the integration's own (`integration-models`), less those disabled there.
 * Open to every key (any workspace role). Filters: `provider`, `integration` (slug, `@` optional),
 * `search` (part of the model name, any case); `current_page`, `page_size`; `total_count` is the
 * filtered total. Reads integrations through `IntegrationsService`; without that
 * service the list is empty.
 */
import { Errors, Type, type Plugin, type PluginApi, type Static } from '../../../core/index.js';
import { json, pageOf, paginate } from '../../../core/index.js';
import { IntegrationsService, type Integrations } from '../integrations/contract.js';
import { DEFAULT_MODELS } from './defaults.js';

const Options = Type.Object({
  /** Provider id → default model names, replacing the built-in list of that provider. */
  defaultModels: Type.Record(Type.String(), Type.Array(Type.String({ minLength: 1 })), { default: {} }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

export interface ModelEntry {
  id: string;
  object: 'model';
  provider: string;
  integration: string;
  owned_by: string;
  /** `integration` when the integration lists it, `default` when it is the provider's default. */
  source: 'integration' | 'default';
}

export default class ModelsPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'admin.models',
    description: 'GET /v1/models: the models available to the caller through its integrations',
    options: Options,
  };

  apply(api: PluginApi<Options>): void {
    const defaults: Readonly<Record<string, readonly string[]>> = { ...DEFAULT_MODELS, ...api.options.defaultModels };
    const integrations = () => api.services.find(IntegrationsService);

    api.registries.routes.add({
      method: 'GET', path: '/v1/models',
      handler: async (ctx) => {
        if (!ctx.principal) throw Errors.unauthorized();
        const page = pageOf(ctx);
        const query = ctx.request.query;
        const provider = query.get('provider');
        const integration = query.get('integration')?.replace(/^@/, '') ?? null;
        const search = query.get('search')?.toLowerCase() ?? null;
        const entries: ModelEntry[] = [];
        for (const i of integrations()?.visibleTo(ctx.principal) ?? []) {
          if ((provider !== null && i.provider !== provider) || (integration !== null && i.slug !== integration)) continue;
          for (const m of modelsOf(i, defaults)) {
            if (search === null || m.id.toLowerCase().includes(search)) entries.push(m);
          }
        }
        return json(200, paginate(entries, page));
      },
    });
  }
}

function modelsOf(i: ReturnType<Integrations['visibleTo']>[number], defaults: Readonly<Record<string, readonly string[]>>): ModelEntry[] {
  const listed = new Map(i.models.map((m) => [m.slug, m.enabled]));
  const entry = (id: string, source: ModelEntry['source']): ModelEntry => ({
    id, object: 'model', provider: i.provider, integration: i.slug, owned_by: i.provider, source,
  });
  const out: ModelEntry[] = [];
  for (const id of defaults[i.provider] ?? []) if (!listed.has(id)) out.push(entry(id, 'default'));
  for (const m of i.models) if (m.enabled) out.push(entry(m.slug, 'integration'));
  return out.sort((a, b) => a.id.localeCompare(b.id));
}
