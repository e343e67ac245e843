/**
 * One pass over a caller's regular expression, before the engine sees it: finds the constructs
 * a linear-time engine cannot run (backreferences, lookaround) so the refusal can name them, and
 * estimates the size of the compiled program, because counted repetitions multiply it
 * (`(?:a{999}b){150}`-like patterns compile to 10^5 instructions and take seconds to compile).
 */

export interface PatternScan {
  /** The first unsupported construct, e.g. `\1` or `(?=`; undefined when none. */
  readonly unsupported?: string;
  /** An upper estimate of the compiled program's instruction count. */
  readonly size: number;
}

const COUNTED = /^\{(\d{1,6})(?:(,)(\d{0,6}))?\}/;

export function scanPattern(source: string): PatternScan {
  const groups: number[] = [];
  let size = 0;
  let last = 0; // size of the last atom or group: what a quantifier repeats
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (next >= '1' && next <= '9') return { unsupported: `\\${next}`, size };
      if (next === 'k' && source[i + 2] === '<') return { unsupported: '\\k<name>', size };
      i += 2;
      last = 1;
      size += 1;
    } else if (c === '[') {
      i = afterClass(source, i);
      last = 1;
      size += 1;
    } else if (c === '(') {
      const look = lookaround(source, i);
      if (look) return { unsupported: look, size };
      groups.push(size);
      size = 0;
      i += 1;
    } else if (c === ')') {
      const inner = size + 1;
      size = (groups.pop() ?? 0) + inner;
      last = inner;
      i += 1;
    } else if (c === '{' && COUNTED.test(source.slice(i, i + 16))) {
      const [text, low, comma, high] = COUNTED.exec(source.slice(i, i + 16))!;
      const times = comma === undefined ? Number(low) : high === '' ? Number(low) + 1 : Math.max(Number(low), Number(high));
      // The repeated unit is already counted once; a repetition adds the other copies.
      size += last * Math.max(times - 1, 0) + 1;
      last *= Math.max(times, 1);
      i += text.length;
    } else {
      size += 1;
      last = 1;
      i += 1;
    }
  }
  while (groups.length > 0) size += groups.pop()!;
  return { size };
}

/** The index after the class opened at `start` (escapes honoured; a leading `]` is literal). */
function afterClass(source: string, start: number): number {
  let i = start + 1;
  if (source[i] === '^') i++;
  if (source[i] === ']') i++;
  while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
  return i + 1;
}

function lookaround(source: string, open: number): string | undefined {
  if (source[open + 1] !== '?') return undefined;
  const kind = source.slice(open + 2, open + 4);
  if (kind.startsWith('=') || kind.startsWith('!')) return `(?${kind[0]}`;
  if (kind === '<=' || kind === '<!') return `(?${kind}`;
  return undefined;
}
