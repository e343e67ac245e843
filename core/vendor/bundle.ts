/**
 * Build step (`npm run build`, after tsc; never imported at run time): rewrites each compiled
 * module of this folder as one self-contained file holding the libraries it re-exports. Node reads
 * and compiles a module per file at boot, and some libraries are hundreds of small files; each is
 * only ever imported through its module here, so it stays one instance. A file already bundled
 * (tsc's incremental build leaves it when its source did not change) is left as it is.
 *   node dist/core/vendor/bundle.js
 */
import { build } from 'esbuild';
import { readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const self = fileURLToPath(import.meta.url);

// CommonJS libraries call require() for node's own modules; an ES module has none of its own.
const REQUIRE_BANNER = "import { createRequire as __vendorRequire } from 'node:module'; const require = __vendorRequire(import.meta.url);";

async function main(): Promise<void> {
  const modules = (await readdir(here)).filter((file) => file.endsWith('.js')).map((file) => join(here, file)).filter((file) => file !== self);
  for (const file of modules) {
    if ((await readFile(file, 'utf8')).startsWith(REQUIRE_BANNER)) continue;
    await build({
      entryPoints: [file],
      outfile: file,
      allowOverwrite: true,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // No source map: `npm start` runs with --enable-source-maps, which reads every map at boot; a frame
      // in these files still names the library's own file in the comment above its code.
      sourcemap: false,
      banner: { js: REQUIRE_BANNER },
      legalComments: 'inline',
      logLevel: 'warning',
    });
    await rm(`${file}.map`, { force: true }); // tsc's map of the re-exports, which no longer exist
  }
}

main().catch((e: Error) => {
  console.error(`vendor bundle failed: ${e.message}`);
  process.exit(1);
});
