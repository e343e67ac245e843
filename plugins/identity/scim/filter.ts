/**
 * SCIM filters (RFC 7644 §3.4.2.2), parsed by `scim2-parse-filter` into its AST and translated to a
 * SQL condition over our own columns. Translated, not filtered in memory: a directory can hold tens
 * of thousands of people, and `totalResults`, `startIndex` and `count` then come from the store
 * (COUNT, LIMIT, OFFSET) instead of from every row read into the process.
 *
 * Every operator is supported (eq ne co sw ew gt ge lt le pr, and or not, `attr[filter]`). String
 * attributes compare case-insensitively unless their schema says caseExact (id, externalId), as
 * the RFC asks. An attribute we do not keep, a value of the wrong type, or a filter over
 * MAX_FILTER_LENGTH characters or MAX_TERMS comparisons is a 400 `invalidFilter`.
 */
import { createRequire } from 'node:module';
import type { Filter } from 'scim2-parse-filter';
import type { SqlDialect } from '../../../core/index.js';
import { ScimErrors } from './scim-errors.js';

// scim2-parse-filter (CommonJS) is required on the first filter, not at boot.
const require = createRequire(import.meta.url);

export const MAX_FILTER_LENGTH = 4096;
export const MAX_TERMS = 50;

/** Where an attribute lives: a column (or a condition builder for multi-valued ones). */
export type Attribute =
  | { kind: 'string'; column: string; caseExact: boolean }
  | { kind: 'boolean'; column: string }
  /** A value in a related table (`column` there): only equality, wrapped by `sql` as `EXISTS (...)`. */
  | { kind: 'exists'; column: string; caseExact: boolean; sql: (condition: string) => string };

/** Attribute names (lower-case, sub-attributes dotted, schema URN stripped) → where they live. */
export type AttributeMap = Readonly<Record<string, Attribute>>;

export interface SqlCondition {
  sql: string;
  params: unknown[];
}

/** The SQL condition of `filter` over `attributes`, or a 400 invalidFilter naming what is wrong. */
export function filterToSql(filter: string, attributes: AttributeMap, schemaUrn: string, dialect: SqlDialect): SqlCondition {
  if (filter.length > MAX_FILTER_LENGTH) throw ScimErrors.invalidFilter(`longer than ${MAX_FILTER_LENGTH} characters`);
  let ast: Filter;
  try {
    ast = (require('scim2-parse-filter') as typeof import('scim2-parse-filter')).parse(filter);
  } catch (e) {
    throw ScimErrors.invalidFilter(`cannot parse "${filter}": ${(e as Error).message}`);
  }
  const translator = new Translator(attributes, schemaUrn.toLowerCase(), dialect);
  const sql = translator.node(ast, '');
  return { sql, params: translator.params };
}

class Translator {
  readonly params: unknown[] = [];
  #terms = 0;

  constructor(
    private readonly attributes: AttributeMap,
    private readonly schemaUrn: string,
    private readonly dialect: SqlDialect,
  ) {}

  node(f: Filter, prefix: string): string {
    switch (f.op) {
      case 'and':
      case 'or':
        return `(${f.filters.map((c) => this.node(c, prefix)).join(` ${f.op.toUpperCase()} `)})`;
      case 'not':
        return `(NOT ${this.node(f.filter, prefix)})`;
      case '[]':
        // attr[sub op value]: the sub-filter's paths are relative to attr.
        return this.node(f.valFilter, `${this.name(f.attrPath, prefix)}.`);
      default:
        return this.compare(f, prefix);
    }
  }

  private name(path: string, prefix: string): string {
    let name = path.toLowerCase();
    if (name.startsWith(`${this.schemaUrn}:`)) name = name.slice(this.schemaUrn.length + 1);
    return prefix + name;
  }

  private attribute(path: string, prefix: string): Attribute {
    const name = this.name(path, prefix);
    const attribute = this.attributes[name] ?? (name.includes('.') ? undefined : this.attributes[`${name}.value`]);
    if (!attribute) throw ScimErrors.invalidFilter(`attribute "${prefix}${path}" cannot be filtered on (known: ${Object.keys(this.attributes).join(', ')})`);
    return attribute;
  }

