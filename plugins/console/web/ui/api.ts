/**
 * The console's one way to the gateway: its own origin only, the API key from the tab's session
 * (or the SSO cookie), and the gateway's error envelope turned into an Error whose message is the
 * gateway's own, so a form can show exactly why it was refused.
 */
import type { SignIn } from './session';

export class ApiError extends Error {
  constructor(readonly status: number, message: string, readonly code?: string, readonly param?: string) {
    super(message);
  }
}

export type Query = Record<string, string | number | undefined>;

export class Api {
  constructor(private readonly signIn: SignIn, private readonly onSignedOut: () => void) {}

  get<T>(path: string, query?: Query): Promise<T> {
    return this.json<T>('GET', withQuery(path, query));
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.json<T>('POST', path, body);
  }

  put<T>(path: string, body?: unknown): Promise<T> {
    return this.json<T>('PUT', path, body);
  }

  patch<T>(path: string, body?: unknown): Promise<T> {
    return this.json<T>('PATCH', path, body);
  }

  delete<T>(path: string): Promise<T> {
    return this.json<T>('DELETE', path);
  }

  /** A raw request (the playground reads headers and streams); errors are the caller's to read. */
  fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.signIn.kind === 'api_key') headers.set('x-gw-api-key', this.signIn.key);
    return fetch(path, { ...init, headers, credentials: 'same-origin', cache: 'no-store' });
  }

  private async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const init: RequestInit = { method };
    if (body !== undefined) init.body = JSON.stringify(body);
    if (body !== undefined) init.headers = { 'content-type': 'application/json' };
    const res = await this.fetch(path, init);
    const text = await res.text();
    const parsed = text ? parseJsonText(text) : undefined;
    const value = parsed === undefined && text ? text : parsed;
    if (!res.ok) {
      if (res.status === 401) this.onSignedOut();
      throw errorOf(res.status, value, text);
    }
    return value as T;
  }
}

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** The value of an answer's JSON text; undefined when it is not JSON. */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The gateway's envelope is `{ error: { message, type, code, param } }`. */
export function errorOf(status: number, value: unknown, text = ''): ApiError {
  const error = (value as { error?: { message?: string; code?: string; param?: string } } | undefined)?.error;
  if (error?.message) return new ApiError(status, error.message, error.code ?? undefined, error.param ?? undefined);
  return new ApiError(status, text.slice(0, 200) || `the gateway answered ${status}`);
}
