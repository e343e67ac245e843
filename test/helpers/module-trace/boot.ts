/**
 * A real gateway process run under the module trace (register.ts): the modules it loaded, one URL
 * or path each. With `whileListening`, that runs once the process listens, then it is stopped;
 * without, `args` must end the process by themselves (`--describe=json`).
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_API_KEY } from '../gateway.js';
import { MAIN } from '../main-process.js';

const TRACE_HOOK = fileURLToPath(new URL('./register.js', import.meta.url));

export interface TracedBoot {
  dataDir: string;
  args: string[];
  /** dist/host/main.js unless said. */
  entry?: string;
  whileListening?: () => Promise<void>;
}

export async function modulesLoaded({ dataDir, args, entry = MAIN, whileListening }: TracedBoot): Promise<string[]> {
  const trace = join(dataDir, `modules-${args.join('')}-${entry.replaceAll('/', '_')}.txt`);
  const child = spawn(process.execPath, ['--import', TRACE_HOOK, entry, ...args], {
    env: {
      ...process.env, GW_DATABASE_URL: '', GW_REDIS_URL: '', GW_CONFIG: '', GW_TEST_MODULE_TRACE: trace, PORT: '0',
      GW_DATA_DIR: dataDir, GW_BOOTSTRAP_API_KEY: TEST_API_KEY, GW_LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let then = whileListening;
  child.stderr!.on('data', (d) => (output += d));
  child.stdout!.on('data', (d) => {
    output += d;
    if (then && output.includes('listening on')) {
      void then().finally(() => child.kill('SIGTERM'));
      then = undefined;
    }
  });
  const code = await new Promise<number | null>((done) => child.once('close', done));
  expect(code, output).to.equal(0);
  return (await readFile(trace, 'utf8')).split('\n').filter((line) => line !== '');
}
