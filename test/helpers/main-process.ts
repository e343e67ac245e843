/**
 * The gateway as a real child process (`node dist/host/main.js`, or the bundled build of it that
 * `npm start` and the image run), for tests of the standalone server and tests that kill it
 * (kill -9) and start another on the same data folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { TEST_API_KEY } from './gateway.js';
import { onPostgres, schemaOfDataDir } from './pg-schema.js';

/** The compiled entry point, as tsc wrote it. */
export const MAIN = 'dist/host/main.js';
/** The same gateway bundled by host/bundle.ts (npm start, the Docker image). */
export const BUNDLED_MAIN = 'dist/bundle/host/main.js';

export interface MainProcess {
  child: ChildProcess;
  /** From its `listening on http://…` line. */
  url: string;
  /** Everything it printed so far. */
  output(): string;
}

/** Starts main.js with `args` and `env` added to this process's environment; resolves once it listens. */
export async function spawnMain(args: string[], env: Record<string, string>, entry = MAIN): Promise<MainProcess> {
  // The child uses a database only when told: GW_DATABASE_URL of the test run itself is for the PostgreSQL pass.
  const child = spawn(process.execPath, [entry, ...args], {
    env: { ...process.env, GW_DATABASE_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (d) => (output += d));
  const url = await new Promise<string>((resolveUrl, reject) => {
    child.stdout!.on('data', (d) => {
      output += d;
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m) resolveUrl(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`gateway exited ${code}: ${output}`)));
  });
  return { child, url, output: () => output };
}

/** A gateway from a gateway file on a data folder (on the PostgreSQL pass, that folder's schema), with the test key, silent. */
export async function startMain(dataDir: string, gatewayFile: string, entry = MAIN): Promise<MainProcess> {
  const database: Record<string, string> = onPostgres() ? { GW_DATABASE_URL: (await schemaOfDataDir(dataDir)).url } : {};
  return spawnMain(['--config', gatewayFile], { PORT: '0', GW_DATA_DIR: dataDir, GW_BOOTSTRAP_API_KEY: TEST_API_KEY, GW_LOG_LEVEL: 'silent', ...database }, entry);
}

export interface FinishedMain {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs main.js with `args` to its end (a command such as `--describe`, not a server). */
export async function runMain(args: string[], env: Record<string, string>, entry = MAIN): Promise<FinishedMain> {
  const child = spawn(process.execPath, [entry, ...args], {
    env: { ...process.env, GW_DATABASE_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((done) => child.once('close', (c) => done(c)));
  return { code, stdout, stderr };
}
