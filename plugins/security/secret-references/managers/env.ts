/**
 * The gateway's own environment: `secret_path` names a variable, which must start with the
 * plugin's `envPrefix` (GW_SECRET_REF_ by default) so that no reference can read GW_SECRET_KEY or
 * other settings. Kept for references that used to be plain `GW_SECRET_REF_*` names.
 */
import { compile, Type } from '../../../../core/index.js';
import { SecretFetchError, type SecretManager } from './manager.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isEnvName(name: string, prefix: string): boolean {
  return name.startsWith(prefix) && NAME.test(name);
}

export const envManager: SecretManager = {
  id: 'env',
  config: compile(Type.Object({}, { additionalProperties: false })),
  secretFields: [],
  pathProblem: (path, { envPrefix }) => (isEnvName(path, envPrefix) ? undefined : `must name an environment variable starting with ${envPrefix}`),
  async fetch(_config, path, ctx) {
    const value = ctx.env[path];
    if (value === undefined) throw new SecretFetchError(`environment variable ${path} is not set`);
    return { kind: 'text', value };
  },
};
