/**
 * What a request that is not a model call called (an MCP server's tool, an A2A agent's method):
 * set by the plugin that serves it, read by the request logs and metrics, which show it where a
 * model call shows its provider and model.
 */
import { requestKey } from './request-values.js';

export interface CallSubject {
  /** The upstream the call went to (an MCP server's or agent's slug). */
  provider: string;
  /** What was called on it (a tool name, a JSON-RPC method). */
  model?: string;
}

export const CallSubjectKey = requestKey<CallSubject>('call.subject');
