/**
 * Plugin files from anywhere on disk: registers the module hooks of user-module-hooks.ts once,
 * before the first plugin file is imported, and turns a syntax error into file:line:column.
 */
import { execFile } from 'node:child_process';
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { UserModuleData } from './user-module-hooks.js';

let registered = false;

/** This package's folder (where its package.json is), found the same way from dist/ and from dist/bundle/. */
const PACKAGE_URL = new URL('./', import.meta.resolve('gw/package.json')).href;

/** The entries of the copy of the gateway that runs (dist/host/ or dist/bundle/host/: host/bundle.ts keeps this module's place). */
function hookData(): UserModuleData {
  return {
    packageUrl: PACKAGE_URL,
    entries: {
      gw: new URL('./index.js', import.meta.url).href,
      'gw/core': new URL('../core/index.js', import.meta.url).href,
      'gw/contracts': new URL('./contracts.js', import.meta.url).href,
    },
  };
}

export function enableUserModules(): void {
  if (registered) return;
  registered = true;
  register('./user-module-hooks.js', import.meta.url, { data: hookData() });
}

/** Imports a plugin file; a syntax error in it comes back naming file:line:column. */
export async function importUserModule(file: string): Promise<Record<string, unknown>> {
  enableUserModules();
  try {
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof SyntaxError && !/^\S+:\d+:\d+: /.test(e.message)) {
      const where = await syntaxErrorLocation(file);
      if (where) throw new SyntaxError(`${where}: ${e.message}`);
    }
    throw e;
  }
}

/**
 * V8 keeps the position of an ES module's syntax error off the error object; `node --check` prints
 * it (file:line, then the line and a caret). Only on the failure path, so boot pays nothing.
 */
function syntaxErrorLocation(file: string): Promise<string | undefined> {
  return new Promise((done) => {
    execFile(process.execPath, ['--check', file], { timeout: 10_000 }, (_error, _stdout, stderr) => {
      const m = /^(.+):(\d+)\r?\n.*\r?\n( *)\^/m.exec(String(stderr));
      done(m ? `${m[1]}:${m[2]}:${m[3]!.length + 1}` : undefined);
    });
  });
}
