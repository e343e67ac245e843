/**
 * Which node-postgres failures mean "the store cannot be reached right now" (a 503 the caller may
 * retry) rather than a fault in the statement (a constraint, a syntax error), and a short reason
 * for the message. The reason never holds the connection string.
 */

const NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN',
]);

/** SQLSTATEs of a server that is going away, starting, out of connections, or cancelled our statement. */
const SERVER_CODES: Readonly<Record<string, string>> = {
  '57P01': 'the server is shutting down',
  '57P02': 'the server is shutting down',
  '57P03': 'the server is starting up',
  '53300': 'the server has no free connection',
  '57014': 'a statement ran past the statement timeout',
};

const MESSAGES: readonly [RegExp, string][] = [
  [/timeout exceeded when trying to connect/i, 'no connection became free in time'],
  [/connection terminated|connection ended|not queryable|client has encountered a connection error/i, 'the connection was lost'],
  [/query read timeout/i, 'a statement got no answer in time'],
];

/** A reason when `error` says the store is unreachable, undefined for any other error. */
export function unavailableReason(error: unknown): string | undefined {
  const e = error as { code?: unknown; message?: unknown; errors?: { code?: unknown }[] } | null;
  // A connect to a name with several addresses fails with an AggregateError of one error per address.
  const code = typeof e?.code === 'string' ? e.code : typeof e?.errors?.[0]?.code === 'string' ? e.errors[0].code : '';
  if (NETWORK_CODES.has(code)) return `cannot reach the server (${code})`;
  if (SERVER_CODES[code]) return SERVER_CODES[code];
  if (code.startsWith('08')) return `the connection failed (${code})`;
  const message = typeof e?.message === 'string' ? e.message : '';
  for (const [pattern, reason] of MESSAGES) if (pattern.test(message)) return reason;
  return undefined;
}
