/**
 * The gateway as a real child process (`node dist/host/main.js`), for tests of the standalone
 * server and tests that kill it (kill -9) and start another on the same data folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { TEST_API_KEY } from './gateway.js';

export interface MainProcess {
  child: ChildProcess;
  /** From its `listening on http://…` line. */
  url: string;
  /** Everything it printed so far. */
  output(): string;
}

/** Starts main.js with `args` and `env` added to this process's environment; resolves once it listens. */
export async function spawnMain(args: string[], env: Record<string, string>): Promise<MainProcess> {
  const child = spawn(process.execPath, ['dist/host/main.js', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** A gateway from a gateway file on a data folder, with the test key, silent. */
export function startMain(dataDir: string, gatewayFile: string): Promise<MainProcess> {
  return spawnMain(['--config', gatewayFile], { PORT: '0', GW_DATA_DIR: dataDir, GW_BOOTSTRAP_API_KEY: TEST_API_KEY, GW_LOG_LEVEL: 'silent' });
}
