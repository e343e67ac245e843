/** `?` placeholders numbered for PostgreSQL, leaving literals, quoted identifiers and comments alone. */
import { expect } from 'chai';
import { numberPlaceholders } from '../../../../plugins/stores/postgres/placeholders.js';

describe('store.postgres: placeholders', () => {
  it('numbers each ? from 1, left to right', () => {
    expect(numberPlaceholders('SELECT a FROM t WHERE b = ? AND c IN (?, ?) LIMIT ? OFFSET ?'))
      .to.equal('SELECT a FROM t WHERE b = $1 AND c IN ($2, $3) LIMIT $4 OFFSET $5');
  });

  it('leaves SQL without placeholders as it is', () => {
    const sql = "SELECT 1 FROM t WHERE s = 'x'";
    expect(numberPlaceholders(sql)).to.equal(sql);
  });

  it('leaves a ? inside a string literal, also one with a doubled quote in it', () => {
    expect(numberPlaceholders("SELECT '?', 'it''s ?' || ? FROM t WHERE a = ?")).to.equal("SELECT '?', 'it''s ?' || $1 FROM t WHERE a = $2");
  });

  it('takes a backslash in a literal as text (standard strings), as LIKE ... ESCAPE \'\\\' needs', () => {
    expect(numberPlaceholders("SELECT 1 FROM t WHERE m LIKE ? ESCAPE '\\' AND n = ?")).to.equal("SELECT 1 FROM t WHERE m LIKE $1 ESCAPE '\\' AND n = $2");
  });

  it('leaves a ? inside a quoted identifier and inside comments', () => {
    expect(numberPlaceholders('SELECT "odd?name" FROM t -- why?\nWHERE a = ? /* and ? here */ AND b = ?'))
      .to.equal('SELECT "odd?name" FROM t -- why?\nWHERE a = $1 /* and ? here */ AND b = $2');
  });

  it('does not run past an unterminated literal or comment', () => {
    expect(numberPlaceholders("SELECT ? FROM t WHERE a = 'open ?")).to.equal("SELECT $1 FROM t WHERE a = 'open ?");
    expect(numberPlaceholders('SELECT ? /* open ?')).to.equal('SELECT $1 /* open ?');
    expect(numberPlaceholders('SELECT ? -- to the end ?')).to.equal('SELECT $1 -- to the end ?');
  });
});
