/**
 * The built-in plugin families' contracts in one entry: their service keys, request-value keys and
 * interfaces, for plugins outside this repository (`import { DirectoryService } from 'gw/contracts'`).
 * Plugins inside it import the family's contract file itself.
 */
export * from '../plugins/admin/workspaces/contract.js';
export * from '../plugins/admin/integrations/contract.js';
export * from '../plugins/security/secret-references/contract.js';
export * from '../plugins/agents/mcp-servers/contract.js';
export * from '../plugins/admin/configs/contract.js';
export * from '../plugins/policies/usage-limits/contract.js';
export * from '../plugins/observe/logs/contract.js';
export * from '../plugins/observe/analytics/contract.js';
export * from '../plugins/observe/trace-ids/contract.js';
export * from '../plugins/features/prompts/contract.js';
