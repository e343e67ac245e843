/**
 * Every registered MCP server, in memory (core/record-catalogue.ts): the MCP gateway finds servers
 * without touching the store; `onChange` tells of servers whose cached tokens and secrets are stale.
 */
import { RecordCatalogue } from '../../../core/index.js';
import type { McpServer } from './record.js';
import type { McpServerRepo } from './repo.js';

export const MCP_SERVERS_TOPIC = 'mcp-servers';

export class McpServerCatalogue extends RecordCatalogue<McpServer> {
  constructor(repo: McpServerRepo) {
    super({ topic: MCP_SERVERS_TOPIC, all: () => repo.all(), });
  }
}
