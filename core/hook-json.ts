/**
 * `hook_results` as JSON text, written field by field. Every guarded answer carries them and every
 * request log keeps them; a generic JSON.stringify walks each small object afresh, while here only
 * the checks' `data` goes through it. Fields come in the order the runner builds them, so the text
 * equals JSON.stringify of its results (tested).
 */
import { BoundedMap } from './bounded-map.js';
import type { CheckVerdict, HookResult, HookResults } from './guardrails.js';

/**
 * Ids, types and data keys repeat from request to request: the fixed text around them is kept
 * (bounded), so a result is written in a few pieces. Fewer pieces are also a cheaper flattening
 * when the text is encoded: a string built from many small concatenations is a deep rope.
 */
const MAX_KEPT = 4096;

/** The text `make` gives for a string, kept in a bounded memo (no closure per lookup, unlike `remember`). */
class Kept {
  readonly #texts = new BoundedMap<string, string>(MAX_KEPT);
  constructor(private readonly make: (s: string) => string) {}
  get(s: string): string {
    let t = this.#texts.get(s);
    if (t === undefined) {
      t = this.make(s);
      this.#texts.set(s, t);
    }
    return t;
  }
}

/** `"key":` of a data field. */
const keyText = new Kept((k) => `${JSON.stringify(k)}:`);
/** A check's opening up to its verdict. */
const checkHead = new Kept((id) => `{"id":${JSON.stringify(id)},"verdict":`);
/** A hook's opening up to its type; the type's text up to the verdict. */
const hookHead = new Kept((id) => `{"id":${JSON.stringify(id)},"type":`);
const typeText = new Kept((type) => `${JSON.stringify(type)},"verdict":`);

/** A JSON value of the schema's scalar fields: booleans and finite numbers as text, anything else stringified. */
function scalar(v: unknown): string {
  if (v === true) return 'true';
  if (v === false) return 'false';
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return JSON.stringify(v) ?? 'null';
}

/**
 * A check's `data`: usually a small plain object of numbers and strings (a count, a match), written
 * directly; anything else (nesting, arrays, other prototypes, toJSON) goes through JSON.stringify.
 */
function dataJson(data: unknown): string {
  if (data === null || typeof data !== 'object' || Object.getPrototypeOf(data) !== Object.prototype) return JSON.stringify(data) ?? 'null';
  let s = '{';
  for (const key in data) {
    const v = (data as Record<string, unknown>)[key];
    let text: string;
    if (typeof v === 'string') text = JSON.stringify(v);
    else if (typeof v === 'number' && Number.isFinite(v)) text = String(v);
    else if (typeof v === 'boolean') text = v ? 'true' : 'false';
    else return JSON.stringify(data);
    s += `${s.length === 1 ? '' : ','}${keyText.get(key)}${text}`;
  }
  return `${s}}`;
}

function checkJson(c: CheckVerdict): string {
  let s = checkHead.get(c.id) + scalar(c.verdict);
  if (c.data !== undefined) s += `,"data":${dataJson(c.data)}`;
  if (c.error !== undefined) s += `,"error":${JSON.stringify(c.error)}`;
  s += `,"execution_time":${scalar(c.execution_time)}`;
  if (c.transformed !== undefined) s += `,"transformed":${scalar(c.transformed)}`;
  return `${s}}`;
}

/** `,"deny":…,"async":…,"checks":[` for each pair of flags. */
const FLAGS = [
  ',"deny":false,"async":false,"checks":[', ',"deny":false,"async":true,"checks":[',
  ',"deny":true,"async":false,"checks":[', ',"deny":true,"async":true,"checks":[',
];

/** One hook result as a JSON object. */
export function hookResultJson(r: HookResult): string {
  const flags = typeof r.deny === 'boolean' && typeof r.async === 'boolean'
    ? FLAGS[(r.deny ? 2 : 0) + (r.async ? 1 : 0)]
    : `,"deny":${scalar(r.deny)},"async":${scalar(r.async)},"checks":[`;
  let s = hookHead.get(r.id) + typeText.get(r.type) + scalar(r.verdict) + flags;
  const checks = r.checks;
  for (let i = 0; i < checks.length; i++) s += (i === 0 ? '' : ',') + checkJson(checks[i]!);
  s += `],"execution_time":${scalar(r.execution_time)}`;
  if (r.feedback !== undefined) s += `,"feedback":${JSON.stringify(r.feedback)}`;
  if (r.transformed !== undefined) s += `,"transformed":${scalar(r.transformed)}`;
  return `${s}}`;
}

function listJson(results: readonly HookResult[]): string {
  let s = '[';
  for (let i = 0; i < results.length; i++) s += (i === 0 ? '' : ',') + hookResultJson(results[i]!);
  return `${s}]`;
}

/** `hook_results` of an answer: `{"before_request_hooks":[...],"after_request_hooks":[...]}`. */
export function hookResultsJson(results: HookResults): string {
  return `{"before_request_hooks":${listJson(results.before_request_hooks)},"after_request_hooks":${listJson(results.after_request_hooks)}}`;
}
