/**
 * The console's built files, read once at boot from `public/` beside this module: the index page
 * and the content-hashed assets, each with its type, its ETag and a gzip copy for browsers that
 * take one (the bundle is a few hundred KB of text), made when first asked for rather than at boot.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export interface ConsoleFile {
  readonly body: Buffer;
  readonly gzipped: Buffer;
  readonly type: string;
  readonly etag: string;
}

export interface ConsoleBundle {
  readonly index: ConsoleFile;
  readonly assets: ReadonlyMap<string, ConsoleFile>;
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export const DEFAULT_BUNDLE_DIR = fileURLToPath(new URL('./public/', import.meta.url));

/** The bundle in `dir`, or undefined when it was not built (tsc alone does not build it). */
export function loadBundle(dir: string = DEFAULT_BUNDLE_DIR): ConsoleBundle | undefined {
  if (!existsSync(join(dir, 'index.html'))) return undefined;
  const assets = new Map<string, ConsoleFile>();
  for (const name of readdirSync(dir)) {
    if (name === 'index.html' || !(extname(name) in TYPES)) continue;
    assets.set(name, fileOf(join(dir, name)));
  }
  return { index: fileOf(join(dir, 'index.html')), assets };
}

class BundleFile implements ConsoleFile {
  #gzipped: Buffer | undefined;

  constructor(readonly body: Buffer, readonly type: string, readonly etag: string) {}

  get gzipped(): Buffer {
    return (this.#gzipped ??= gzipSync(this.body));
  }
}

function fileOf(path: string): ConsoleFile {
  const body = readFileSync(path);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return new BundleFile(body, TYPES[extname(path)]!, etag);
}
