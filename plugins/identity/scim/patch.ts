/**
 * PATCH (RFC 7644 §3.5.2): applies a PatchOp's operations to a resource as JSON, in order; the
 * routes then store the result as they would a PUT. Operations: `add`, `remove`, `replace` (any
 * case, as Entra ID sends `Replace`); paths `attr`, `attr.sub`, `urn:…:attr`, `attr[filter]`,
 * `attr[filter].sub` (the filter parsed by scim2-parse-filter and matched on each element with its
 * `filter` tester); no path with an object value. A `remove` of `members` with a value removes the
 * listed members (what Entra ID sends). A replace or add through `attr[type eq "work"].value` that
 * matches no element creates one (Entra ID's way of setting an email).
 */
import { createRequire } from 'node:module';
import type { Filter } from 'scim2-parse-filter';
import { ScimErrors } from './scim-errors.js';
import { PATCH_SCHEMA } from './scim-json.js';

// scim2-parse-filter (CommonJS) is required on the first filtered patch path, not at boot.
const require = createRequire(import.meta.url);
const scimFilter = () => require('scim2-parse-filter') as typeof import('scim2-parse-filter');

export type Json = Record<string, unknown>;

export interface PatchOperation {
  op: 'add' | 'remove' | 'replace';
  path?: string;
  value?: unknown;
}

const MAX_OPERATIONS = 1000;

/** The operations of a PatchOp body, or a 400 naming what is wrong. */
export function patchOperations(body: unknown): PatchOperation[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw ScimErrors.invalidSyntax('body: must be a PatchOp object');
  const { schemas, Operations } = body as { schemas?: unknown; Operations?: unknown };
  if (!Array.isArray(schemas) || !schemas.includes(PATCH_SCHEMA)) throw ScimErrors.invalidSyntax(`body.schemas: must contain ${PATCH_SCHEMA}`);
  if (!Array.isArray(Operations) || Operations.length === 0) throw ScimErrors.invalidSyntax('body.Operations: must be a non-empty array');
  if (Operations.length > MAX_OPERATIONS) throw ScimErrors.invalidSyntax(`body.Operations: at most ${MAX_OPERATIONS} operations`);
  return Operations.map((raw, i) => {
    if (raw === null || typeof raw !== 'object') throw ScimErrors.invalidSyntax(`body.Operations[${i}]: must be an object`);
    const { op, path, value } = raw as { op?: unknown; path?: unknown; value?: unknown };
    const name = typeof op === 'string' ? op.toLowerCase() : '';
    if (name !== 'add' && name !== 'remove' && name !== 'replace') throw ScimErrors.invalidSyntax(`body.Operations[${i}].op: must be add, remove or replace`);
    if (path !== undefined && (typeof path !== 'string' || path.trim() === '')) throw ScimErrors.invalidPath(`body.Operations[${i}].path: must be a non-empty string`);
    if (name === 'remove' && path === undefined) throw ScimErrors.noTarget(`body.Operations[${i}]: remove needs a path`);
    if (name !== 'remove' && value === undefined) throw ScimErrors.invalidValue(`body.Operations[${i}].value: is required for ${name}`);
    return { op: name, ...(typeof path === 'string' ? { path: path.trim() } : {}), value };
  });
}

/** `resource` with every operation applied (a copy; `resource` is left alone). */
export function applyPatch(resource: Json, operations: readonly PatchOperation[], coreSchema: string): Json {
  const target = structuredClone(resource);
  for (const operation of operations) applyOne(target, operation, coreSchema);
  return target;
}

interface ParsedPath {
  /** The object holding the attribute: the resource, or an extension schema's object in it. */
  schema?: string;
  attribute: string;
  /** `attr[filter]` */
  filter?: Filter;
  /** `.sub` after the attribute or the filter. */
  sub?: string;
}

function parsePath(path: string, coreSchema: string): ParsedPath {
  let rest = path;
  let schema: string | undefined;
  if (rest.toLowerCase().startsWith('urn:')) {
    // The attribute follows the schema URN's last colon (before any filter).
    const bracket = rest.indexOf('[');
    const head = bracket === -1 ? rest : rest.slice(0, bracket);
    const colon = head.lastIndexOf(':');
    const urn = head.slice(0, colon);
    rest = rest.slice(colon + 1);
    if (urn.toLowerCase() !== coreSchema.toLowerCase()) schema = urn;
  }
  const bracket = rest.indexOf('[');
  if (bracket === -1) {
    const [attribute, sub, extra] = rest.split('.');
    if (!attribute || extra !== undefined || sub === '') throw ScimErrors.invalidPath(`path "${path}" is not attr, attr.sub or attr[filter]`);
    return { ...(schema ? { schema } : {}), attribute, ...(sub ? { sub } : {}) };
  }
  const close = rest.lastIndexOf(']');
  const attribute = rest.slice(0, bracket);
  const after = rest.slice(close + 1);
  if (!attribute || close < bracket || (after !== '' && !/^\.[A-Za-z][\w$-]*$/.test(after))) {
    throw ScimErrors.invalidPath(`path "${path}" is not attr[filter] or attr[filter].sub`);
  }
  let filter: Filter;
  try {
    filter = scimFilter().parse(rest.slice(bracket + 1, close));
  } catch (e) {
    throw ScimErrors.invalidPath(`path "${path}": ${(e as Error).message}`);
  }
  return { ...(schema ? { schema } : {}), attribute, filter, ...(after ? { sub: after.slice(1) } : {}) };
}

