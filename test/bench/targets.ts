/**
 * Starts what one scenario needs (upstream, bare proxies or a second gateway, the gateway) and
 * describes the request targets the bench compares: one or two baselines and the subject.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findScenario, type Scenario } from './scenarios.js';
import { freePort, startServer, stop, type ServerProcess } from './processes.js';

export interface Target {
  label: string;
  /** http://127.0.0.1:PORT */
  origin: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  stream: boolean;
  /** The log of the process serving this target, when it runs with `--trace-gc-nvp` (`--gc`). */
  gcLog?: string;
  /** The process serving this target (with its children: cluster workers), for its CPU time. */
  pid: number;
  /** It reports the median of its stages at GET /bench/stages (a `stages` scenario). */
  stages?: boolean;
}

/**
 * What a `proxy` baseline runs: the bare proxy forwarding with undici (the reference) or node:http
 * (the older one), or the floor gateway (floor-gateway.ts), without or with its request-log rows.
 */
export type Reference = 'undici' | 'http' | 'floor' | 'floor-logged';
export const REFERENCES: readonly Reference[] = ['undici', 'http', 'floor', 'floor-logged'];

export interface Stack {
  /** What the subject is compared with: one gateway scenario, or one bare proxy per client asked for. */
  baselines: Target[];
  subject: Target;
  /** The upstream's pid, for its CPU time per request of each side's run. */
  upstreamPid: number;
  processes: ServerProcess[];
  stop(): Promise<void>;
}

export interface StackOptions {
  /** Compiled bench scripts (upstream.js, bare-proxy.js). */
  benchDir: string;
  /** The gateway entry point, normally dist/host/main.js. */
  gatewayMain: string;
  /** Where logs and gateway data dirs go. */
  workDir: string;
  /** CPUs when pinned (`--pin`): the upstream's, and the server under test's (gateway or bare proxy). */
  pin?: { upstream: number; server: number };
  /** Servers under test run with `--trace-gc-nvp`, so that runs can report their GC work (`--gc`). */
  gc?: boolean;
  /** Added to every gateway's environment, over the scenario's (`--gateway-env KEY=VALUE`). */
  gatewayEnv?: Record<string, string>;
  /** Processes of the bare proxy (`--proxy-processes N`): 2 to compare with GW_WORKERS=2. */
  proxyProcesses?: number;
  /** The references a `proxy` baseline runs, in the order of each round (`--baseline`); default undici. */
  references?: readonly Reference[];
  /** Another build's gateway entry point (`--compare`): measured as one more baseline, the scenario's own request. */
  compareMain?: string;
}

/** `{{upstream}}` in header values and the body stands for the upstream URL (only known at run time). */
const withUpstream = (text: string, upstreamUrl: string) => text.replaceAll('{{upstream}}', upstreamUrl);

function requestOf(s: Scenario, upstreamUrl: string) {
  const extra = Object.fromEntries(Object.entries(s.extraHeaders ?? {}).map(([k, v]) => [k, withUpstream(v, upstreamUrl)]));
  return {
    path: s.path,
    stream: s.stream === true,
    body: withUpstream(JSON.stringify(s.stream ? { ...s.body, stream: true } : s.body), upstreamUrl),
    headers: {
      'content-type': 'application/json',
      authorization: 'Bearer sk-bench',
      'x-gw-api-key': 'bench-key',
      'x-gw-provider': 'openai',
      'x-gw-custom-host': `${upstreamUrl}/v1`,
      ...extra,
    },
  };
}

/** `stages`: a floor reference also marks its stages (GET /bench/stages), for a scenario that reports them. */
function startReference(reference: Reference, upstreamUrl: string, dir: string, o: StackOptions, gcArgs: string[], stages: boolean): Promise<ServerProcess> {
  if (reference === 'undici' || reference === 'http') {
    const args = ['--upstream', upstreamUrl, '--client', reference, '--processes', String(o.proxyProcesses ?? 1)];
    return startServer(`bare-${reference}`, join(o.benchDir, 'bare-proxy.js'), args, {}, join(dir, `proxy-${reference}.log`), undefined, o.pin?.server, gcArgs);
  }
  const args = ['--key', 'bench-key'];
  if (reference === 'floor-logged') args.push('--log', mkdtempSync(join(dir, 'floor-')));
  if (stages) args.push('--stages');
  return startServer(reference, join(o.benchDir, 'floor-gateway.js'), args, {}, join(dir, `${reference}.log`), undefined, o.pin?.server, gcArgs);
}

