/** The secret managers by id (`manager` of a reference). */
import { awsSecretsManager } from './aws-secrets-manager.js';
import { envManager } from './env.js';
import { gcpSecretManager } from './gcp-secret-manager.js';
import type { SecretManager } from './manager.js';
import { vault } from './vault.js';

export const MANAGER_IDS = ['vault', 'aws_secrets_manager', 'gcp_secret_manager', 'env'] as const;
export type ManagerId = (typeof MANAGER_IDS)[number];

export const MANAGERS: Readonly<Record<ManagerId, SecretManager>> = Object.freeze({
  vault,
  aws_secrets_manager: awsSecretsManager,
  gcp_secret_manager: gcpSecretManager,
  env: envManager,
});
