/**
 * What the deployment files must agree with, read from the gateway itself: the environment
 * variables its code reads, its default port, its health routes, and a check that a gateway file
 * really loads. Also the YAML reader (js-yaml, already installed as mocha's) for the tests.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readGatewayFile, resolveComposition } from '../../host/compose.js';
import { listenFromEnv } from '../../host/env.js';

export { HEALTH_PATH, LIVENESS_PATH } from '../../host/health.js';
export { load as parseYaml, loadAll as parseYamlDocuments } from 'js-yaml';

/** The repository (tests run from dist/test/deploy). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export const DEFAULT_PORT = listenFromEnv({}).port;

export const readRepoFile = (path: string): string => readFileSync(join(repoRoot, path), 'utf8');

/** Every `env['NAME']` the gateway's sources read (host, core, plugins, providers, guardrails). */
export function gatewayEnvNames(): Set<string> {
  const names = new Set<string>();
  for (const dir of ['host', 'core', 'plugins', 'providers', 'guardrails']) {
    for (const file of sourceFiles(join(repoRoot, dir))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/env\[['"]([A-Z][A-Z0-9_]*)['"]\]/g)) names.add(m[1]!);
    }
  }
  return names;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (path.endsWith('.ts') && !path.endsWith('.d.ts')) yield path;
  }
}

/** Throws unless `path` (in the repository) is a gateway file the gateway loads. */
export async function loadsAsGatewayFile(path: string): Promise<void> {
  const { composition, baseDir } = await readGatewayFile(join(repoRoot, path));
  await resolveComposition(composition, baseDir);
}