export async function startStack(s: Scenario, o: StackOptions): Promise<Stack> {
  const processes: ServerProcess[] = [];
  const stopAllOf = () => Promise.all(processes.map((p) => stop(p.proc))).then(() => undefined);
  const dir = mkdtempSync(join(o.workDir, `${s.name}-`));
  try {
    const gcArgs = o.gc ? ['--trace-gc-nvp'] : [];
    const gcLog = (p: ServerProcess) => (o.gc ? { gcLog: p.logFile } : {});
    const upstreamArgs = ['--chunk-delay', String(s.upstreamChunkDelayMs ?? 0), '--events', String(s.upstreamEvents ?? 6)];
    const upstream = await startServer('upstream', join(o.benchDir, 'upstream.js'), upstreamArgs, {}, join(dir, 'upstream.log'), undefined, o.pin?.upstream);
    processes.push(upstream);

    // One gateway per distinct environment and composition: a baseline scenario with the same ones shares it.
    // `compareMain` (--compare) always gets a process of its own, even when it names this very build.
    const gateways = new Map<string, ServerProcess>();
    const gatewayFor = async (scenario: Scenario, compareMain?: string) => {
      const main = compareMain ?? o.gatewayMain;
      let env = { ...scenario.gatewayEnv, ...o.gatewayEnv };
      const key = JSON.stringify([compareMain ?? null, env, scenario.gatewayComposition ?? null]);
      const known = gateways.get(key);
      if (known) return known;
      const port = await freePort();
      const dataDir = join(dir, `gw-data-${gateways.size}`);
      mkdirSync(dataDir);
      if (scenario.gatewayComposition) {
        // dist/ is two levels above the gateway entry point (dist/host/main.js).
        const dist = dirname(dirname(main));
        const file = join(dir, `gateway-${gateways.size}.json`);
        writeFileSync(file, JSON.stringify(scenario.gatewayComposition).replaceAll('{{dist}}', dist));
        env = { ...env, GW_CONFIG: file };
      }
      const gw = await startServer(
        compareMain === undefined ? 'gateway' : 'compared gateway',
        main,
        [],
        { PORT: String(port), HOST: '127.0.0.1', GW_DATA_DIR: dataDir, GW_BOOTSTRAP_API_KEY: 'bench-key', GW_LOG_LEVEL: 'info', ...env },
        join(dir, `gateway-${gateways.size}.log`),
        undefined,
        o.pin?.server,
        gcArgs,
      );
      processes.push(gw);
      gateways.set(key, gw);
      return gw;
    };

    // A gateway measured with a scenario's request; the scenario's setup runs once on it first, and its headers join the request.
    const gatewayTarget = async (scenario: Scenario, label: string, compareMain?: string): Promise<Target> => {
      const p = await gatewayFor(scenario, compareMain);
      const target: Target = { label, origin: p.url, pid: p.proc.pid!, stages: scenario.stages === true, ...requestOf(scenario, upstream.url), ...gcLog(p) };
      const headers = await scenario.setup?.({ gatewayUrl: p.url, upstreamUrl: upstream.url, apiKey: 'bench-key' });
      if (headers) Object.assign(target.headers, headers);
      return target;
    };

    const subject = await gatewayTarget(s, 'gateway');
    const baselines: Target[] = [];
    if (s.baseline === 'proxy') {
      for (const reference of o.references ?? ['undici']) {
        const stages = s.stages === true && reference.startsWith('floor');
        const proxy = await startReference(reference, upstream.url, dir, o, gcArgs, stages);
        processes.push(proxy);
        baselines.push({ label: proxy.name, origin: proxy.url, pid: proxy.proc.pid!, stages, ...requestOf(s, upstream.url), ...gcLog(proxy) });
      }
    } else {
      const b = findScenario(s.baseline);
      baselines.push(await gatewayTarget(b, `gateway:${b.name}`));
    }
    // --compare: the same scenario on the other build, its last baseline: rounds (and sequential requests) alternate with it.
    if (o.compareMain) baselines.push(await gatewayTarget(s, 'compared', o.compareMain));
    return { baselines, subject, upstreamPid: upstream.proc.pid!, processes, stop: stopAllOf };
  } catch (err) {
    await stopAllOf();
    throw err;
  }
}

/** One request through a target before measuring: a wrong setup fails loudly, not as a fast 4xx. */
export async function probe(t: Target): Promise<void> {
  const res = await fetch(t.origin + t.path, { method: 'POST', headers: t.headers, body: t.body });
  const text = await res.text();
  const ok = res.status === 200 && (t.stream ? text.includes('data: [DONE]') : /"choices"/.test(text));
  if (!ok) throw new Error(`probe of ${t.label} (${t.origin}${t.path}) answered ${res.status}: ${text.slice(0, 500)}`);
}
