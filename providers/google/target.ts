/**
 * Where and as whom a `google` (Gemini API) target is called: base URL
 * `https://generativelanguage.googleapis.com/v1beta` (`custom_host` replaces it, version segment
 * included), path `/models/{model}:{method}`, the key in `x-goog-api-key`.
 */
import { baseUrlOf, Errors, type ConfigNode, type Issue } from '../../core/index.js';

export const PROVIDER_ID = 'google';
export const GEMINI_API_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';

const MODEL = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * The model id goes into the URL path: refuse anything that could change the path. Google's own
 * resource form `models/{id}` is taken too (the Gemini SDKs and docs write it so).
 */
export function checkedModel(model: unknown, path = 'model'): string {
  const id = typeof model === 'string' && model.startsWith('models/') ? model.slice('models/'.length) : model;
  if (typeof id === 'string' && MODEL.test(id)) return id;
  throw Errors.invalidBody(path, `must be a ${PROVIDER_ID} model id (letters, digits, ".", "_", "-"; "models/" prefix allowed)`);
}

export function modelUrl(target: ConfigNode, model: string, method: string): string {
  return `${baseUrlOf(target, GEMINI_API_BASE_URL)}/models/${model}:${method}`;
}

export function requestHeaders(target: ConfigNode): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (typeof target.api_key === 'string') headers['x-goog-api-key'] = target.api_key;
  return headers;
}

/** Rules checked when the config is validated (never per request later). */
export function validateTarget(target: ConfigNode, path: string): Issue[] {
  if (target.api_key !== undefined || target.custom_host !== undefined) return [];
  return [{ path: path ? `${path}.api_key` : 'api_key', rule: `is required for provider "${PROVIDER_ID}" (a Gemini API key; or set custom_host)` }];
}
