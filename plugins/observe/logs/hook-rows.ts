/**
 * A request's hook results in its log row, stored as positional arrays and shown as objects.
 * Every guarded request writes them, so the stored text is kept short (about half of the object
 * form: no field names), which is what a row costs to write; `/v1/logs` shows the full objects.
 *
 *   row:   [target, array, in_response, id, type, verdict, deny, async, execution_time, checks, extra?]
 *   check: [id, verdict, execution_time, extra?]
 *   extra: the optional fields present (`feedback`, `transformed`; a check's `data`, `error`, `transformed`)
 *
 * Booleans are 0/1. Rows written before this format hold the object form; they are shown as stored.
 */
import type { CheckVerdict, GuardrailRecord } from '../../../core/index.js';
import { redact } from './redact.js';

type Extra = Record<string, unknown>;
type StoredCheck = [string, 0 | 1, number, Extra?];
type StoredHook = [string, string, 0 | 1, string, string, 0 | 1, 0 | 1, 0 | 1, number, StoredCheck[], Extra?];

const bit = (flag: unknown): 0 | 1 => (flag ? 1 : 0);

function storedCheck(c: CheckVerdict, withData: boolean): StoredCheck {
  const row: StoredCheck = [c.id, bit(c.verdict), c.execution_time];
  const dataKept = withData && c.data !== null && c.data !== undefined;
  if (!dataKept && c.error === undefined && c.transformed === undefined) return row;
  const extra: Extra = {};
  if (dataKept) extra['data'] = redact(c.data);
  if (c.error !== undefined) extra['error'] = c.error;
  if (c.transformed !== undefined) extra['transformed'] = c.transformed;
  row.push(extra);
  return row;
}

function storedHook({ target, array, inResponse, result: r }: GuardrailRecord, withData: boolean): StoredHook {
  const row: StoredHook = [
    target, array, bit(inResponse), r.id, r.type, bit(r.verdict), bit(r.deny), bit(r.async), r.execution_time,
    r.checks.map((c) => storedCheck(c, withData)),
  ];
  if (r.feedback === undefined && r.transformed === undefined) return row;
  const extra: Extra = {};
  if (r.feedback !== undefined) extra['feedback'] = r.feedback;
  if (r.transformed !== undefined) extra['transformed'] = r.transformed;
  row.push(extra);
  return row;
}

/** The column's text; check `data` (which may quote the user's text) only `withData`, redacted. */
export function hookRowsText(hooks: readonly GuardrailRecord[] | undefined, withData: boolean): string | null {
  if (!hooks || hooks.length === 0) return null;
  return JSON.stringify(hooks.map((h) => storedHook(h, withData)));
}

function checkView(c: StoredCheck): Record<string, unknown> {
  const [id, verdict, time, extra] = c;
  const view: Record<string, unknown> = { id, verdict: verdict === 1 };
  if (extra && 'data' in extra) view['data'] = extra['data'];
  if (extra && 'error' in extra) view['error'] = extra['error'];
  view['execution_time'] = time;
  if (extra && 'transformed' in extra) view['transformed'] = extra['transformed'];
  return view;
}

function hookView(h: StoredHook): Record<string, unknown> {
  const [target, array, inResponse, id, type, verdict, deny, async, time, checks, extra] = h;
  const view: Record<string, unknown> = {
    target, array, in_response: inResponse === 1, id, type,
    verdict: verdict === 1, deny: deny === 1, async: async === 1,
    checks: checks.map(checkView), execution_time: time,
  };
  if (extra) Object.assign(view, extra);
  return view;
}

/** The column as `/v1/logs` shows it: one object per hook result. */
export function hookRowsView(text: string | null): unknown {
  if (text === null || text === undefined) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  if (!Array.isArray(value)) return value;
  return value.map((h: unknown) => (Array.isArray(h) ? hookView(h as StoredHook) : h));
}
