/**
 * The route config object of spec §2.1, as the kernel sees it after validation.
 * The schema assembled from the plugins' manifests (keys.ts) is the source of truth for the rules;
 * this type names the fields the kernel and the built-in families read. Provider fields, and the
 * keys of user plugins, are reachable by index.
 */

export interface StrategyConfig {
  mode: string;
  conditions?: { query: Record<string, unknown>; then: string }[];
  default?: string;
  on_status_codes?: number[];
}

export interface HookFeedback {
  value?: number;
  weight?: number;
  metadata?: Record<string, unknown>;
}

export interface HookOutcomeConfig {
  feedback?: HookFeedback;
  deny?: boolean;
}

export interface CheckConfig {
  id: string;
  parameters: Record<string, unknown>;
}

export interface HookConfig {
  id: string;
  type?: string;
  async?: boolean;
  deny?: boolean;
  on_fail?: HookOutcomeConfig;
  on_success?: HookOutcomeConfig;
  checks?: CheckConfig[];
  [checkId: string]: unknown;
}

export type GuardrailRef = string | HookConfig;

export interface ConfigNode {
  strategy?: StrategyConfig;
  targets?: ConfigNode[];
  provider?: string;
  api_key?: string;
  virtual_key?: string;
  custom_host?: string;
  name?: string;
  override_params?: Record<string, unknown>;
  default_params?: Record<string, unknown>;
  drop_params?: string[];
  prompt_id?: string;
  request_timeout?: number;
  cache?: { mode: string; max_age?: number };
  retry?: { attempts: number; on_status_codes?: number[]; use_retry_after_headers?: boolean };
  cb_config?: { failure_threshold: number; cooldown_interval: number; failure_status_codes?: number[] };
  weight?: number;
  on_status_codes?: number[];
  passthrough?: boolean;
  forward_headers?: string[];
  before_request_hooks?: HookConfig[];
  after_request_hooks?: HookConfig[];
  input_guardrails?: GuardrailRef[];
  output_guardrails?: GuardrailRef[];
  [field: string]: unknown;
}

/** Which keys a node keeps to itself and which are bound to its provider (assembled at boot: ConfigKeys). */
export interface KeyRoles {
  isNodeOnly(key: string): boolean;
  isCredential(key: string): boolean;
}
