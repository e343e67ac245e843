/** How the analytics figures read. */
export const count = (v: number | null) => (v === null ? '—' : Math.round(v).toLocaleString());
export const millis = (v: number | null) => (v === null ? '—' : `${Math.round(v).toLocaleString()} ms`);
export const percent = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(v === 0 || v === 1 ? 0 : 1)} %`);
export const money = (v: number | null) => (v === null ? '—' : v.toLocaleString(undefined, { maximumSignificantDigits: 3 }));
/** `1 error`, `2 errors`. */
export const plural = (n: number, word: string) => `${count(n)} ${word}${n === 1 ? '' : 's'}`;
