/**
 * The tasks and contexts an A2A JSON-RPC call or answer names, in both protocol versions of the
 * installed @a2a-js/sdk. The SDK's proto-JSON reader takes camelCase and snake_case field names
 * and turns any set value into a string, so both spellings are read and values are coerced the
 * same way; otherwise a caller could name a task in a spelling the gateway does not look at.
 *
 *   call                                   names
 *   tasks/get|cancel|resubscribe,          params.id
 *   GetTask|CancelTask|SubscribeToTask
 *   message/send|stream,                   params.message.taskId, .referenceTaskIds[], .contextId
 *   SendMessage|SendStreamingMessage
 *
 *   answer (`result`, or each event's)     names
 *   v1.0 {task|message|statusUpdate|artifactUpdate: {...}}, a bare v1.0 Task (GetTask, CancelTask);
 *   v0.3 {kind: task|message|status-update|artifact-update, ...}
 *                                          the task's `id`, `taskId`, `contextId`
 */

export interface Named {
  /** Task ids: each must be the caller's own (one the gateway never saw is not). */
  tasks: string[];
  /** Context ids: refused when another caller's (a new one the client chose is allowed). */
  contexts: string[];
}

const TASK_METHODS = new Set(['tasks/get', 'tasks/cancel', 'tasks/resubscribe', 'GetTask', 'CancelTask', 'SubscribeToTask']);
const MESSAGE_METHODS = new Set(['message/send', 'message/stream', 'SendMessage', 'SendStreamingMessage']);

/** v1.0 wrappers of a SendMessage result or a stream event, and whether the wrapped object is a Task. */
const WRAPPERS: readonly (readonly [string, boolean])[] = [
  ['task', true], ['message', false], ['statusUpdate', false], ['status_update', false], ['artifactUpdate', false], ['artifact_update', false],
];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The SDK's `isSet` + `String(...)`: any value but null/undefined counts, as a string; "" means unset. */
function idOf(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  const id = String(value);
  return id === '' ? undefined : id;
}

function add(into: string[], value: unknown): void {
  const id = idOf(value);
  if (id !== undefined && !into.includes(id)) into.push(id);
}

export function requestNames(method: string, params: unknown): Named {
  const named: Named = { tasks: [], contexts: [] };
  if (TASK_METHODS.has(method)) {
    // A task call always names a task: an absent id (or params) is a task the caller does not own.
    named.tasks.push((isObject(params) ? idOf(params['id']) : undefined) ?? '');
  } else if (MESSAGE_METHODS.has(method) && isObject(params) && isObject(params['message'])) {
    const message = params['message'];
    add(named.tasks, message['taskId']);
    add(named.tasks, message['task_id']);
    for (const field of ['referenceTaskIds', 'reference_task_ids']) {
      const refs = message[field];
      if (Array.isArray(refs)) for (const ref of refs) add(named.tasks, ref);
    }
    add(named.contexts, message['contextId']);
    add(named.contexts, message['context_id']);
  }
  return named;
}

/** What one JSON-RPC `result` (a whole answer or one stream event) names. */
export function answerNames(result: unknown, into: Named = { tasks: [], contexts: [] }): Named {
  if (!isObject(result)) return into;
  let wrapped = false;
  for (const [key, isTask] of WRAPPERS) {
    const inner = result[key];
    if (isObject(inner)) {
      collect(inner, isTask, into);
      wrapped = true;
    }
  }
  if (!wrapped) collect(result, isTaskShaped(result), into);
  return into;
}

/** A v0.3 Task says so; a v1.0 Task (GetTask, CancelTask) has a status and no taskId (unlike a status update). */
function isTaskShaped(o: Record<string, unknown>): boolean {
  if (o['kind'] !== undefined) return o['kind'] === 'task';
  return 'status' in o && !('taskId' in o) && !('task_id' in o) && !('messageId' in o) && !('message_id' in o);
}

function collect(o: Record<string, unknown>, isTask: boolean, into: Named): void {
  if (isTask) add(into.tasks, o['id']);
  add(into.tasks, o['taskId']);
  add(into.tasks, o['task_id']);
  add(into.contexts, o['contextId']);
  add(into.contexts, o['context_id']);
}
