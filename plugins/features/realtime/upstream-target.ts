/**
 * Where a realtime session goes: the first leaf of the request's config (a session is one
 * connection to one account, so it neither load-balances nor falls back), as a ws(s) URL with the
 * provider's credential headers. OpenAI-compatible providers: `<base>/realtime?<query>`, the base
 * being the target's `custom_host` or the provider's default from the options, http(s) turned
 * into ws(s). Azure OpenAI: `wss://<resource>.openai.azure.com/openai/realtime?api-version&deployment`
 * with `api-key`. The client's query goes along, minus the gateway's own parameters (`x-gw-*`).
 */
import {
  baseUrlOf, Errors, type ConfigNode, type HeaderMap,
} from '../../../core/index.js';
import { withOpenAICredentials } from '../../../providers/openai/credentials.js';

export interface UpstreamTarget {
  provider: string;
  url: URL;
  headers: Record<string, string>;
}

export interface TargetOptions {
  /** OpenAI-compatible providers: id → default base URL (with the version segment). */
  providers: Readonly<Record<string, string>>;
  azureApiVersion: string;
}

const AZURE = 'azure-openai';
const GATEWAY_PREFIX = 'x-gw-';
/** Client headers a realtime server reads, passed on as they came. */
const PASSED_HEADERS = ['openai-beta', 'openai-safety-identifier'];

export function upstreamTarget(target: ConfigNode, query: URLSearchParams, clientHeaders: HeaderMap, options: TargetOptions): UpstreamTarget {
  const provider = target.provider;
  if (typeof provider !== 'string') throw Errors.invalidConfig('provider', 'is required for realtime');
  const headers: Record<string, string> = {};
  for (const name of PASSED_HEADERS) {
    const value = clientHeaders[name];
    if (value !== undefined) headers[name] = value;
  }
  const forwarded = new URLSearchParams();
  // As with headers, nothing named x-gw-* goes to a provider.
  for (const [name, value] of query) if (!name.toLowerCase().startsWith(GATEWAY_PREFIX)) forwarded.append(name, value);

  if (provider === AZURE && typeof target.custom_host !== 'string') return azureTarget(target, forwarded, headers, options);
  const known = Object.hasOwn(options.providers, provider) ? options.providers[provider] : undefined;
  if (known === undefined && typeof target.custom_host !== 'string') throw Errors.unsupportedEndpoint(provider, 'realtime');
  const url = wsUrl(`${baseUrlOf(target, known ?? '')}/realtime`, 'custom_host');
  url.search = forwarded.toString();
  return { provider, url, headers: withOpenAICredentials(target, headers) };
}

function azureTarget(target: ConfigNode, query: URLSearchParams, headers: Record<string, string>, options: TargetOptions): UpstreamTarget {
  const resource = target['resource_name'] ?? target['cloudB_resource_name'];
  const deployment = target['deployment_id'] ?? target['cloudB_deployment_id'];
  if (typeof resource !== 'string' || !/^[A-Za-z0-9-]{1,64}$/.test(resource)) {
    throw Errors.invalidConfig('resource_name', 'is required for realtime on azure-openai (letters, digits and "-")');
  }
  if (typeof deployment !== 'string' || deployment === '') throw Errors.invalidConfig('deployment_id', 'is required for realtime on azure-openai');
  const url = new URL(`wss://${resource}.openai.azure.com/openai/realtime`);
  query.delete('model'); // the deployment names the model
  query.set('api-version', typeof target['api_version'] === 'string' ? target['api_version'] : options.azureApiVersion);
  query.set('deployment', deployment);
  url.search = query.toString();
  if (typeof target.api_key === 'string') headers['api-key'] = target.api_key;
  return { provider: AZURE, url, headers };
}

function wsUrl(base: string, param: string): URL {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw Errors.invalidConfig(param, 'must be an absolute http(s) or ws(s) URL');
  }
  if (url.protocol === 'https:') url.protocol = 'wss:';
  else if (url.protocol === 'http:') url.protocol = 'ws:';
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw Errors.invalidConfig(param, 'must be an absolute http(s) or ws(s) URL');
  return url;
}
