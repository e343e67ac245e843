/**
 * `npm start`: the gateway as a standalone server. Prints `listening on http://HOST:PORT` when
 * ready; SIGTERM/SIGINT drain in-flight requests and streams, flush the store, exit 0.
 * With GW_WORKERS > 1 this process becomes the cluster primary and each worker runs this same
 * file as a standalone server on the shared port (cluster.ts).
 * With `--describe` (text) or `--describe=json` it boots, prints what the gateway is made of
 * (hooks and their taps, registries, plugins and their services), closes and exits 0 without listening.
 */
import { createLogger, Services, type GatewayDescription } from '../core/index.js';
import { flushLogger } from '../core/logger.js';
import { formatDescription } from '../core/describe.js';
import { warmLazyModules } from '../core/lazy.js';
import { checkSharedState, isClusterWorker, reportListening, runPrimary } from './cluster.js';
import { listenFromEnv, settingsFromEnv, workersFromEnv } from './env.js';
import { createGateway } from './gateway.js';
import { serve } from './server.js';

/** How long after listening the modules marked warm are imported. */
const WARM_AFTER_MS = 250;

function configArgument(argv: string[]): string | undefined {
  const i = argv.indexOf('--config');
  if (i !== -1) {
    const file = argv[i + 1];
    if (!file) throw new Error('--config needs a file path');
    return file;
  }
  const inline = argv.find((a) => a.startsWith('--config='));
  return inline?.slice('--config='.length);
}

/** `text` for `--describe`, `json` for `--describe=json`, undefined without the flag. */
function describeArgument(argv: string[]): 'text' | 'json' | undefined {
  for (const a of argv) {
    if (a === '--describe' || a === '--describe=text') return 'text';
    if (a === '--describe=json') return 'json';
    if (a.startsWith('--describe=')) throw new Error(`--describe takes text or json, not "${a.slice('--describe='.length)}"`);
  }
  return undefined;
}

async function describe(format: 'text' | 'json', configFile: string | undefined): Promise<void> {
  // stdout carries the description alone (a JSON document with --describe=json): logs and what
  // plugins print while booting (a first generated key) go to stderr.
  const logger = createLogger(settingsFromEnv().logLevel, process.stderr);
  const write = process.stdout.write;
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof write;
  let description: GatewayDescription;
  try {
    const gateway = await createGateway({ configFile, logger });
    description = gateway.runtime.describe();
    await gateway.close();
  } finally {
    process.stdout.write = write;
  }
  const text = format === 'json' ? `${JSON.stringify(description, null, 2)}\n` : formatDescription(description);
  await new Promise<void>((done) => process.stdout.write(text, () => done()));
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const describeFormat = describeArgument(argv);
  if (describeFormat) return describe(describeFormat, configArgument(argv));
  const listen = listenFromEnv();
  const workers = workersFromEnv();
  if (workers > 1 && !isClusterWorker()) {
    const settings = settingsFromEnv();
    checkSharedState(workers, settings);
    // Straight to stdout: the primary logs a few lines, and its last ones come just before exit.
    const logger = createLogger(settings.logLevel, process.stdout);
    await runPrimary({ workers, shutdownTimeoutMs: listen.shutdownTimeoutMs, logger });
    return;
  }
  const gateway = await createGateway({ configFile: configArgument(argv) });
  const logger = gateway.runtime.services.get(Services.Logger);
  const running = await serve(gateway, listen);
  if (isClusterWorker()) reportListening(running.url);
  else process.stdout.write(`gw listening on ${running.url}\n`);
  // What the first requests need but boot did not (the HTTP client of provider calls), loaded a
  // moment after listening so that the first probes are not held behind it; a request before then
  // imports what it needs itself.
  setTimeout(warmLazyModules, WARM_AFTER_MS).unref();

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down: draining in-flight requests');
    running.stop().then(
      () => {
        flushLogger(logger);
        process.exit(0);
      },
      (e) => {
        logger.error({ err: e }, 'shutdown failed');
        flushLogger(logger);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().then(
  () => {
    // A description is printed and done: exit even if a store left a timer behind.
    if (describeArgument(process.argv.slice(2))) process.exit(0);
  },
  (e: Error) => {
    process.stderr.write(`gw: failed to start: ${e.message}\n`);
    process.exit(1);
  },
);
