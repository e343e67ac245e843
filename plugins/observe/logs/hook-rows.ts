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
import { KeptText, KeptTimes, type CheckVerdict, type GuardrailRecord } from '../../../core/index.js';
import { redact } from './redact.js';

type Extra = Record<string, unknown>;
type StoredCheck = [string, 0 | 1, number, Extra?];
type StoredHook = [string, string, 0 | 1, string, string, 0 | 1, 0 | 1, 0 | 1, number, StoredCheck[], Extra?];

/*
 * Written by hand rather than as arrays through JSON.stringify, which cost more than the rest of a
 * guarded request's hook bookkeeping (docs/performance.md). The text equals JSON.stringify of the
 * positional form (tested). The parts that repeat from request to request are kept whole, so a row
 * is a few pieces, flattened at once: it waits in the queue for its batch, and a string of many
 * pieces would be kept (and copied by the collector) as all of them.
 */
/** `["target",` opening the first hook row, and `,["target",` the next ones. */
const firstRow = new KeptText((target) => `[${JSON.stringify(target)},`);
const nextRow = new KeptText((target) => `,[${JSON.stringify(target)},`);
/** `"array",`, `"id",` and `"type",`; then `verdict,deny,async,` as bits by `verdict * 4 + deny * 2 + async`. */
const quoted = new KeptText((s) => `${JSON.stringify(s)},`);
const FLAG_BITS = ['0,0,0,', '0,0,1,', '0,1,0,', '0,1,1,', '1,0,0,', '1,0,1,', '1,1,0,', '1,1,1,'];
/** `["id",` opening the first check of a hook, `,["id",` the next ones. */
const firstCheck = new KeptText((id) => `[${JSON.stringify(id)},`);
const nextCheck = new KeptText((id) => `,[${JSON.stringify(id)},`);
/** `verdict,time]` for the small whole times most checks take. */
const checkTails = [0, 1].map((bit) => new KeptTimes((t) => `${bit},${t}]`));
/** A hook's `time,[` opening its checks. */
const hookTimes = new KeptTimes((t) => `${t},[`);

/** A number as JSON.stringify writes it. */
const num = (n: number) => (Number.isFinite(n) ? String(n) : 'null');

function checkText(c: CheckVerdict, first: boolean, withData: boolean): string {
  const head = (first ? firstCheck : nextCheck).get(c.id);
  const dataKept = withData && c.data !== null && c.data !== undefined;
  const t = c.execution_time;
  if (!dataKept && c.error === undefined && c.transformed === undefined) {
    return head + (checkTails[c.verdict ? 1 : 0]!.get(t) ?? `${c.verdict ? 1 : 0},${num(t)}]`);
  }
  const extra: Extra = {};
  if (dataKept) extra['data'] = redact(c.data);
  if (c.error !== undefined) extra['error'] = c.error;
  if (c.transformed !== undefined) extra['transformed'] = c.transformed;
  return `${head}${c.verdict ? 1 : 0},${num(t)},${JSON.stringify(extra)}]`;
}

/** The column's text; check `data` (which may quote the user's text) only `withData`, redacted. */
export function hookRowsText(hooks: readonly GuardrailRecord[] | undefined, withData: boolean): string | null {
  if (!hooks || hooks.length === 0) return null;
  let s = '[';
  for (let i = 0; i < hooks.length; i++) {
    const { target, array, inResponse, result: r } = hooks[i]!;
    s += (i === 0 ? firstRow : nextRow).get(target) + quoted.get(array) + (inResponse ? '1,' : '0,') + quoted.get(r.id) + quoted.get(r.type)
      + FLAG_BITS[(r.verdict ? 4 : 0) + (r.deny ? 2 : 0) + (r.async ? 1 : 0)] + (hookTimes.get(r.execution_time) ?? `${num(r.execution_time)},[`);
    const checks = r.checks;
    for (let c = 0; c < checks.length; c++) s += checkText(checks[c]!, c === 0, withData);
    if (r.feedback === undefined && r.transformed === undefined) s += ']]';
    else {
      const extra: Extra = {};
      if (r.feedback !== undefined) extra['feedback'] = r.feedback;
      if (r.transformed !== undefined) extra['transformed'] = r.transformed;
      s += `],${JSON.stringify(extra)}]`;
    }
  }
  s += ']';
  s.charCodeAt(0); // flattens the string now, while it is young
  return s;
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
