/**
 * The Dockerfile agrees with the gateway: port, listen address, env names, the entry point, and a
 * HEALTHCHECK whose command is run here for real against gateways (ok, degraded, absent). There is
 * no Docker engine on this machine, so the image itself is not built.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startGateway } from '../helpers/gateway.js';
import { BUNDLED_MAIN } from '../helpers/main-process.js';
import { freePort } from '../plugins/stores/redis/helpers.js';
import { DEFAULT_PORT, gatewayEnvNames, HEALTH_PATH, readRepoFile, repoRoot } from './gateway-facts.js';

interface Instruction {
  op: string;
  args: string;
}

/** Instructions per stage, continuation lines joined, comments dropped. */
function stages(text: string): { name: string; instructions: Instruction[] }[] {
  const lines = text.replace(/\\\n/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const result: { name: string; instructions: Instruction[] }[] = [];
  for (const line of lines) {
    const [, op, args] = /^(\S+)\s+(.*)$/.exec(line)!;
    if (op!.toUpperCase() === 'FROM') result.push({ name: / AS (\S+)$/i.exec(args!)?.[1] ?? '', instructions: [] });
    result.at(-1)?.instructions.push({ op: op!.toUpperCase(), args: args! });
  }
  return result;
}

const argsOf = (instructions: Instruction[], op: string) => instructions.filter((i) => i.op === op).map((i) => i.args);

/** ENV a=b c=d (the form used here) as pairs. */
const envPairs = (instructions: Instruction[]) => Object.fromEntries(
  argsOf(instructions, 'ENV').flatMap((a) => a.split(/\s+/)).map((pair) => pair.split('=') as [string, string]),
);

describe('Dockerfile', function () {
  this.timeout(30_000);
  const all = stages(readRepoFile('Dockerfile'));
  const runtime = all.at(-1)!;
  const healthcheck = JSON.parse(argsOf(runtime.instructions, 'HEALTHCHECK')[0]!.replace(/^.*?CMD\s+/, '')) as string[];

  it('builds in stages: dev dependencies and the build apart from a runtime with production dependencies only', () => {
    expect(all.map((s) => s.name)).to.deep.equal(['deps', 'build', 'runtime']);
    const deps = all.find((s) => s.name === 'deps')!;
    expect(argsOf(deps.instructions, 'RUN').join('\n')).to.contain('npm ci --omit=dev');
    const build = all.find((s) => s.name === 'build')!;
    expect(argsOf(build.instructions, 'RUN')).to.include.members(['npm ci', 'npm run build']);
    expect(argsOf(runtime.instructions, 'COPY')).to.include.members(['--from=deps /app/node_modules ./node_modules', '--from=build /app/dist ./dist']);
    // The runtime needs package.json for "type": "module".
    expect(argsOf(runtime.instructions, 'COPY')).to.include('package.json ./');
  });

  it('copies every source folder the build compiles', () => {
    const copied = argsOf(all.find((s) => s.name === 'build')!.instructions, 'COPY').map((a) => a.split(/\s+/)[0]);
    expect(copied).to.include.members(['core', 'host', 'plugins', 'providers', 'guardrails', 'tsconfig.json']);
  });

  it('runs as a non-root user, on all interfaces, exposing the gateway port', () => {
    const user = argsOf(runtime.instructions, 'USER');
    expect(user).to.have.length(1);
    expect(user[0]).to.not.match(/^(root|0)(:|$)/);
    expect(argsOf(runtime.instructions, 'EXPOSE')).to.deep.equal([String(DEFAULT_PORT)]);
    const env = envPairs(runtime.instructions);
    expect(env).to.include({ HOST: '0.0.0.0', PORT: String(DEFAULT_PORT) });
    const read = gatewayEnvNames();
    for (const name of Object.keys(env).filter((n) => n !== 'NODE_ENV')) expect(read, `${name} is not read by the gateway`).to.include(name);
  });

  it('starts the built entry point with node itself (signals reach the gateway)', () => {
    const cmd = JSON.parse(argsOf(runtime.instructions, 'CMD')[0]!) as string[];
    expect(cmd[0]).to.equal('node');
    expect(cmd.at(-1)).to.equal(BUNDLED_MAIN);
    expect(existsSync(join(repoRoot, cmd.at(-1)!))).to.equal(true);
  });

  it('checks health with node (slim images have no curl) on the gateway\'s health path', () => {
    expect(healthcheck[0]).to.equal('node');
    expect(healthcheck.join(' ')).to.contain(HEALTH_PATH).and.not.match(/\bcurl\b|\bwget\b/);
  });

  describe('its HEALTHCHECK command, run against real gateways', () => {
    const runCheck = async (port: number) => {
      const child = spawn(process.execPath, healthcheck.slice(1), { env: { PORT: String(port) }, stdio: 'ignore' });
      const [code] = await once(child, 'exit');
      return code as number;
    };

    it('passes against a healthy gateway', async () => {
      const gw = await startGateway();
      try {
        expect(await runCheck(Number(new URL(gw.url).port))).to.equal(0);
      } finally {
        await gw.stop();
      }
    });

    it('fails against a degraded gateway and where nothing listens', async () => {
      const gw = await startGateway({ plugins: [{ use: 'store.redis', options: { readyWaitMs: 0 } }], settings: { redisUrl: `redis://127.0.0.1:${await freePort()}` } });
      try {
        expect(await runCheck(Number(new URL(gw.url).port))).to.equal(1);
      } finally {
        await gw.stop();
      }
      expect(await runCheck(await freePort())).to.equal(1);
    });
  });
});

describe('.dockerignore', () => {
  it('keeps the local install, build output, data and git history out of the build context', () => {
    const ignored = readRepoFile('.dockerignore').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    expect(ignored).to.include.members(['node_modules', 'dist', 'data', '.git', '.bench']);
  });
});
