/**
 * Module hooks (run on Node's loader thread) that append the URL of every ES module loaded to the
 * file named by register.ts. CommonJS files required from CommonJS do not pass here: register.ts
 * adds those from the require cache when the process exits.
 */
import { appendFileSync } from 'node:fs';

let out = '';

export function initialize(data: { out: string }): void {
  out = data.out;
}

type Loaded = { format: string; source?: unknown; shortCircuit?: boolean };

export async function load(url: string, context: object, nextLoad: (u: string, c: object) => Promise<Loaded>): Promise<Loaded> {
  appendFileSync(out, `${url}\n`);
  return nextLoad(url, context);
}
