/**
 * docker-compose.yml and deploy/nginx.conf agree with the gateway and with each other: three
 * gateways on the gateway's port with env names it reads, Redis and PostgreSQL reached by service
 * name with the credentials PostgreSQL is given, nginx balancing over the three. (No Docker engine
 * here: the file is checked, not run.)
 */
import { expect } from 'chai';
import { DEFAULT_PORT, gatewayEnvNames, loadsAsGatewayFile, parseYaml, readRepoFile } from './gateway-facts.js';

interface Service {
  image?: string;
  build?: string;
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test: string[] };
}

const GATEWAYS = ['gw1', 'gw2', 'gw3'];

describe('docker-compose.yml', () => {
  const compose = parseYaml(readRepoFile('docker-compose.yml')) as { services: Record<string, Service> };
  const services = compose.services;
  const nginx = readRepoFile('deploy/nginx.conf');

  it('runs three gateways, Redis, PostgreSQL and a load balancer', () => {
    expect(Object.keys(services).sort()).to.deep.equal([...GATEWAYS, 'lb', 'postgres', 'redis'].sort());
    for (const name of GATEWAYS) expect(services[name]!.build, name).to.equal('.');
  });

  it('gives each gateway only env names it reads, listening on all interfaces on its port', () => {
    const read = gatewayEnvNames();
    for (const name of GATEWAYS) {
      const env = services[name]!.environment!;
      for (const key of Object.keys(env)) expect(read, `${name}: ${key} is not read by the gateway`).to.include(key);
      expect(env).to.include({ HOST: '0.0.0.0', PORT: String(DEFAULT_PORT) });
      expect(env).to.have.keys('HOST', 'PORT', 'GW_CONFIG', 'GW_DATABASE_URL', 'GW_REDIS_URL', 'GW_SECRET_KEY', 'GW_BOOTSTRAP_API_KEY', 'GW_LOG_LEVEL');
    }
  });

  it('shares one secret key and bootstrap key, required from the operator rather than defaulted', () => {
    for (const name of GATEWAYS) {
      const env = services[name]!.environment!;
      expect(env['GW_SECRET_KEY']).to.match(/^\$\{GW_SECRET_KEY:\?.+\}$/);
      expect(env['GW_BOOTSTRAP_API_KEY']).to.match(/^\$\{GW_BOOTSTRAP_API_KEY:\?.+\}$/);
    }
  });

  it('points the gateways at the Redis and PostgreSQL services, with the database PostgreSQL creates', () => {
    const pg = services['postgres']!.environment!;
    for (const name of GATEWAYS) {
      const env = services[name]!.environment!;
      expect(new URL(env['GW_REDIS_URL']!).host).to.equal('redis:6379');
      const db = new URL(env['GW_DATABASE_URL']!.replace('${POSTGRES_PASSWORD:-gw-local-only}', 'x'));
      expect(db.protocol).to.equal('postgres:');
      expect(db.host).to.equal('postgres:5432');
      expect(db.username).to.equal(pg['POSTGRES_USER']);
      expect(db.pathname).to.equal(`/${pg['POSTGRES_DB']}`);
      expect(env['GW_DATABASE_URL']).to.contain(pg['POSTGRES_PASSWORD']);
      expect(services[name]!.depends_on).to.deep.equal({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
    }
    expect(services['postgres']!.healthcheck!.test).to.include('pg_isready');
    expect(services['redis']!.healthcheck!.test).to.include('redis-cli');
  });

  it('mounts a gateway file where GW_CONFIG says, and that file loads', async () => {
    for (const name of GATEWAYS) {
      const file = services[name]!.environment!['GW_CONFIG']!;
      const mount = services[name]!.volumes!.map((v) => v.split(':')).find(([, target]) => target === file);
      expect(mount, `${name}: a volume mounted at ${file}`).to.not.equal(undefined);
      await loadsAsGatewayFile(mount![0]!.replace(/^\.\//, ''));
    }
  });

  it('publishes the gateway port on the load balancer, which balances over the three gateways', () => {
    const lb = services['lb']!;
    expect(lb.ports).to.deep.equal([`${DEFAULT_PORT}:${DEFAULT_PORT}`]);
    expect(lb.volumes).to.include('./deploy/nginx.conf:/etc/nginx/nginx.conf:ro');
    const upstream = /upstream gw \{([^}]*)\}/.exec(nginx)?.[1] ?? '';
    const servers = [...upstream.matchAll(/^\s*server\s+(\S+?)(?:\s|;)/gm)].map((m) => m[1]);
    expect(servers).to.deep.equal(GATEWAYS.map((g) => `${g}:${DEFAULT_PORT}`));
    expect(nginx).to.match(new RegExp(`^\\s*listen ${DEFAULT_PORT};`, 'm'));
    expect(nginx).to.match(/^\s*proxy_pass http:\/\/gw;/m);
  });

  it('has nginx pass streams and uploads through unbuffered, without a body limit below the gateway\'s', () => {
    for (const directive of ['proxy_buffering off;', 'proxy_request_buffering off;', 'client_max_body_size 0;', 'proxy_http_version 1.1;']) {
      expect(nginx).to.contain(directive);
    }
  });
});
