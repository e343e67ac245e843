// TEMPORARY placeholder; replaced by the full spec §2.1 schema.
import type { Issue } from '../schema.js';
export function checkConfig(value: unknown): Issue[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [{ path: '', rule: 'must be a JSON object' }];
  return [];
}
