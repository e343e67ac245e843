/** The webhook's URL and headers, resolved once per params object (validated when the config is loaded). */
import type { Issue } from '../../core/index.js';
import type { WebhookParams } from './params.js';

export interface Endpoint {
  url: string;
  headers: Record<string, string>;
}

const resolved = new WeakMap<WebhookParams, Endpoint>();

export function endpointOf(params: WebhookParams): Endpoint {
  let endpoint = resolved.get(params);
  if (!endpoint) {
    endpoint = { url: urlOf(params), headers: { ...headersOf(params.headers), 'content-type': 'application/json', accept: 'application/json' } };
    resolved.set(params, endpoint);
  }
  return endpoint;
}

function urlOf(params: WebhookParams): string {
  if (params.webhookURL) return params.webhookURL;
  const domain = params.apiDomain!;
  return /^https?:\/\//i.test(domain) ? domain : `https://${domain}`;
}

function headersOf(headers: WebhookParams['headers']): Record<string, string> {
  if (headers === undefined) return {};
  if (typeof headers !== 'string') return headers;
  const parsed: unknown = JSON.parse(headers);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || Object.values(parsed).some((v) => typeof v !== 'string')) {
    throw new Error('must be a JSON object of strings');
  }
  return parsed as Record<string, string>;
}

export function endpointIssues(params: WebhookParams): Issue[] {
  if (params.webhookURL === undefined && params.apiDomain === undefined) return [{ path: 'apiDomain', rule: 'is required (or webhookURL)' }];
  if (params.webhookURL !== undefined && params.apiDomain !== undefined) return [{ path: 'apiDomain', rule: 'must not be given together with webhookURL' }];
  try {
    new URL(urlOf(params));
  } catch {
    return [{ path: params.webhookURL ? 'webhookURL' : 'apiDomain', rule: 'is not a valid URL' }];
  }
  try {
    headersOf(params.headers);
  } catch (e) {
    return [{ path: 'headers', rule: (e as Error).message }];
  }
  return [];
}
