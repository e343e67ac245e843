/**
 * createGateway: boots a kernel with its plugins and returns the front ends to mount it
 * (node:http-style `handle`, Web `fetch`) and `close`. With no options it is the default
 * gateway configured from the environment, exactly as `npm start` runs it.
 */
import { createLogger, type GatewaySettings, type Logger, type PluginEntry, type Runtime } from '../core/index.js';
import { boot } from '../core/boot.js';
import { readGatewayFile, resolveComposition, type Composition } from './compose.js';
import { settingsFromEnv } from './env.js';
import { requireKeyCheck } from './key-check.js';
import { registerHealth } from './health.js';
import { MISSING_PLUGIN_HINTS } from './builtins.js';
import { createFetchHandler, type FetchHandler } from './fetch-adapter.js';
import {
  createNodeHandler, createNodeUpgradeHandler, UpgradedConnections, type NodeHandler, type NodeHandlerState, type NodeUpgradeHandler,
} from './node-adapter.js';

export interface GatewayOptions {
  /** The plugins to load, replacing the default preset. */
  plugins?: PluginEntry[];
  /** A composition (preset + plugins + disable); ignored when `plugins` is given. */
  composition?: Composition;
  /** A gateway file; default `GW_CONFIG`. Ignored when `plugins` or `composition` is given. */
  configFile?: string;
  /**
   * Serve protected routes without a plugin providing the key check (`auth` service); without it
   * (or the gateway file's `allowUnauthenticated`) such a gateway refuses to boot.
   */
  allowUnauthenticated?: boolean;
  /** Settings over those read from the environment. */
  settings?: Partial<GatewaySettings>;
  /** The environment to read settings from; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
}

export interface Gateway {
  /**
   * node:http / Express / Connect handler. With `next`, unknown paths go to the next handler; it is
   * called before `handle` returns (a Fastify onRequest hook relies on that). Behind a body parser
   * that already read the body, the parser's `req.body` (or `req.rawBody`) is used.
   */
  readonly handle: NodeHandler;
  /**
   * node:http `upgrade` listener (`server.on('upgrade', gateway.upgrade)`): protocol switches
   * (WebSocket) on routes that take them over; others are refused in the error envelope.
   */
  readonly upgrade: NodeUpgradeHandler;
  /** Web-standard handler. With `next`, unknown paths go to it. */
  readonly fetch: FetchHandler;
  readonly runtime: Runtime;
  /** Answers carry `connection: close` from now on and taken-over sessions are told to end (used by a host while it drains). */
  startDraining(): void;
  close(): Promise<void>;
}

export async function createGateway(options: GatewayOptions = {}): Promise<Gateway> {
  const env = options.env ?? process.env;
  const settings: GatewaySettings = { ...settingsFromEnv(env), ...options.settings };
  const logger = options.logger ?? createLogger(settings.logLevel);
  const { plugins, allowUnauthenticated } = await resolvePlugins(options, env, settings);
  const runtime = await boot({ plugins, settings, logger, setup: registerHealth, missingPluginHints: MISSING_PLUGIN_HINTS });
  try {
    requireKeyCheck(runtime, options.allowUnauthenticated === true || allowUnauthenticated, logger);
  } catch (e) {
    await runtime.close();
    throw e;
  }
  const state: NodeHandlerState = { draining: false };
  const upgraded = new UpgradedConnections();
  return {
    handle: createNodeHandler(runtime, state),
    upgrade: createNodeUpgradeHandler(runtime, state, upgraded),
    fetch: createFetchHandler(runtime),
    runtime,
    startDraining: () => {
      state.draining = true;
      upgraded.drain();
    },
    close: () => runtime.close(),
  };
}

async function resolvePlugins(options: GatewayOptions, env: NodeJS.ProcessEnv, settings: GatewaySettings) {
  const { composition, baseDir } = await chooseComposition(options, env);
  const plugins = await resolveComposition(composition, baseDir, options.plugins ? {} : settings);
  return { plugins, allowUnauthenticated: composition.allowUnauthenticated === true };
}

async function chooseComposition(options: GatewayOptions, env: NodeJS.ProcessEnv): Promise<{ composition: Composition; baseDir?: string }> {
  if (options.plugins) return { composition: { preset: 'none', plugins: options.plugins } };
  if (options.composition) return { composition: options.composition };
  const file = options.configFile ?? env['GW_CONFIG'];
  if (!file) return { composition: {} };
  return readGatewayFile(file);
}
