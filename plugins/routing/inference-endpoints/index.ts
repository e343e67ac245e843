/**
 * endpoints.inference: the unified (OpenAI-format) inference routes and rerank (spec §4.4). Each route
 * runs the kernel's inference lifecycle; its body is validated with compiled schemas (bodies/).
 */
import { Services, type EndpointDef, type Plugin, type PluginApi } from '../../../core/index.js';
import * as chat from './bodies/chat.js';
import * as completions from './bodies/completions.js';
import * as embeddings from './bodies/embeddings.js';
import * as moderations from './bodies/moderations.js';
import * as rerank from './bodies/rerank.js';

/** Spec §4.3: the model used when a moderation request names none. */
export const DEFAULT_MODERATION_MODEL = 'text-moderation-latest';

const ENDPOINTS: { path: string; def: EndpointDef }[] = [
  { path: '/v1/chat/completions', def: { id: 'chatComplete', validate: chat.validate, streamable: true, chunkObject: 'chat.completion.chunk' } },
  { path: '/v1/completions', def: { id: 'complete', validate: completions.validate, streamable: true, chunkObject: 'text_completion' } },
  { path: '/v1/embeddings', def: { id: 'embed', validate: embeddings.validate, streamable: false } },
  {
    path: '/v1/moderations',
    def: {
      id: 'moderate',
      validate: moderations.validate,
      streamable: false,
      normalize: (body) => (body['model'] === undefined || body['model'] === null ? { ...body, model: DEFAULT_MODERATION_MODEL } : body),
    },
  },
  { path: '/v1/rerank', def: { id: 'rerank', validate: rerank.validate, streamable: false } },
];

export default class InferenceEndpointsPlugin implements Plugin {
  static readonly manifest = { id: 'endpoints.inference', description: 'Chat, completions, embeddings, moderations and rerank routes' };

  apply(api: PluginApi): void {
    const kernel = api.services.get(Services.Kernel);
    const handler = kernel.runInference.bind(kernel);
    for (const { path, def } of ENDPOINTS) {
      api.registries.endpoints.register(def.id, def, api.id);
      api.registries.routes.add({ method: 'POST', path, body: 'json', endpoint: def, handler });
    }
  }
}
