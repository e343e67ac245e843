/**
 * gw's main entry: `createGateway` to embed the gateway, `serve` to run it standalone, and the
 * core surface that plugin authors need (re-exported so that `import ... from 'gw'` is enough).
 */
export { createGateway, type Gateway, type GatewayOptions } from './gateway.js';
export { serve, type RunningServer, type ServeOptions } from './server.js';
export { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './connection-limits.js';
export { settingsFromEnv, listenFromEnv } from './env.js';
export { BUILTIN_PLUGINS, PRESETS } from './builtins.js';
export type { Composition } from './compose.js';
export * from '../core/index.js';
