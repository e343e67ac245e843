/**
 * pino enters the codebase here. Secrets are redacted by path so that no log line carries a key.
 */
import { pino, type Logger as PinoLogger, type DestinationStream } from 'pino';

export type Logger = PinoLogger;

export const REDACT_PATHS = [
  'headers.authorization',
  'headers["x-gw-api-key"]',
  'headers["x-gw-config"]',
  'headers["api-key"]',
  'headers["x-api-key"]',
  '*.api_key',
  '*.apiKey',
  'api_key',
  'key',
  '*.key',
  'secret',
  '*.secret',
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

/** Flushes an async destination before exit. */
export function flushLogger(logger: Logger): void {
  try {
    logger.flush();
  } catch {
    /* destination not ready yet or already closed */
  }
}
