/**
 * How deeply caller JSON may nest. Much of the gateway walks JSON recursively (validation,
 * freezing, re-serialising), and a body nested thousands of levels overflows the stack there; even
 * JSON.parse takes seconds on millions of levels. So depth is checked first, by one linear pass
 * over the text that counts brackets outside strings and stops at the first level too deep.
 */

export const DEFAULT_JSON_MAX_DEPTH = 128;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** The rule a too-deep document breaks, for the 400 of whoever parses it. */
export function jsonDepthRule(max: number): string {
  return `nesting deeper than ${max} levels (GW_JSON_MAX_DEPTH)`;
}

/**
 * Whether JSON text (UTF-8 bytes or a string) opens more than `max` arrays and objects inside one
 * another. It does not validate: text that is not JSON is left for JSON.parse to refuse.
 */
export function nestsDeeperThan(json: Uint8Array | string, max: number): boolean {
  // Every level needs its own bracket: a short text cannot be too deep.
  if (json.length <= max) return false;
  return typeof json === 'string' ? stringNestsDeeper(json, max) : bytesNestDeeper(json, max);
}

// UTF-8 never uses bytes below 0x80 inside a multi-byte character, so brackets, quotes and
// backslashes can be found byte by byte.
function bytesNestDeeper(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  const end = bytes.length;
  for (let i = 0; i < end; i++) {
    const b = bytes[i]!;
    if (b === QUOTE) {
      i = closingQuote(bytes, i + 1);
      if (i < 0) return false;
    } else if (b === OPEN_BRACKET || b === OPEN_BRACE) {
      if (++depth > max) return true;
    } else if ((b === CLOSE_BRACKET || b === CLOSE_BRACE) && depth > 0) {
      depth--;
    }
  }
  return false;
}

/** The index of the quote closing a string whose content starts at `from`; -1 when unterminated. */
function closingQuote(bytes: Uint8Array, from: number): number {
  let at = bytes.indexOf(QUOTE, from);
  while (at >= 0 && escaped(bytes, from, at)) at = bytes.indexOf(QUOTE, at + 1);
  return at;
}

/** Whether the quote at `at` follows an odd run of backslashes (within the string started at `from`). */
function escaped(bytes: Uint8Array, from: number, at: number): boolean {
  let run = 0;
  for (let i = at - 1; i >= from && bytes[i] === BACKSLASH; i--) run++;
  return run % 2 === 1;
}

function stringNestsDeeper(text: string, max: number): boolean {
  let depth = 0;
  const end = text.length;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = closingQuoteInText(text, i + 1);
      if (i < 0) return false;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > max) return true;
    } else if ((c === CLOSE_BRACKET || c === CLOSE_BRACE) && depth > 0) {
      depth--;
    }
  }
  return false;
}

function closingQuoteInText(text: string, from: number): number {
  let at = text.indexOf('"', from);
  while (at >= 0 && escapedInText(text, from, at)) at = text.indexOf('"', at + 1);
  return at;
}

function escapedInText(text: string, from: number, at: number): boolean {
  let run = 0;
  for (let i = at - 1; i >= from && text.charCodeAt(i) === BACKSLASH; i--) run++;
  return run % 2 === 1;
}
