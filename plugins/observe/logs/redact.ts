/**
 * Secrets out of recorded bodies: values under secret-looking keys are replaced, and strings that
 * look like credentials (provider keys, bearer tokens, JWTs, cloud access key ids, gateway keys)
 * are masked wherever they appear, e.g. pasted into a message. Returns a copy; the input is shared
 * with the request and never changed.
 */

export const REDACTED = '[redacted]';

const SECRET_KEY = /^(authorization|token|proxy-authorization|x-api-key|x-gw-api-key|api[-_]?key|apikey|password|passwd|secret|client[-_]?secret|access[-_]?token|refresh[-_]?token|id[-_]?token|session[-_]?token|private[-_]?key|.*_secret_access_key|.*_session_token|.*service_account_json)$/i;

const SECRET_VALUE = /(sk-[A-Za-z0-9_-]{16,}|sk-ant-[A-Za-z0-9_-]{16,}|Bearer\s+[A-Za-z0-9._~+/-]{8,}=*|AKIA[0-9A-Z]{16}|gw-[A-Za-z0-9_-]{20,}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})/g;

/** Deeper structures are cut: a log is not the place for them. */
const MAX_DEPTH = 32;

export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    out[key] = SECRET_KEY.test(key) && v !== null && v !== undefined && v !== '' ? REDACTED : redact(v, depth + 1);
  }
  return out;
}

export function redactText(text: string): string {
  SECRET_VALUE.lastIndex = 0;
  return SECRET_VALUE.test(text) ? text.replace(SECRET_VALUE, REDACTED) : text;
}
