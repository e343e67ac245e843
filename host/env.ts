/** Gateway settings from the environment (INTERFACE.md). The only place that reads process.env. */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { DEFAULT_JSON_MAX_DEPTH, HostRules, type GatewaySettings, type OutboundRules } from '../core/index.js';
import { DEFAULT_BODY_LIMIT } from '../core/settings.js';
import { checkConnectionLimits, DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './connection-limits.js';

export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): GatewaySettings {
  return {
    dataDir: resolve(env['GW_DATA_DIR'] || './data'),
    filesDir: env['GW_FILES_DIR'] ? resolve(env['GW_FILES_DIR']) : undefined,
    redisUrl: env['GW_REDIS_URL'] || undefined,
    databaseUrl: env['GW_DATABASE_URL'] || undefined,
    bootstrapApiKey: env['GW_BOOTSTRAP_API_KEY'] || undefined,
    bodyLimit: positiveInt(env['GW_BODY_LIMIT'], DEFAULT_BODY_LIMIT, 'GW_BODY_LIMIT'),
    outbound: outboundFromEnv(env),
    jsonMaxDepth: positiveInt(env['GW_JSON_MAX_DEPTH'], DEFAULT_JSON_MAX_DEPTH, 'GW_JSON_MAX_DEPTH'),
    logLevel: env['GW_LOG_LEVEL'] || 'info',
    env: Object.freeze({ ...env }),
  };
}

/** `GW_OUTBOUND_ALLOW` / `GW_OUTBOUND_DENY`: comma-separated host names, `*.domain` wildcards, CIDR ranges. */
function outboundFromEnv(env: NodeJS.ProcessEnv): OutboundRules {
  const rules: OutboundRules = {};
  const allow = env['GW_OUTBOUND_ALLOW'];
  const deny = env['GW_OUTBOUND_DENY'];
  if (allow) rules.allow = HostRules.parse(allow, 'GW_OUTBOUND_ALLOW');
  if (deny) rules.deny = HostRules.parse(deny, 'GW_OUTBOUND_DENY');
  return rules;
}

export interface ListenSettings extends ConnectionLimits {
  port: number;
  host: string;
  /** How long shutdown waits for in-flight requests and streams. */
  shutdownTimeoutMs: number;
}

export function listenFromEnv(env: NodeJS.ProcessEnv = process.env): ListenSettings {
  const port = env['PORT'] === undefined || env['PORT'] === '' ? 8787 : Number(env['PORT']);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be an integer 0..65535, got "${env['PORT']}"`);
  const defaults = DEFAULT_CONNECTION_LIMITS;
  const settings: ListenSettings = {
    port,
    host: env['HOST'] || '127.0.0.1',
    shutdownTimeoutMs: positiveInt(env['GW_SHUTDOWN_TIMEOUT_MS'], 30_000, 'GW_SHUTDOWN_TIMEOUT_MS'),
    headersTimeoutMs: positiveInt(env['GW_HEADERS_TIMEOUT_MS'], defaults.headersTimeoutMs, 'GW_HEADERS_TIMEOUT_MS'),
    bodyTimeoutMs: positiveInt(env['GW_REQUEST_BODY_TIMEOUT_MS'], defaults.bodyTimeoutMs, 'GW_REQUEST_BODY_TIMEOUT_MS'),
    maxHeaderBytes: positiveInt(env['GW_MAX_HEADER_BYTES'], defaults.maxHeaderBytes, 'GW_MAX_HEADER_BYTES'),
    maxConnections: positiveInt(env['GW_MAX_CONNECTIONS'], defaults.maxConnections, 'GW_MAX_CONNECTIONS'),
  };
  checkConnectionLimits(settings);
  return settings;
}

/** More processes than this is a typo, not a plan: each worker holds a whole gateway in memory. */
export const MAX_WORKERS = 256;

/**
 * `GW_WORKERS`: how many processes serve the port (node:cluster); `auto` is the number of CPUs this
 * process may use. 1 (the default) is a single process without a cluster.
 */
export function workersFromEnv(env: NodeJS.ProcessEnv = process.env, cpus: number = availableParallelism()): number {
  const value = env['GW_WORKERS'];
  if (value === undefined || value === '') return 1;
  if (value === 'auto') return Math.min(cpus, MAX_WORKERS);
  const n = /^[0-9]+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_WORKERS) {
    throw new Error(`GW_WORKERS must be "auto" or an integer 1..${MAX_WORKERS}, got "${value}"`);
  }
  return n;
}

function positiveInt(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return n;
}
