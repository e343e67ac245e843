/**
 * Every agent server of the store, in memory (core/record-catalogue.ts): calls find theirs without
 * touching the store.
 */
import { RecordCatalogue } from '../../../core/index.js';
import type { AgentServer } from './record.js';
import type { AgentServerRepo } from './repo.js';

export const AGENT_SERVERS_TOPIC = 'agent-servers';

export class AgentServerCatalogue extends RecordCatalogue<AgentServer> {
  constructor(repo: AgentServerRepo) {
    super({ topic: AGENT_SERVERS_TOPIC, all: () => repo.all(), });
  }
}
