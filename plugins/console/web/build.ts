/**
 * Bundles the console (ui/) into `public/` beside this file's compiled copy: one script and one
 * stylesheet with content-hashed names (so the gateway can let browsers keep them for a year) and
 * the index page naming them. Run by `npm run build` after tsc; nothing is fetched at run time.
 *   node dist/plugins/console/web/build.js
 */
import { build } from 'esbuild';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** The sources stay in the repository (tsc does not copy .tsx); from dist/plugins/console/web back to plugins/console/web/ui. */
const sources = join(here, '..', '..', '..', '..', 'plugins', 'console', 'web', 'ui');
const out = join(here, 'public');

async function main(): Promise<void> {
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const result = await build({
    entryPoints: { app: join(sources, 'main.tsx') },
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    sourcemap: 'linked',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    entryNames: '[name]-[hash]',
    outdir: out,
    metafile: true,
    legalComments: 'linked',
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((file) => basename(file));
  const script = outputs.find((file) => file.endsWith('.js'));
  const style = outputs.find((file) => file.endsWith('.css'));
  if (!script || !style) throw new Error(`the console bundle lacks its script or stylesheet: ${outputs.join(', ')}`);
  const page = (await readFile(join(sources, 'index.html'), 'utf8'))
    .replace('%SCRIPT%', `assets/${script}`)
    .replace('%STYLE%', `assets/${style}`);
  await writeFile(join(out, 'index.html'), page);
}

main().catch((e: Error) => {
  console.error(`console build failed: ${e.message}`);
  process.exit(1);
});
