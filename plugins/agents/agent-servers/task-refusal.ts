/**
 * The answer to a call naming a task that is not the caller's: what the agent itself (the
 * @a2a-js/sdk DefaultRequestHandler) answers for a task that does not exist, byte for byte in
 * shape, so another caller's task cannot be told from a missing one:
 *   v1.0 methods   JSON `{code: -32001, message: "Task not found: <id>", data: [google.rpc.ErrorInfo]}`
 *   v0.3 methods   JSON `{code: -32001, message}`; `tasks/resubscribe` as one SSE `event: error`
 * A context is not a task and the protocol has no "context not found": another caller's context is
 * refused as a bad parameter (-32602).
 */
import { json, SSE_HEADERS, type GatewayResponse } from '../../../core/index.js';
import { INVALID_PARAMS, TASK_NOT_FOUND } from './methods.js';
import { MAX_NAMED, type Refusal } from './task-owners.js';

export type JsonRpcId = string | number | null;

const V1_METHODS = new Set(['SendMessage', 'SendStreamingMessage', 'GetTask', 'CancelTask', 'SubscribeToTask']);
const ERROR_INFO = { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', domain: 'a2a-protocol.org' };

export function refusalAnswer(id: JsonRpcId, method: string, refused: Refusal): GatewayResponse {
  const v1 = V1_METHODS.has(method);
  if (refused.kind === 'task') {
    const error = {
      code: TASK_NOT_FOUND, message: `Task not found: ${refused.id}`,
      ...(v1 ? { data: [{ '@type': ERROR_INFO['@type'], reason: 'TASK_NOT_FOUND', domain: ERROR_INFO.domain }] } : {}),
    };
    const body = { jsonrpc: '2.0', id, error };
    if (method === 'tasks/resubscribe') {
      return { status: 200, headers: { ...SSE_HEADERS }, raw: Buffer.from(`event: error\ndata: ${JSON.stringify(body)}\n\n`) };
    }
    return json(200, body);
  }
  const message = refused.kind === 'context'
    ? `contextId: "${refused.id}" is another caller's context`
    : `params.message: may name at most ${MAX_NAMED} tasks and contexts (taskId, referenceTaskIds, contextId)`;
  return json(200, { jsonrpc: '2.0', id, error: { code: INVALID_PARAMS, message } });
}
