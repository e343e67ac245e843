/**
 * pino enters the codebase here. Secrets are redacted by path so that no log line carries a key.
 */
import { pino, type Logger as PinoLogger, type DestinationStream } from 'pino';
import { LineSink } from './line-sink.js';

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

/** How long a log line may wait in the buffer before it is written (lines are batched under load). */
const FLUSH_INTERVAL_MS = 250;
/** Waiting log text that starts a write: each write wakes a thread of the pool, so under load fewer, larger writes cost less. */
const MIN_LOG_WRITE_CHARS = 64 * 1024;
/** Log text that may wait for a slow stdout before lines are dropped (counted). */
const MAX_PENDING_LOG_CHARS = 64 * 1024 * 1024;

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination ?? batchedStdout(),
  );
}

/**
 * stdout through an asynchronous, batched line sink: one write per 64 KiB of lines instead of one
 * per line, and a timer so that a quiet gateway's last lines still appear promptly.
 */
function batchedStdout(): DestinationStream {
  const sink = new LineSink(1, { minChars: MIN_LOG_WRITE_CHARS, maxPendingChars: MAX_PENDING_LOG_CHARS });
  const timer = setInterval(() => sink.flush(), FLUSH_INTERVAL_MS);
  timer.unref();
  return sink;
}

/** Fields of an access line: plain values; undefined ones are left out. */
export type AccessFields = Record<string, string | number | boolean | undefined>;

/**
 * The per-request access line, written as pino writes a line (same level number, `time`, `msg`,
 * same destination and batching) but without pino's serialisers and redaction pass: its fields
 * are known and secret-free. Undefined when `parent` does not log at `level`.
 */
export function accessLine(parent: Logger, level: string, msg: string): ((fields: AccessFields) => void) | undefined {
  if (!parent.isLevelEnabled(level)) return undefined;
  const stream = (parent as unknown as Record<symbol, DestinationStream>)[pino.symbols.streamSym];
  const levelValue = parent.levels.values[level];
  // Lines of the same millisecond share one formatted time (under load, many do).
  let lastMs = -1;
  let lastTime = '';
  return (fields) => {
    const ms = Date.now();
    if (ms !== lastMs) {
      lastMs = ms;
      lastTime = new Date(ms).toISOString();
    }
    stream.write(`${JSON.stringify({ level: levelValue, time: lastTime, ...fields, msg })}\n`);
  };
}

/** Writes buffered lines out synchronously (before exit). */
export function flushLogger(logger: Logger): void {
  const stream = (logger as unknown as Record<symbol, { flushSync?: () => void } | undefined>)[pino.symbols.streamSym];
  try {
    if (stream?.flushSync) stream.flushSync();
    else logger.flush();
  } catch {
    /* destination not ready yet or already closed */
  }
}

/** At most one warning per interval, so an outage of a store or service does not flood the log. */
export function rateLimitedWarning(logger: Logger, intervalMs = 10_000): (error: unknown, message: string) => void {
  let lastAt = -Infinity;
  let suppressed = 0;
  return (error, message) => {
    const now = performance.now();
    if (now - lastAt < intervalMs) {
      suppressed++;
      return;
    }
    lastAt = now;
    logger.warn({ err: error, suppressed: suppressed || undefined }, message);
    suppressed = 0;
  };
}
