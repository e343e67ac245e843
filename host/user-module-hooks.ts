/**
 * Module hooks for plugin files outside this package (registered by user-modules.ts, run on Node's
 * loader thread): `gw`, `gw/core` and `gw/contracts` resolve to the running gateway's own entries, so a plugin
 * needs no npm install and shares the gateway's classes; `.ts` / `.mts` files are loaded with their
 * types stripped by TypeScript's transpiler, and a syntax error names file:line:column.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export interface UserModuleData {
  /** file: URL of this package's folder, ending in '/'. */
  packageUrl: string;
  /** Bare specifier → file: URL of the entry it stands for. */
  entries: Record<string, string>;
}

type Resolved = { url: string; format?: string | null; shortCircuit?: boolean };
type ResolveContext = { parentURL?: string; conditions: string[] };
type Loaded = { format: string; source?: string | ArrayBuffer | Uint8Array | null; shortCircuit?: boolean };

let data: UserModuleData = { packageUrl: 'file:///nonexistent/', entries: {} };

export function initialize(given: UserModuleData): void {
  data = given;
}

const TS_FILE = /\.m?ts$/;

function isOurs(url: string | undefined): boolean {
  return url !== undefined && url.startsWith(data.packageUrl) && !url.startsWith(data.packageUrl + 'node_modules/');
}

export async function resolve(
  specifier: string, context: ResolveContext, nextResolve: (s: string, c: ResolveContext) => Promise<Resolved>,
): Promise<Resolved> {
  const entry = data.entries[specifier];
  if (entry && !isOurs(context.parentURL)) return { url: entry, format: 'module', shortCircuit: true };
  try {
    return await nextResolve(specifier, context);
  } catch (e) {
    // TypeScript sources import their siblings as './x.js' while the file on disk is x.ts.
    const parent = context.parentURL;
    if (parent && TS_FILE.test(parent) && !isOurs(parent) && specifier.startsWith('.') && specifier.endsWith('.js')) {
      return nextResolve(specifier.slice(0, -3) + '.ts', context);
    }
    throw e;
  }
}

export async function load(
  url: string, context: { format?: string | null }, nextLoad: (u: string, c: object) => Promise<Loaded>,
): Promise<Loaded> {
  if (!url.startsWith('file:') || !TS_FILE.test(url) || isOurs(url)) return nextLoad(url, context);
  const file = fileURLToPath(url);
  const source = await readFile(file, 'utf8');
  return { format: 'module', source: await stripTypes(source, file), shortCircuit: true };
}

async function stripTypes(source: string, file: string): Promise<string> {
  const ts = (await import('typescript')).default;
  const out = ts.transpileModule(source, {
    fileName: file,
    reportDiagnostics: true,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      inlineSourceMap: true,
      inlineSources: true,
    },
  });
  const error = out.diagnostics?.find((d) => d.category === ts.DiagnosticCategory.Error);
  if (error) {
    const message = ts.flattenDiagnosticMessageText(error.messageText, '\n');
    if (error.file && error.start !== undefined) {
      const { line, character } = error.file.getLineAndCharacterOfPosition(error.start);
      throw new SyntaxError(`${file}:${line + 1}:${character + 1}: ${message}`);
    }
    throw new SyntaxError(`${file}: ${message}`);
  }
  return out.outputText;
}
