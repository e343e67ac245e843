/**
 * The gateway as a real child process (`node dist/host/main.js --config FILE`), for tests that kill
 * it (kill -9) and start another on the same data folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { TEST_API_KEY } from './gateway.js';

export async function startMain(dataDir: string, gatewayFile: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['dist/host/main.js', '--config', gatewayFile], {
    env: { ...process.env, PORT: '0', GW_DATA_DIR: dataDir, GW_BOOTSTRAP_API_KEY: TEST_API_KEY, GW_LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
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
  return { child, url };
}
