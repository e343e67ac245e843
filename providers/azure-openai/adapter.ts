/**
 * The Azure adapter (provider id `azure-openai`, the spec's cloudB): Azure OpenAI deployments and
 * Azure AI serverless / managed endpoints. Both speak the OpenAI format, so bodies pass through
 * (the client's bytes when no plugin changed them); only URL and auth differ (route.ts, auth.ts).
 * Rerank is served by Azure AI Cohere deployments, which speak Cohere's v2 rerank API: the Cohere
 * adapter's transforms are looked up in the provider registry when a rerank request arrives.
 */
import {
  encodeMultipart, Errors, isFormBody, type AdapterInput, type ConfigNode, type EndpointAdapter, type ProviderAdapter, type ProxyBase, type Registry, type UpstreamRequest,
} from '../../core/index.js';
import { azureHeaders } from './auth.js';
import { aiUrl, azureKind, openaiUrl, proxyRoot } from './route.js';
import { dropPromptFilterHead } from './stream.js';
import { validateAzureTarget } from './validate.js';

export const AZURE_PROVIDER = 'azure-openai';

/** The client's own bytes when no plugin changed the body. */
function requestBytes(input: AdapterInput): string | Uint8Array {
  const request = input.attempt.ctx.request;
  return input.body === request.body && request.rawBody ? request.rawBody : JSON.stringify(input.body);
}

/** An OpenAI-format operation: `/chat/completions` on Azure OpenAI, `/v1/chat/completions` on Azure AI. */
function passThrough(operation: string, streamed: boolean): EndpointAdapter {
  return {
    request(input): UpstreamRequest {
      const t = input.target;
      const kind = azureKind(t);
      const url = kind === 'openai' ? openaiUrl(t, operation, input.body['model']) : aiUrl(t, kind, '/v1' + operation);
      const headers = azureHeaders(t, kind);
      if (!isFormBody(input.body)) return { url, method: 'POST', headers, body: requestBytes(input) };
      // A form body (image edits, transcriptions) goes out as multipart again, written for this attempt.
      const form = encodeMultipart(input.body);
      return { url, method: 'POST', headers: { ...headers, 'content-type': form.contentType, 'content-length': String(form.length) }, body: form.body };
    },
    ...(streamed ? { stream: (body: AsyncIterable<Uint8Array>) => dropPromptFilterHead(body) } : {}),
  };
}

/** Azure AI model names carry a `cohere.` prefix the endpoint does not take. */
function upstreamInput(input: AdapterInput): AdapterInput {
  const model = input.body['model'];
  if (typeof model !== 'string' || !model.startsWith('cohere.')) return input;
  return { ...input, body: { ...input.body, model: model.slice('cohere.'.length) } };
}

function rerank(providers: Registry<ProviderAdapter>): EndpointAdapter {
  const cohere = (): EndpointAdapter => {
    const adapter = providers.get('cohere')?.endpoints['rerank'];
    if (!adapter) throw Errors.invalidRequest(`provider ${AZURE_PROVIDER} needs the provider.cohere plugin for rerank`, null, 'unsupported_endpoint');
    return adapter;
  };
  return {
    async request(input) {
      const t = input.target;
      const kind = azureKind(t);
      if (kind === 'openai') {
        throw Errors.invalidRequest(
          `provider ${AZURE_PROVIDER} serves rerank only from Azure AI deployments (cloudB_deployment_type serverless or managed)`,
          'cloudB_deployment_type', 'unsupported_endpoint',
        );
      }
      const built = await cohere().request(upstreamInput(input));
      return { ...built, url: aiUrl(t, kind, '/v2/rerank'), headers: azureHeaders(t, kind) };
    },
    response: (json, input) => {
      const transform = cohere().response;
      return transform ? transform(json, upstreamInput(input)) : json;
    },
    error: (status, body, input, headers) => {
      const transform = cohere().error;
      return transform ? transform(status, body, input, headers) : Errors.upstream(status, `provider ${AZURE_PROVIDER} answered ${status}`, AZURE_PROVIDER);
    },
  };
}

export function createAzureAdapter(providers: Registry<ProviderAdapter>): ProviderAdapter {
  return {
    id: AZURE_PROVIDER,
    endpoints: {
      chatComplete: passThrough('/chat/completions', true),
      complete: passThrough('/completions', true),
      embed: passThrough('/embeddings', false),
      imageGenerate: passThrough('/images/generations', false),
      imageEdit: passThrough('/images/edits', false),
      createSpeech: passThrough('/audio/speech', false),
      createTranscription: passThrough('/audio/transcriptions', false),
      createTranslation: passThrough('/audio/translations', false),
      rerank: rerank(providers),
    },
    validateTarget: validateAzureTarget,
    strictChat: true,
    proxyBase,
  };
}

/** Any other path for the generic proxy: the same key headers, the content-type left to the client. */
function proxyBase(t: ConfigNode): ProxyBase {
  const kind = azureKind(t);
  const { url, apiVersion } = proxyRoot(t, kind);
  const { 'content-type': _json, ...headers } = azureHeaders(t, kind);
  return apiVersion ? { url, headers, defaultQuery: { 'api-version': apiVersion } } : { url, headers };
}
