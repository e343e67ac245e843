/**
 * The row a create or an update writes: every field checked (400 naming the field and the rule),
 * workspaces resolved, the manager's secret settings sealed (bound to the reference id) and only
 * their names kept beside them. An update keeps stored secrets it is sent back as masks.
 */
import { Errors, type Principal, type SecretBox } from '../../../core/index.js';
import type { Directory } from '../../admin/workspaces/contract.js';
import { MANAGERS, type ManagerId } from './managers/index.js';
import type { ManagerConfig } from './managers/manager.js';
import { MASK, sealContext, type SecretReference, type SecretReferenceRow } from './record.js';

export interface RowRules {
  box: SecretBox;
  envPrefix: string;
  /** The workspaces plugin's directory, when it is loaded: allowed workspaces must exist. */
  directory(): Directory | undefined;
}

/** Checks manager_config against its manager; throws a 400 naming the first offending field. */
export function checkManagerConfig(manager: ManagerId, config: Record<string, unknown>): void {
  const m = MANAGERS[manager];
  if (!m.config.check(config)) {
    const issue = m.config.issues(config, 1)[0] ?? { path: '', rule: 'is invalid' };
    throw Errors.invalidBody(issue.path ? `manager_config.${issue.path}` : 'manager_config', `${issue.rule} (manager ${manager})`);
  }
  const problem = m.configProblem?.(config);
  if (problem) throw Errors.invalidBody(`manager_config.${problem.field}`, problem.rule);
}

export function checkPath(manager: ManagerId, path: string, envPrefix: string): void {
  const problem = MANAGERS[manager].pathProblem(path, { envPrefix });
  if (problem) throw Errors.invalidBody('secret_path', `${problem} (manager ${manager})`);
}

/**
 * Where a reference may be used: `allow_all_workspaces` or a list of `allowed_workspaces`, never
 * both (default: every workspace). A workspace key's references are limited to its workspace.
 * Workspace slugs become ids when the directory is there.
 */
export async function workspacesFor(
  principal: Principal, allowAll: boolean | undefined, allowed: string[] | undefined, rules: RowRules,
): Promise<Pick<SecretReferenceRow, 'allow_all_workspaces' | 'allowed_workspaces'>> {
  if (allowAll === true && allowed !== undefined && allowed.length > 0) {
    throw Errors.invalidBody('allowed_workspaces', 'cannot be combined with allow_all_workspaces: true (give one or the other)');
  }
  if (allowAll === false && (allowed === undefined || allowed.length === 0)) {
    throw Errors.invalidBody('allowed_workspaces', 'must name at least one workspace when allow_all_workspaces is false');
  }
  const own = principal.workspaceId;
  if (own !== undefined) {
    if (allowAll === true || (allowed !== undefined && (allowed.length !== 1 || allowed[0] !== own))) {
      throw Errors.forbidden(`a workspace key can only make secret references for its own workspace (${own})`);
    }
    return { allow_all_workspaces: 0, allowed_workspaces: JSON.stringify([own]) };
  }
  if (allowed === undefined || allowed.length === 0) return { allow_all_workspaces: 1, allowed_workspaces: '[]' };
  const ids: string[] = [];
  const directory = rules.directory();
  const org = principal.organisationId ?? 'default';
  for (const [i, ref] of allowed.entries()) {
    const ws = directory ? await directory.workspace(ref, org) : { id: ref, organisation_id: org };
    if (!ws || ws.organisation_id !== org) throw Errors.invalidBody(`allowed_workspaces.${i}`, `unknown workspace "${ref}" (not in this organisation)`);
    if (!ids.includes(ws.id)) ids.push(ws.id);
  }
  return { allow_all_workspaces: 0, allowed_workspaces: JSON.stringify(ids) };
}

/** The manager_config columns: secret fields sealed (bound to the reference id), the rest plain. */
export function sealedConfig(box: SecretBox, id: string, manager: ManagerId, config: ManagerConfig) {
  const secretFields = new Set(MANAGERS[manager].secretFields);
  const plain: Record<string, unknown> = {};
  const secret: Record<string, unknown> = {};
  for (const field in config) (secretFields.has(field) ? secret : plain)[field] = config[field];
  const names = Object.keys(secret);
  return {
    manager_config: JSON.stringify(plain),
    sealed_config: names.length > 0 ? box.encrypt(JSON.stringify(secret), sealContext(id)) : null,
    secret_fields: JSON.stringify(names),
  };
}

/** The sealed secret settings, opened; a gateway with another secret key cannot (500 saying why). */
export function openSecrets(box: SecretBox, r: SecretReference): Record<string, unknown> {
  if (r.sealed === undefined) return {};
  try {
    return JSON.parse(box.decrypt(r.sealed, sealContext(r.id))) as Record<string, unknown>;
  } catch {
    throw Errors.misconfigured(
      `secret reference "${r.slug}" cannot be opened: its manager_config was sealed with another secret key `
      + '(GW_SECRET_KEY or the data folder\'s secret.key); restore that key or send manager_config again',
      'secret_reference_unusable',
    );
  }
}

/**
 * manager_config on update: the given object, where a secret field sent back as its mask (a GET →
 * edit → PUT round trip) keeps the stored value.
 */
export function configKept(box: SecretBox, current: SecretReference, given: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...given };
  let opened: Record<string, unknown> | undefined;
  for (const field of current.secretFields) {
    if (out[field] === MASK) out[field] = (opened ??= openSecrets(box, current))[field];
  }
  return out;
}
