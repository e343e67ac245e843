/**
 * `npm start`: the gateway as a standalone server. Prints `listening on http://HOST:PORT` when
 * ready; SIGTERM/SIGINT drain in-flight requests and streams, flush the store, exit 0.
 * With GW_WORKERS > 1 this process becomes the cluster primary and each worker runs this same
 * file as a standalone server on the shared port (cluster.ts).
 */
import { createLogger, flushLogger, Tokens, type Logger } from '../core/index.js';
import { checkSharedState, isClusterWorker, reportListening, runPrimary } from './cluster.js';
import { listenFromEnv, settingsFromEnv, workersFromEnv } from './env.js';
import { createGateway } from './gateway.js';
import { serve } from './server.js';

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

async function main(): Promise<void> {
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
  const gateway = await createGateway({ configFile: configArgument(process.argv.slice(2)) });
  const logger = gateway.runtime.container.resolve<Logger>(Tokens.Logger);
  const running = await serve(gateway, listen);
  if (isClusterWorker()) reportListening(running.url);
  else process.stdout.write(`gw listening on ${running.url}\n`);

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

main().catch((e: Error) => {
  process.stderr.write(`gw: failed to start: ${e.message}\n`);
  process.exit(1);
});
