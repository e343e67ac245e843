/**
 * Regular expressions written by callers (conditional routing, guardrails, JSON schemas) run on
 * re2js, a pure-JS port of RE2: matching time grows linearly with the text, never exponentially,
 * so no pattern can freeze the event loop the way a backtracking `RegExp` can. Patterns keep the
 * JavaScript syntax users write (`(?<name>...)`, `\uXXXX`, `[^]`); what RE2 cannot run
 * (backreferences, lookaround) and patterns that compile to huge programs are refused with the
 * rule, once, when the config is validated. docs/security.md lists the differences from `RegExp`.
 */
import { RE2JS } from 're2js';
import { scanPattern } from './pattern-scan.js';

export interface PatternFlags {
  /** `i` */
  readonly ignoreCase?: boolean;
  /** `m`: `^` and `$` also match at line breaks. */
  readonly multiline?: boolean;
  /** `s`: `.` also matches a line break. */
  readonly dotAll?: boolean;
}

export interface PatternMatch {
  readonly text: string;
  readonly index: number;
}

/** A compiled caller pattern. Stateless: one instance serves every request. */
export interface Pattern {
  readonly source: string;
  /** Whether the pattern matches anywhere in `text` (the cheapest question: no positions kept). */
  test(text: string): boolean;
  /** The leftmost match, or null. */
  exec(text: string): PatternMatch | null;
  /** How many non-overlapping matches `text` holds. */
  count(text: string): number;
  /** Every match replaced; `$1`, `$<name>`, `$&`, `$$` in `replacement` as in String.prototype.replace. */
  replaceAll(text: string, replacement: string): string;
}

/** Largest estimated compiled size accepted: any pattern of up to 2000 characters without counted repetitions fits. */
export const MAX_PATTERN_SIZE = 4000;

const RULE_HINT = 'patterns run on a linear-time engine, RE2 syntax';

/** The compiled pattern, or the rule it breaks (a sentence fragment for an issue at the pattern's path). */
export function compilePattern(source: string, flags: PatternFlags = {}): Pattern | string {
  const scan = scanPattern(source);
  if (scan.unsupported !== undefined) {
    const what = scan.unsupported.startsWith('(') ? 'lookahead and lookbehind are' : 'backreferences are';
    return `must not use ${scan.unsupported}: ${what} not supported (${RULE_HINT})`;
  }
  if (scan.size > MAX_PATTERN_SIZE) {
    return `must compile to at most ${MAX_PATTERN_SIZE} instructions (this one: about ${scan.size}; use smaller counted repetitions {n})`;
  }
  let engine: RE2JS;
  try {
    engine = RE2JS.compile(RE2JS.translateRegExp(source), flagBits(flags));
  } catch (e) {
    return `must be a valid regular expression (${(e as Error).message}; ${RULE_HINT})`;
  }
  return new Re2Pattern(source, engine);
}

function flagBits(flags: PatternFlags): number {
  return (flags.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0) | (flags.multiline ? RE2JS.MULTILINE : 0) | (flags.dotAll ? RE2JS.DOTALL : 0);
}

/** Short texts whose answer each pattern remembers (metadata values, model names repeat). */
const MEMO_TEXT_LENGTH = 256;
const MEMO_ENTRIES = 256;

class Re2Pattern implements Pattern {
  readonly #memo = new Map<string, boolean>();
  constructor(readonly source: string, private readonly engine: RE2JS) {}

  test(text: string): boolean {
    if (text.length > MEMO_TEXT_LENGTH) return this.engine.test(text);
    let answer = this.#memo.get(text);
    if (answer === undefined) {
      answer = this.engine.test(text);
      if (this.#memo.size >= MEMO_ENTRIES) this.#memo.clear();
      this.#memo.set(text, answer);
    }
    return answer;
  }

  exec(text: string): PatternMatch | null {
    // test() runs on the DFA without positions; only a text that matches pays for the search.
    if (!this.engine.test(text)) return null;
    const matcher = this.engine.matcher(text);
    return matcher.find() ? { text: matcher.group() ?? '', index: matcher.start() } : null;
  }

  count(text: string): number {
    if (!this.engine.test(text)) return 0;
    const matcher = this.engine.matcher(text);
    let count = 0;
    while (matcher.find()) count++;
    return count;
  }

  replaceAll(text: string, replacement: string): string {
    return this.engine.matcher(text).replaceAll(replacement);
  }
}

/**
 * A pattern compiled once per params object, or the rule it breaks: validation and checks of the
 * same params share one compilation.
 */
export function patternPerParams<P extends object>(sourceOf: (params: P) => { source: string; flags?: PatternFlags }): (params: P) => Pattern | string {
  const compiled = new WeakMap<P, Pattern | string>();
  return (params) => {
    let pattern = compiled.get(params);
    if (pattern === undefined) {
      const { source, flags } = sourceOf(params);
      pattern = compilePattern(source, flags);
      compiled.set(params, pattern);
    }
    return pattern;
  };
}
