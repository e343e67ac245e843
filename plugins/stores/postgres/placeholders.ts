/**
 * Plugins write SQL with `?` placeholders (as SQLite takes them); PostgreSQL numbers them `$1, $2 ...`.
 * A `?` inside a string literal, a quoted identifier or a comment is text and stays as it is.
 */

/** `sql` with each placeholder `?` replaced by `$n`, counting from 1, left to right. */
export function numberPlaceholders(sql: string): string {
  if (!sql.includes('?')) return sql;
  let out = '';
  let n = 0;
  let from = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === '?') {
      out += sql.slice(from, i) + '$' + String(++n);
      from = ++i;
    } else if (c === "'" || c === '"') {
      i = closingQuote(sql, i + 1, c);
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i + 2);
      i = end < 0 ? sql.length : end + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else {
      i++;
    }
  }
  return out + sql.slice(from);
}

/** The index after the quote closing a literal opened before `at` (a doubled quote is one quote inside it). */
function closingQuote(sql: string, at: number, quote: string): number {
  let i = at;
  for (;;) {
    const end = sql.indexOf(quote, i);
    if (end < 0) return sql.length;
    if (sql[end + 1] !== quote) return end + 1;
    i = end + 2;
  }
}
