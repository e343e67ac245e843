/**
 * Gateway-wide settings, filled by the host (from the environment) or by an embedding program.
 * Plugins read them through `api.settings` (or `Services.Settings`); the kernel never reads the environment.
 */
import type { OutboundRules } from './outbound-policy.js';

export interface GatewaySettings {
  /** Folder of the embedded store and stored files. */
  dataDir: string;
  /** A folder every instance shares for stored file bytes (GW_FILES_DIR); wins over the other blob stores. */
  filesDir?: string;
  /** Redis URL for shared state, when several instances run. */
  redisUrl?: string;
  /** PostgreSQL URL for the record store, when several instances run. */
  databaseUrl?: string;
  /** Seeds the first gateway API key when the store holds none. */
  bootstrapApiKey?: string;
  /** Largest accepted request body, bytes. */
  bodyLimit: number;
  /** Hosts outbound connections may (allow) and may not (deny) reach; see outbound-policy.ts. */
  outbound?: OutboundRules;
  /** How deeply JSON bodies and header configs may nest (GW_JSON_MAX_DEPTH); DEFAULT_JSON_MAX_DEPTH when absent. */
  jsonMaxDepth?: number;
  /** pino level. */
  logLevel: string;
  /** The environment as the host saw it, for plugins with documented env options. */
  env: Readonly<Record<string, string | undefined>>;
}

export const DEFAULT_BODY_LIMIT = 10 * 1024 * 1024;
