/**
 * The cache family's JSON writer (cache.core's exact keys, cache.semantic's conversation text):
 * object keys sorted at every level, which JSON.stringify cannot do, so that equal values give equal
 * text whatever the key order a client used. `skipTopLevel` leaves out top-level keys (e.g. `stream`).
 * Like JSON.stringify, undefined and function members are left out of objects (null in arrays).
 */
export function canonicalJson(value: unknown, skipTopLevel?: ReadonlySet<string>): string {
  return write(value, skipTopLevel);
}

function write(value: unknown, skip: ReadonlySet<string> | undefined): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  // What JSON.stringify would write for it: a form's file part is its descriptor (name, size, digest), not its bytes.
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return write(toJSON.call(value), skip);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      out += (i === 0 ? '' : ',') + (item === undefined || typeof item === 'function' ? 'null' : write(item, undefined));
    }
    return out + ']';
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object).sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    if (skip?.has(key)) continue;
    const item = object[key];
    if (item === undefined || typeof item === 'function') continue;
    out += (first ? '' : ',') + JSON.stringify(key) + ':' + write(item, undefined);
    first = false;
  }
  return out + '}';
}
