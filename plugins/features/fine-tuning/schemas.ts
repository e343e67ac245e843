/**
 * Shapes of spec §2.2 (fine-tuning job, checkpoint), §4.8–4.11 (bodies, lists) and §8 (integrations
 * <= 5, metadata limits), compiled once. Requests are checked before anything is sent; provider
 * answers are checked before they reach the client (a misfit is a 502 naming the field).
 * Unknown fields pass in both directions: providers add fields over time.
 */
import { compile, joinPath, Nullable, StringEnum, Type, type Issue } from '../../../core/index.js';

const Str = Type.String();
const NonEmpty = Type.String({ minLength: 1, errorMessage: 'must be a non-empty string' });
const Int = Type.Integer();
const Opt = Type.Optional;

export const JOB_STATUSES = ['validating_files', 'queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;

/** An experiment-tracker entry (`{type: "wandb", wandb: {project, ...}}`); the entry's key is checked by `integrationIssues`. */
const Integration = Type.Object({ type: NonEmpty });
const TrackerEntry = compile(Type.Object({
  project: NonEmpty,
  name: Opt(Nullable(Str)),
  entity: Opt(Nullable(Str)),
  tags: Opt(Type.Array(Str)),
}));
const integrations = compile(Type.Array(Integration, { maxItems: 5 }));
/** `integrations` is an array or null; checked by `integrationIssues` so a too-long array is reported as such. */
const IntegrationsField = Opt(Type.Unknown());

export const MAX_METADATA_PAIRS = 16;
export const MAX_METADATA_KEY = 64;
export const MAX_METADATA_VALUE = 512;

// ---- request bodies ----

const CreateJobSchema = Type.Object({
  model: NonEmpty,
  training_file: NonEmpty,
  // Required by spec §4.8; 64 characters is OpenAI's limit.
  suffix: Type.String({ minLength: 1, maxLength: 64 }),
  // Inner fields: spec "not shown"; OpenAI's `type` is supervised, dpo or reinforcement.
  method: Type.Object({ type: Opt(NonEmpty) }),
  validation_file: Opt(Nullable(NonEmpty)),
  integrations: IntegrationsField,
  seed: Opt(Nullable(Int)),
  hyperparameters: Opt(Type.Object({})),
  metadata: Opt(Nullable(Type.Object({}))),
});

const createJob = compile(CreateJobSchema);

/** Issues of a create-job body (empty when valid); the first names the field. */
export function createJobIssues(body: unknown): Issue[] {
  if (!createJob.check(body)) return createJob.issues(body, 1);
  const job = body as { integrations?: unknown; metadata?: Record<string, unknown> | null };
  return [...integrationIssues(job.integrations, 'integrations'), ...metadataIssues(job.metadata, 'metadata')].slice(0, 1);
}

function integrationIssues(items: unknown, path: string): Issue[] {
  if (items === undefined || items === null) return [];
  if (!integrations.check(items)) return integrations.issues(items, 1).map((issue) => ({ path: joinPath(path, issue.path).replace(/\.$/, ''), rule: issue.rule }));
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as Record<string, unknown>;
    const type = item['type'] as string;
    const at = joinPath(joinPath(path, i), type);
    const entry = item[type];
    if (entry === undefined) return [{ path: at, rule: `is required (the "${type}" tracker entry)` }];
    if (!TrackerEntry.check(entry)) return TrackerEntry.issues(entry, 1).map((issue) => ({ path: joinPath(at, issue.path).replace(/\.$/, ''), rule: issue.rule }));
  }
  return [];
}

/** §8: at most 16 pairs, keys up to 64 characters, string values up to 512. */
export function metadataIssues(metadata: Record<string, unknown> | null | undefined, path: string): Issue[] {
  if (!metadata) return [];
  const keys = Object.keys(metadata);
  if (keys.length > MAX_METADATA_PAIRS) return [{ path, rule: `must have at most ${MAX_METADATA_PAIRS} key-value pairs` }];
  for (const key of keys) {
    const value = metadata[key];
    if (key.length > MAX_METADATA_KEY) return [{ path: joinPath(path, key), rule: `key must be at most ${MAX_METADATA_KEY} characters` }];
    if (typeof value !== 'string') return [{ path: joinPath(path, key), rule: 'must be a string' }];
    if (value.length > MAX_METADATA_VALUE) return [{ path: joinPath(path, key), rule: `must be at most ${MAX_METADATA_VALUE} characters` }];
  }
  return [];
}

// ---- provider answers ----

const Job = Type.Object({
  id: Str,
  object: Type.Literal('fine_tuning.job'),
  created_at: Int,
  error: Nullable(Type.Object({ code: Nullable(Str), message: Str, param: Nullable(Str) })),
  fine_tuned_model: Nullable(Str),
  finished_at: Nullable(Int),
  hyperparameters: Type.Object({ n_epochs: Type.Union([Type.Literal('auto'), Int], { errorMessage: 'must be "auto" or an integer' }) }),
  model: Str,
  organization_id: Str,
  result_files: Type.Array(Str),
  status: StringEnum([...JOB_STATUSES]),
  trained_tokens: Nullable(Int),
  training_file: Str,
  validation_file: Nullable(Str),
  seed: Int,
  integrations: IntegrationsField,
  estimated_finish: Opt(Nullable(Int)),
});

const Metric = Opt(Nullable(Type.Number()));
const Checkpoint = Type.Object({
  id: Str,
  created_at: Int,
  fine_tuned_model_checkpoint: Str,
  step_number: Int,
  fine_tuning_job_id: Str,
  metrics: Type.Object({
    step: Metric,
    train_loss: Metric,
    train_mean_token_accuracy: Metric,
    valid_loss: Metric,
    valid_mean_token_accuracy: Metric,
    full_valid_loss: Metric,
    full_valid_mean_token_accuracy: Metric,
  }),
});

const job = compile(Job);
const jobList = compile(Type.Object({ object: Type.Literal('list'), data: Type.Array(Job), has_more: Type.Boolean() }));
const checkpointList = compile(Type.Object({
  data: Type.Array(Checkpoint),
  has_more: Type.Boolean(),
  first_id: Nullable(Str),
  last_id: Nullable(Str),
}));

export type AnswerShape = 'job' | 'job list' | 'checkpoint list';

/** The first way a provider answer misses its §2.2 shape, or undefined when it fits. */
export function answerIssue(shape: AnswerShape, value: unknown): Issue | undefined {
  if (shape === 'job') return job.check(value) ? jobIntegrations(value, '') : job.issues(value, 1)[0];
  if (shape === 'job list') {
    if (!jobList.check(value)) return jobList.issues(value, 1)[0];
    const data = (value as { data: unknown[] }).data;
    for (let i = 0; i < data.length; i++) {
      const issue = jobIntegrations(data[i], `data.${i}`);
      if (issue) return issue;
    }
    return undefined;
  }
  return checkpointList.check(value) ? undefined : checkpointList.issues(value, 1)[0];
}

function jobIntegrations(value: unknown, path: string): Issue | undefined {
  const items = (value as { integrations?: unknown }).integrations;
  return integrationIssues(items, joinPath(path, 'integrations').replace(/^\./, ''))[0];
}
