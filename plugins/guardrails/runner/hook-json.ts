/**
 * `hook_results` as JSON text, written field by field. Every guarded answer carries them and every
 * request log keeps them; a generic JSON.stringify walks each small object afresh, while here only
 * the checks' `data` goes through it. Fields come in the order the runner builds them, so the text
 * equals JSON.stringify of its results (tested).
 */
import { KeptText, KeptTimes, type CheckVerdict, type HookResult, type HookResults } from '../../../core/index.js';

/** `{"key":` opening a data object, and `,"key":` for the fields after the first. */
const firstKey = new KeptText((k) => `{${JSON.stringify(k)}:`);
const nextKey = new KeptText((k) => `,${JSON.stringify(k)}:`);
/** A check's opening up to its verdict; with the verdict and `"data":` too, one per verdict. */
const checkHead = new KeptText((id) => `{"id":${JSON.stringify(id)},"verdict":`);
const passedCheckHead = new KeptText((id) => `{"id":${JSON.stringify(id)},"verdict":true,"data":`);
const failedCheckHead = new KeptText((id) => `{"id":${JSON.stringify(id)},"verdict":false,"data":`);
/** A hook's opening up to its type; the type's text with the verdict, one per verdict. */
const hookHead = new KeptText((id) => `{"id":${JSON.stringify(id)},"type":`);
const typeText = new KeptText((type) => `${JSON.stringify(type)},"verdict":`);
const passedType = new KeptText((type) => `${JSON.stringify(type)},"verdict":true`);
const failedType = new KeptText((type) => `${JSON.stringify(type)},"verdict":false`);

/** Closing texts with the time, for the times most checks and hooks take (whole ms, rounded). */
const checkTails = new KeptTimes((t) => `,"execution_time":${t}}`);
const hookTails = new KeptTimes((t) => `],"execution_time":${t}}`);

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
  let s = '';
  for (const key in data) {
    const v = (data as Record<string, unknown>)[key];
    let text: string;
    if (typeof v === 'string') text = JSON.stringify(v);
    else if (typeof v === 'number' && Number.isFinite(v)) text = String(v);
    else if (typeof v === 'boolean') text = v ? 'true' : 'false';
    else return JSON.stringify(data);
    s += (s === '' ? firstKey.get(key) : nextKey.get(key)) + text;
  }
  return s === '' ? '{}' : `${s}}`;
}

function checkJson(c: CheckVerdict): string {
  let s: string;
  if (c.data !== undefined && typeof c.verdict === 'boolean') s = (c.verdict ? passedCheckHead : failedCheckHead).get(c.id) + dataJson(c.data);
  else {
    s = checkHead.get(c.id) + scalar(c.verdict);
    if (c.data !== undefined) s += `,"data":${dataJson(c.data)}`;
  }
  if (c.error !== undefined) s += `,"error":${JSON.stringify(c.error)}`;
  const tail = c.transformed === undefined ? checkTails.get(c.execution_time) : undefined;
  if (tail !== undefined) return s + tail;
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
  const typeAndVerdict = r.verdict === true ? passedType.get(r.type) : r.verdict === false ? failedType.get(r.type) : typeText.get(r.type) + scalar(r.verdict);
  let s = hookHead.get(r.id) + typeAndVerdict + flags;
  const checks = r.checks;
  for (let i = 0; i < checks.length; i++) s += (i === 0 ? '' : ',') + checkJson(checks[i]!);
  const tail = r.feedback === undefined && r.transformed === undefined ? hookTails.get(r.execution_time) : undefined;
  if (tail !== undefined) return s + tail;
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
