/**
 * The files routes. Where a request goes:
 *   - it names one provider with an OpenAI-compatible files API (x-gw-provider, or a config without
 *     targets) → upload and list are forwarded to `{base}/files`;
 *   - by id (get, content, delete): a file the gateway holds is answered here, whatever the headers
 *     (batch output files are read with the same client), otherwise forwarded when a provider is named;
 *   - otherwise the gateway stores and answers itself.
 */
import {
  Errors, queryInt, scopeOf, type GatewayResponse, type Kernel, type ProviderApi, type RequestContext, type RouteDef, type Transport,
} from '../../../core/index.js';
import { fileObject, jsonAnswer, passThrough } from './answers.js';
import type { StoredFileService, ListQuery } from './file-service.js';
import { sendToProvider } from './provider-files.js';
import { receiveUpload } from './upload.js';

export interface FilesRouteOptions {
  maxUploadBytes: number;
}

const PROVIDER_HEADERS = ['x-gw-provider', 'x-gw-config', 'x-gw-virtual-key'] as const;
const MAX_LIST_LIMIT = 10_000;

export function filesRoutes(files: StoredFileService, kernel: Kernel, transport: Transport, options: FilesRouteOptions): RouteDef[] {
  /** The provider API the request names, if it names one that has a files API. */
  const providerOf = async (ctx: RequestContext): Promise<ProviderApi | undefined> => {
    const headers = ctx.request.headers;
    if (!PROVIDER_HEADERS.some((name) => headers[name] !== undefined)) return undefined;
    return files.providerApi(await kernel.resolveConfig(ctx));
  };
  const forward = async (ctx: RequestContext, api: ProviderApi, method: string, path: string): Promise<GatewayResponse> => {
    const reply = await sendToProvider(transport, api, { url: api.baseUrl + path, method, headers: { ...api.headers } }, ctx.request.signal);
    return passThrough(reply, api);
  };
  const notFound = (id: string) => Errors.notFound(`no file with id "${id}"`, 'file_not_found');

  return [
    {
      method: 'POST',
      path: '/v1/files',
      body: 'stream',
      handler: async (ctx) => {
        const api = await providerOf(ctx);
        const { headers, bodyStream } = ctx.request;
        if (api) {
          const upstreamHeaders: Record<string, string> = { ...api.headers, 'content-type': headers['content-type'] ?? '' };
          if (headers['content-length'] !== undefined) upstreamHeaders['content-length'] = headers['content-length'];
          const reply = await sendToProvider(transport, api, {
            url: `${api.baseUrl}/files`, method: 'POST', headers: upstreamHeaders, body: bodyStream ? bodyStream : '',
          }, ctx.request.signal);
          return passThrough(reply, api);
        }
        const record = await receiveUpload(files, headers, bodyStream, scopeOf(ctx.principal), options.maxUploadBytes);
        return jsonAnswer(fileObject(record));
      },
    },
    {
      method: 'GET',
      path: '/v1/files',
      body: 'none',
      handler: async (ctx) => {
        const api = await providerOf(ctx);
        const query = ctx.request.query;
        if (api) return forward(ctx, api, 'GET', `/files${query.size > 0 ? '?' + query.toString() : ''}`);
        const list = parseListQuery(query);
        const rows = await files.list(scopeOf(ctx.principal), { ...list, limit: list.limit + 1 });
        const data = rows.slice(0, list.limit).map(fileObject);
        return jsonAnswer({
          object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: rows.length > list.limit,
        });
      },
    },
    {
      method: 'GET',
      path: '/v1/files/:id',
      body: 'none',
      handler: async (ctx) => {
        const id = ctx.params['id']!;
        const record = await files.get(id, scopeOf(ctx.principal));
        if (record) return jsonAnswer(fileObject(record));
        const api = await providerOf(ctx);
        if (api) return forward(ctx, api, 'GET', `/files/${encodeURIComponent(id)}`);
        throw notFound(id);
      },
    },
    {
      method: 'GET',
      path: '/v1/files/:id/content',
      body: 'none',
      handler: async (ctx) => {
        const id = ctx.params['id']!;
        const record = await files.get(id, scopeOf(ctx.principal));
        if (record) {
          const stream = await files.read(id);
          return {
            status: 200,
            headers: { 'content-type': 'application/octet-stream', 'content-length': String(record.bytes) },
            stream,
          };
        }
        const api = await providerOf(ctx);
        if (api) return forward(ctx, api, 'GET', `/files/${encodeURIComponent(id)}/content`);
        throw notFound(id);
      },
    },
    {
      method: 'DELETE',
      path: '/v1/files/:id',
      body: 'none',
      handler: async (ctx) => {
        const id = ctx.params['id']!;
        const record = await files.get(id, scopeOf(ctx.principal));
        if (record) {
          await files.delete(id);
          return jsonAnswer({ id, object: 'file', deleted: true });
        }
        const api = await providerOf(ctx);
        if (api) return forward(ctx, api, 'DELETE', `/files/${encodeURIComponent(id)}`);
        throw notFound(id);
      },
    },
  ];
}

function parseListQuery(query: URLSearchParams): Omit<ListQuery, 'limit'> & { limit: number } {
  const limit = queryInt(query, 'limit', { fallback: MAX_LIST_LIMIT, min: 1, max: MAX_LIST_LIMIT });
  const order = query.get('order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc') {
    throw Errors.invalidRequest('query.order: must be one of "asc", "desc"', 'order', 'invalid_query');
  }
  return { limit, order, after: query.get('after') ?? undefined, purpose: query.get('purpose') ?? undefined };
}
