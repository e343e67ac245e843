/**
 * `GET /v1/responses/:id/input_items`: the input items of a stored response as OpenAI lists them,
 * `{object: "list", data, first_id, last_id, has_more}`, paged by `after` (an item id), `limit`
 * (1..100, default 20) and `order` (`asc` | `desc`, default `desc`: the last item first).
 *
 * The items are the request's own input (as stored), not those carried over from
 * `previous_response_id`: each earlier turn is listed by its own response, so a chain is read turn
 * by turn without an item appearing twice. Items are shown in their item form: a bare
 * `{role, content}` becomes `{type: "message", ...}` with its text as content parts. An item sent
 * without an id gets one derived from the response id and its position, the same on every read.
 */
import { Errors, queryInt, sha256Hex } from '../../../core/index.js';

type Item = Record<string, unknown>;

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export interface ItemsPage {
  object: 'list';
  data: Item[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

/** The stored input of response `responseId` as listed items, oldest first. */
export function listedItems(responseId: string, input: readonly Item[]): Item[] {
  return input.map((item, index) => asListed(item, responseId, index));
}

/** One page of `items` (oldest first) for the request's query; a 400 naming the parameter otherwise. */
export function pageOfItems(items: readonly Item[], query: URLSearchParams, responseId: string): ItemsPage {
  const limit = queryInt(query, 'limit', { fallback: DEFAULT_LIMIT, min: 1, max: MAX_LIMIT });
  const order = query.get('order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw Errors.invalidRequest('query.order: must be "asc" or "desc"', 'order', 'invalid_query');
  const ordered = order === 'asc' ? items : [...items].reverse();
  let start = 0;
  const after = query.get('after');
  if (after !== null) {
    const at = ordered.findIndex((item) => item['id'] === after);
    if (at < 0) throw Errors.invalidRequest(`query.after: "${after}" is not an input item of response ${responseId}`, 'after', 'invalid_query');
    start = at + 1;
  }
  const data = ordered.slice(start, start + limit);
  return {
    object: 'list',
    data,
    first_id: data.length > 0 ? (data[0]!['id'] as string) : null,
    last_id: data.length > 0 ? (data[data.length - 1]!['id'] as string) : null,
    has_more: start + limit < ordered.length,
  };
}

function asListed(item: Item, responseId: string, index: number): Item {
  const isMessage = item['type'] === undefined || item['type'] === 'message';
  const listed: Item = isMessage ? { type: 'message', ...item } : { ...item };
  if (typeof listed['id'] !== 'string' || listed['id'] === '') listed['id'] = derivedId(listed, responseId, index);
  if (isMessage) {
    if (typeof listed['content'] === 'string') listed['content'] = [{ type: listed['role'] === 'assistant' ? 'output_text' : 'input_text', text: listed['content'] }];
    listed['status'] ??= 'completed';
  }
  return listed;
}

/** Prefixes as OpenAI's own item ids (`msg_`, `fc_`, `fco_`). */
function derivedId(item: Item, responseId: string, index: number): string {
  const prefix = item['type'] === 'message' ? 'msg' : item['type'] === 'function_call' ? 'fc' : item['type'] === 'function_call_output' ? 'fco' : 'item';
  return `${prefix}_${sha256Hex(`${responseId}:input:${index}`).slice(0, 48)}`;
}
