/**
 * A server's tool lists: `deniedTools` are never listed nor callable; when `allowedTools` is set,
 * only those are. The gateway filters `tools/list` results and refuses other `tools/call`s itself.
 */
import type { McpServerInfo } from '../mcp-servers/contract.js';

export function toolAllowed(server: McpServerInfo, name: string): boolean {
  if (server.deniedTools.includes(name)) return false;
  return server.allowedTools === null || server.allowedTools.includes(name);
}

/** Whether the server restricts its tools at all (else a list passes unchanged). */
export function filtersTools(server: McpServerInfo): boolean {
  return server.allowedTools !== null || server.deniedTools.length > 0;
}

/** A `tools/list` result with only the tools the server allows. */
export function filteredToolList(server: McpServerInfo, result: Record<string, unknown>): Record<string, unknown> {
  const tools = result['tools'];
  if (!Array.isArray(tools)) return result;
  return { ...result, tools: tools.filter((t) => t !== null && typeof t === 'object' && typeof (t as { name?: unknown }).name === 'string' && toolAllowed(server, (t as { name: string }).name)) };
}
