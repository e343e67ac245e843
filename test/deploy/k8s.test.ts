/**
 * deploy/k8s renders with `kubectl kustomize` (skipped when kubectl is missing) and its manifests
 * agree with the gateway: env names it reads, its port, its health routes (asked of a real gateway),
 * the Secret keys the Deployment references, the gateway file in the ConfigMap.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGatewayFile, resolveComposition } from '../../host/compose.js';
import { startGateway } from '../helpers/gateway.js';
import { DEFAULT_PORT, gatewayEnvNames, HEALTH_PATH, LIVENESS_PATH, parseYamlDocuments, repoRoot } from './gateway-facts.js';

interface Manifest {
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [field: string]: any;
}

describe('deploy/k8s (kustomize)', function () {
  this.timeout(30_000);
  let manifests: Manifest[];
  const one = (kind: string): Manifest => {
    const found = manifests.filter((m) => m.kind === kind);
    expect(found, kind).to.have.length(1);
    return found[0]!;
  };
  const container = () => one('Deployment')['spec'].template.spec.containers[0];
  const envOf = () => new Map<string, any>(container().env.map((e: any) => [e.name, e]));

  before(function () {
    const rendered = spawnSync('kubectl', ['kustomize', join(repoRoot, 'deploy/k8s')], { encoding: 'utf8' });
    if (rendered.error && (rendered.error as NodeJS.ErrnoException).code === 'ENOENT') {
      console.log('      (kubectl is not installed: the manifests are not rendered)');
      return this.skip();
    }
    expect(rendered.status, rendered.stderr).to.equal(0);
    manifests = parseYamlDocuments(rendered.stdout).filter(Boolean) as Manifest[];
  });

  it('renders a Deployment, Service, PodDisruptionBudget, HorizontalPodAutoscaler, ConfigMap and Secret', () => {
    expect(manifests.map((m) => m.kind).sort()).to.deep.equal(
      ['ConfigMap', 'Deployment', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'Secret', 'Service'],
    );
  });

  it('names only environment variables the gateway reads, and the ones a fleet needs', () => {
    const read = gatewayEnvNames();
    const names = [...envOf().keys()];
    for (const name of names) expect(read, `${name} is not read by the gateway`).to.include(name);
    expect(names).to.include.members(['HOST', 'PORT', 'GW_CONFIG', 'GW_DATA_DIR', 'GW_REDIS_URL', 'GW_DATABASE_URL', 'GW_SECRET_KEY', 'GW_BOOTSTRAP_API_KEY']);
    expect(envOf().get('HOST').value).to.equal('0.0.0.0');
  });

  it('listens, probes and serves on the gateway\'s port', () => {
    const ports = container().ports;
    expect(ports).to.deep.equal([{ name: 'http', containerPort: DEFAULT_PORT }]);
    expect(envOf().get('PORT').value).to.equal(String(DEFAULT_PORT));
    for (const probe of ['readinessProbe', 'livenessProbe', 'startupProbe']) expect(container()[probe].httpGet.port, probe).to.equal('http');
    const service = one('Service');
    expect(service['spec'].ports.map((p: any) => p.targetPort)).to.deep.equal(['http']);
  });

  it('probes readiness on /health and liveness on /health/live, which a real gateway answers', async () => {
    expect(container().readinessProbe.httpGet.path).to.equal(HEALTH_PATH);
    expect(container().livenessProbe.httpGet.path).to.equal(LIVENESS_PATH);
    expect(container().startupProbe.httpGet.path).to.equal(LIVENESS_PATH);
    const gw = await startGateway();
    try {
      for (const probe of ['readinessProbe', 'livenessProbe']) {
        const res = await fetch(gw.url + container()[probe].httpGet.path);
        expect(res.status, probe).to.equal(200);
        expect(((await res.json()) as { status: string }).status).to.equal('ok');
      }
    } finally {
      await gw.stop();
    }
  });

  it('takes every secret the Deployment references from keys the Secret has', () => {
    const secret = one('Secret');
    const refs = container().env.filter((e: any) => e.valueFrom?.secretKeyRef).map((e: any) => e.valueFrom.secretKeyRef);
    expect(refs.map((r: any) => r.key)).to.include.members(['GW_SECRET_KEY', 'GW_BOOTSTRAP_API_KEY', 'GW_DATABASE_URL', 'GW_REDIS_URL']);
    for (const ref of refs) {
      expect(ref.name).to.equal(secret.metadata.name);
      expect(secret['stringData']).to.have.property(ref.key);
    }
  });

  it('mounts the ConfigMap so that GW_CONFIG names its gateway file, and the file loads', async () => {
    const configMap = one('ConfigMap');
    const volume = one('Deployment')['spec'].template.spec.volumes.find((v: any) => v.configMap?.name === configMap.metadata.name);
    expect(volume, 'a volume of the generated ConfigMap').to.not.equal(undefined);
    const mount = container().volumeMounts.find((m: any) => m.name === volume.name);
    const file = envOf().get('GW_CONFIG').value as string;
    expect(file.startsWith(`${mount.mountPath}/`)).to.equal(true);
    const key = file.slice(mount.mountPath.length + 1);
    const text = configMap['data'][key] as string;
    expect(text, `ConfigMap key ${key}`).to.be.a('string');
    const dir = await mkdtemp(join(tmpdir(), 'gw-k8s-'));
    try {
      await writeFile(join(dir, key), text);
      const { composition, baseDir } = await readGatewayFile(join(dir, key));
      expect((await resolveComposition(composition, baseDir)).length).to.be.greaterThan(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('gives pods longer to stop than the gateway drains, and keeps replicas up through disruptions', () => {
    const spec = one('Deployment')['spec'];
    const drainMs = Number(envOf().get('GW_SHUTDOWN_TIMEOUT_MS')?.value ?? 30_000);
    const preStopS = Number(container().lifecycle.preStop.exec.command.at(-1));
    expect(spec.template.spec.terminationGracePeriodSeconds * 1000).to.be.greaterThan(drainMs + preStopS * 1000);
    expect(spec.template.spec.securityContext.runAsNonRoot).to.equal(true);
    const labels = spec.selector.matchLabels;
    expect(one('Service')['spec'].selector).to.deep.equal(labels);
    expect(one('PodDisruptionBudget')['spec'].selector.matchLabels).to.deep.equal(labels);
    const hpa = one('HorizontalPodAutoscaler')['spec'];
    expect(hpa.scaleTargetRef).to.deep.include({ kind: 'Deployment', name: one('Deployment').metadata.name });
    expect(hpa.minReplicas).to.be.at.least(2);
  });
});
