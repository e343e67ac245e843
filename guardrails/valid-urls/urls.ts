/** The distinct http(s) URLs of a text, trailing punctuation left out ("see https://x.org." → https://x.org). */
const URL_IN_TEXT = /https?:\/\/[^\s<>"'`)\]}]+/g;
const TRAILING = /[.,;:!?]+$/;

export function urlsIn(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(URL_IN_TEXT)) found.add(match[0].replace(TRAILING, ''));
  return [...found];
}