  private compare(f: Exclude<Filter, { op: 'and' | 'or' | 'not' | '[]' }>, prefix: string): string {
    if (++this.#terms > MAX_TERMS) throw ScimErrors.invalidFilter(`more than ${MAX_TERMS} comparisons`);
    const attribute = this.attribute(f.attrPath, prefix);
    const path = `${prefix}${f.attrPath}`;
    if (attribute.kind === 'exists') {
      if (f.op !== 'eq' || typeof f.compValue !== 'string') throw ScimErrors.invalidFilter(`${path} supports only eq with a string`);
      return attribute.sql(this.equals(attribute.column, attribute.caseExact, f.compValue));
    }
    if (attribute.kind === 'boolean') return this.booleanCompare(attribute.column, f, path);
    const column = attribute.column;
    if (f.op === 'pr') return `(${column} IS NOT NULL AND ${column} <> '')`;
    if (typeof f.compValue !== 'string') {
      if (f.compValue === null && (f.op === 'eq' || f.op === 'ne')) return f.op === 'eq' ? `(${column} IS NULL)` : `(${column} IS NOT NULL)`;
      throw ScimErrors.invalidFilter(`${path} is a string: compare it with a quoted string, not ${JSON.stringify(f.compValue)}`);
    }
    const value = f.compValue;
    switch (f.op) {
      case 'eq':
        return this.equals(column, attribute.caseExact, value);
      case 'ne':
        return `(${column} IS NULL OR NOT ${this.equals(column, attribute.caseExact, value)})`;
      case 'co':
      case 'sw':
      case 'ew':
        return this.contains(column, attribute.caseExact, f.op, value);
      case 'gt':
      case 'ge':
      case 'lt':
      case 'le': {
        const sign = { gt: '>', ge: '>=', lt: '<', le: '<=' }[f.op];
        return `(${this.cased(column, attribute.caseExact)} ${sign} ${this.param(attribute.caseExact ? value : value.toLowerCase())})`;
      }
      default:
        throw ScimErrors.invalidFilter(`unknown operator "${(f as { op: string }).op}"`);
    }
  }

  private booleanCompare(column: string, f: Exclude<Filter, { op: 'and' | 'or' | 'not' | '[]' }>, path: string): string {
    if (f.op === 'pr') return `(${column} IS NOT NULL)`;
    if (f.op !== 'eq' && f.op !== 'ne') throw ScimErrors.invalidFilter(`${path} is a boolean: use eq, ne or pr`);
    if (typeof f.compValue !== 'boolean') throw ScimErrors.invalidFilter(`${path} is a boolean: compare it with true or false, not ${JSON.stringify(f.compValue)}`);
    return `(${column} ${f.op === 'eq' ? '=' : '<>'} ${this.param(f.compValue ? 1 : 0)})`;
  }

  private cased(column: string, caseExact: boolean): string {
    return caseExact ? column : `LOWER(${column})`;
  }

  private equals(column: string, caseExact: boolean, value: string): string {
    return `(${this.cased(column, caseExact)} = ${this.param(caseExact ? value : value.toLowerCase())})`;
  }

  private contains(column: string, caseExact: boolean, op: 'co' | 'sw' | 'ew', value: string): string {
    if (!caseExact) {
      // LIKE on lower-cased text: case-insensitive the same way on SQLite and PostgreSQL.
      const escaped = value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
      const pattern = op === 'sw' ? `${escaped}%` : op === 'ew' ? `%${escaped}` : `%${escaped}%`;
      return `(LOWER(${column}) LIKE ${this.param(pattern)} ESCAPE '\\')`;
    }
    // Case-exact: LIKE is case-insensitive on SQLite, so compare substrings instead.
    if (op === 'sw') return `(SUBSTR(${column}, 1, ${this.param(value.length)}) = ${this.param(value)})`;
    if (op === 'ew') {
      return `(LENGTH(${column}) >= ${this.param(value.length)} AND SUBSTR(${column}, LENGTH(${column}) - ${this.param(value.length - 1)}) = ${this.param(value)})`;
    }
    const position = this.dialect === 'postgres' ? 'STRPOS' : 'INSTR';
    return `(${position}(${column}, ${this.param(value)}) > 0)`;
  }

  /** A placeholder for `value`, in order of appearance. */
  private param(value: unknown): string {
    this.params.push(value);
    return '?';
  }
}