/** The key of `name` in `object`, matched without case (attribute names are case-insensitive). */
function keyOf(object: Json, name: string): string {
  const lower = name.toLowerCase();
  return Object.keys(object).find((k) => k.toLowerCase() === lower) ?? name;
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function applyOne(resource: Json, operation: PatchOperation, coreSchema: string): void {
  if (operation.path === undefined) {
    if (!isObject(operation.value)) throw ScimErrors.invalidValue(`${operation.op} without a path needs an object value`);
    for (const [name, value] of Object.entries(operation.value)) {
      if (isSchemaUrn(name) && isObject(value)) {
        // An extension's attributes, or core ones named with the core URN.
        const holder = name.toLowerCase() === coreSchema.toLowerCase() ? resource : objectAt(resource, name);
        for (const [sub, subValue] of Object.entries(value)) setAttribute(holder, sub, subValue, operation.op);
      } else if (name.toLowerCase().startsWith('urn:')) {
        const path = parsePath(name, coreSchema);
        setAttribute(path.schema ? objectAt(resource, path.schema) : resource, path.attribute, value, operation.op);
      } else {
        setAttribute(resource, name, value, operation.op);
      }
    }
    return;
  }
  const path = parsePath(operation.path, coreSchema);
  const holder = path.schema ? objectAt(resource, path.schema) : resource;
  const key = keyOf(holder, path.attribute);
  if (path.filter) return applyFiltered(holder, key, path, operation);
  if (path.sub) {
    if (operation.op === 'remove') {
      if (isObject(holder[key])) delete (holder[key] as Json)[keyOf(holder[key] as Json, path.sub)];
      return;
    }
    setAttribute(objectAt(holder, key), path.sub, operation.value, operation.op);
    return;
  }
  if (operation.op === 'remove') {
    if (operation.value !== undefined && Array.isArray(holder[key])) {
      // remove members with a value: the listed elements (by `value`).
      const gone = new Set(asArray(operation.value).map((v) => (isObject(v) ? v['value'] : v)));
      holder[key] = (holder[key] as unknown[]).filter((e) => !gone.has(isObject(e) ? e['value'] : e));
      return;
    }
    delete holder[key];
    return;
  }
  setAttribute(holder, key, operation.value, operation.op);
}

function applyFiltered(holder: Json, key: string, path: ParsedPath, operation: PatchOperation): void {
  const current = holder[key];
  const elements = Array.isArray(current) ? current : [];
  const matches = scimFilter().filter(path.filter!);
  if (operation.op === 'remove') {
    if (!path.sub) {
      holder[key] = elements.filter((e) => !matches(e));
      return;
    }
    for (const e of elements) if (isObject(e) && matches(e)) delete e[keyOf(e, path.sub)];
    return;
  }
  const hits = elements.filter((e) => isObject(e) && matches(e)) as Json[];
  if (hits.length === 0) {
    const created = elementFor(path.filter!);
    if (!created) throw ScimErrors.noTarget(`no element of ${key} matches ${operation.path}`);
    elements.push(created);
    holder[key] = elements;
    hits.push(created);
  }
  for (const hit of hits) {
    if (path.sub) hit[keyOf(hit, path.sub)] = operation.value;
    else if (isObject(operation.value)) Object.assign(hit, operation.value);
    else throw ScimErrors.invalidValue(`${operation.path}: needs an object value`);
  }
}

/** The element a simple `sub eq value` filter describes, when it matches nothing yet. */
function elementFor(f: Filter): Json | undefined {
  if (f.op === 'eq' && !f.attrPath.includes('.')) return { [f.attrPath]: f.compValue };
  return undefined;
}

/**
 * Whether a key names a schema (`urn:…:2.0:User`, `…:enterprise:2.0:User`) rather than one of its
 * attributes (`…:User:department`): schema names start with a capital, attribute names do not.
 */
function isSchemaUrn(name: string): boolean {
  return name.toLowerCase().startsWith('urn:') && /^[A-Z]/.test(name.slice(name.lastIndexOf(':') + 1));
}

function objectAt(holder: Json, name: string): Json {
  const key = keyOf(holder, name);
  if (!isObject(holder[key])) holder[key] = {};
  return holder[key] as Json;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

/** add: multi-valued attributes gain the new elements, complex ones merge; replace: the value replaces (complex ones merge). */
function setAttribute(holder: Json, name: string, value: unknown, op: 'add' | 'replace' | 'remove'): void {
  const key = keyOf(holder, name);
  const current = holder[key];
  if (op === 'add' && Array.isArray(current)) {
    const added = asArray(value);
    const seen = new Set(current.map((e) => (isObject(e) ? e['value'] : e)).filter((v) => v !== undefined));
    holder[key] = [...current, ...added.filter((e) => !seen.has(isObject(e) ? e['value'] : e))];
  } else if (isObject(current) && isObject(value)) {
    holder[key] = { ...current, ...value };
  } else {
    holder[key] = value;
  }
}
