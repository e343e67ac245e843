/**
 * Counts sentences in one pass: a sentence is a stretch of text holding at least one letter or
 * digit, ended by a run of terminators (. ! ? … and their CJK forms) followed by whitespace or the
 * end, or by the end of the text. So "3.14" or "e.g." inside a word do not split, "Wait... what?!"
 * is two sentences, and a last sentence without a full stop still counts.
 */
export function countSentences(text: string): number {
  let sentences = 0;
  let hasContent = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (isTerminator(c)) {
      let j = i + 1;
      while (j < n && isTerminator(text.charCodeAt(j))) j++;
      // CJK terminators need no space after them.
      if (j === n || isSpaceOrQuote(text.charCodeAt(j)) || c >= 0x3000) {
        if (hasContent) sentences++;
        hasContent = false;
      }
      i = j - 1;
    } else if (!hasContent && isWordChar(c)) {
      hasContent = true;
    }
  }
  return hasContent ? sentences + 1 : sentences;
}

function isTerminator(c: number): boolean {
  return c === 0x2e || c === 0x21 || c === 0x3f || c === 0x2026 || c === 0x3002 || c === 0xff01 || c === 0xff1f;
}

function isSpaceOrQuote(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0x22 || c === 0x27 || c === 0x29
    || c === 0x201d || c === 0x2019;
}

/** Anything that is not space or punctuation counts as content (letters of any script, digits). */
function isWordChar(c: number): boolean {
  if (c < 0x80) return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  return c !== 0xa0 && !(c >= 0x2000 && c <= 0x206f) && c !== 0x3000 && !(c >= 0x3001 && c <= 0x3003);
}
