/**
 * The A2A JSON-RPC methods the gateway passes on, by the names of both protocol versions the
 * installed @a2a-js/sdk speaks (v0.3 `message/send` ..., v1.0 `SendMessage` ...). Others answer
 * JSON-RPC -32601 without an upstream call:
 *   - push-notification configs: the agent would then call a URL the client chose, from outside
 *     the gateway's outbound host rules;
 *   - the authenticated extended card: the agent would answer it to the gateway's credentials,
 *     with its own endpoint URLs in it;
 *   - ListTasks: every caller reaches the agent as the gateway, so the list would show the tasks
 *     of every caller.
 */
export type MethodKind = 'unary' | 'stream';

const METHODS: ReadonlyMap<string, MethodKind> = new Map<string, MethodKind>([
  ['message/send', 'unary'], ['SendMessage', 'unary'],
  ['message/stream', 'stream'], ['SendStreamingMessage', 'stream'],
  ['tasks/get', 'unary'], ['GetTask', 'unary'],
  ['tasks/cancel', 'unary'], ['CancelTask', 'unary'],
  ['tasks/resubscribe', 'stream'], ['SubscribeToTask', 'stream'],
]);

export function methodKind(method: string): MethodKind | undefined {
  return METHODS.get(method);
}

export const PROXIED_METHODS: readonly string[] = [...METHODS.keys()];

export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** The A2A spec's TaskNotFoundError. */
export const TASK_NOT_FOUND = -32001;
