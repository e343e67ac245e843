/**
 * Build step (`npm run build`, after tsc; never imported at run time): the gateway as a few files.
 * Node reads, resolves and compiles each ES module on its own, and a gateway with every built-in
 * plugin is ~700 of them; esbuild puts the same modules into dist/bundle/ as the four public
 * entries (the server, 'gw', 'gw/core', 'gw/contracts'), the module hooks of plugin files, and one
 * chunk per lazily imported part. Every module is still there once, so classes and service keys
 * stay one instance; npm packages are not bundled (they load from node_modules as before).
 *
 * A module that finds files beside itself (`new URL('./x', import.meta.url)`: the log writer's
 * thread, the console's built assets, createRequire) still finds them in dist/, where tsc put them:
 * its `import.meta.url` is rewritten to its file's URL in dist/. Only user-modules.js asks for the
 * entries of the copy that runs, so it sees its place in the bundle instead.
 *   node dist/host/bundle.js
 */
import { build, type Plugin } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(dist, 'bundle');

/** Entry name (its path in dist/bundle/, without .js) → the compiled module it starts from. */
const ENTRIES: Record<string, string> = {
  'host/main': 'host/main.js',
  'host/index': 'host/index.js',
  'core/index': 'core/index.js',
  'host/contracts': 'host/contracts.js',
  // Registered by user-modules.js as a file beside itself; it runs on Node's loader thread.
  'host/user-module-hooks': 'host/user-module-hooks.js',
};

/** Modules that must see where they run in the bundle, not where tsc put them. */
const AT_THEIR_PLACE_IN_THE_BUNDLE = new Set(['host/user-modules.js']);

// Every output file is two levels below dist/ (bundle/host/main.js, bundle/chunks/x.js ...).
const BANNER = "const __gwDist = new URL('../../', import.meta.url), __gwBundle = new URL('../', import.meta.url);";

const importMetaUrlOfDist: Plugin = {
  name: 'import-meta-url-of-dist',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const path = relative(dist, args.path).split('\\').join('/');
      if (path.startsWith('..') || !source.includes('import.meta.url')) return undefined;
      const base = AT_THEIR_PLACE_IN_THE_BUNDLE.has(path) ? '__gwBundle' : '__gwDist';
      return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(path)}, ${base}).href`), loader: 'js' };
    });
  },
};

async function main(): Promise<void> {
  await rm(out, { recursive: true, force: true });
  await build({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, join(dist, file)])),
    outdir: out,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: { js: BANNER },
    plugins: [importMetaUrlOfDist],
    // Stack traces name the TypeScript files and lines (npm start runs with --enable-source-maps);
    // the sources' text is left out of the maps, which Node reads at every start.
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
  });
}

main().catch((e: Error) => {
  console.error(`bundle failed: ${e.message}`);
  process.exit(1);
});
