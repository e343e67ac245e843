/** core's public surface: what plugins, providers, guardrails and embedders import. */
export * from './errors.js';
export * from './payload.js';
export * from './types.js';
export { abortSourceOf, type AbortSource } from './abort-source.js';
export { attemptAbort } from './attempt.js';
export { Stage, WrapStage, type Completion, type Hooks, type PluginHooks, type RawConfig } from './hooks.js';
export type { GatewayDescription } from './describe.js';
export * from './plugin.js';
export * from './registry.js';
export type { HealthCheck, Registries } from './registries.js';
export * from './router.js';
export {
  compile, deepFreeze, joinPath, Nullable, StringEnum, Type, Value, type Issue, type Static, type TSchema, type Validator,
} from './schema.js';
export type { GatewaySettings } from './settings.js';
export {
  guardEventStream, guardSseStream, parseSse, prefetchFirst, sseData, SSE_HEADERS, StreamCutError, StreamErrorEvent, toSse, type EventStreamEnding, type LastEvent, type SseEvent,
} from './sse.js';
export * from './unified.js';
export { rankedResults, rerankDocumentTexts, type RerankAnswer, type RerankDocument, type RerankResult } from './rerank.js';
export * from './guardrails.js';
export * from './cache.js';
export * from './di.js';
export * from './stores.js';
export * from './services.js';
export * from './service-registry.js';
export * from './usage-meter.js';
export * from './call-subject.js';
export * from './request-values.js';
export * from './keys.js';
export * from './files.js';
export { encodeMultipart, FormFile, isFormBody, type EncodedForm } from './form-data.js';
export * from './state.js';
export * from './changes.js';
export * from './record-catalogue.js';
export * from './record-table.js';
export { WorkLeases, workLeasesIn } from './leases.js';
export * from './periodic-work.js';
export * from './outcome.js';
export * from './authz.js';
export * from './dispatch.js';
export { firstJsonString, lastJsonObject } from './json-scan.js';
export { DEFAULT_JSON_MAX_DEPTH, jsonDepthRule, nestsDeeperThan } from './json-depth.js';
export {
  json, listPage, noStoreJson, nowIso, objectBody, pageOf, paginate, parseBody, queryInt, queryList, queryVersion,
  STRICT_PAGING, validated, type Page,
} from './admin.js';
export { BoundedInteger, DAY_MS, HOUR_MS, isDateInRange, isoOrNull, MAX_COUNT, MAX_TIMER_MS, MAX_TTL_SECONDS } from './bounds.js';
export * from './limit-checks.js';
export * from './ids.js';
export * from './text.js';
export { compilePattern, patternPerParams, type Pattern, type PatternFlags, type PatternMatch } from './patterns.js';
export { classifyAddress, familyOf, isPrivateAddress, unbracket } from './addresses.js';
export { HostRules } from './host-rules.js';
export { OutboundPolicy, type OutboundRules } from './outbound-policy.js';
export { policyLookup } from './outbound-lookup.js';
export { lazy, type Lazy, type LazyOptions } from './lazy.js';
export * from './provider-errors.js';
export * from './provider-api.js';
export { accessLine, createLogger, rateLimitedWarning, type AccessFields, type Logger } from './logger.js';
export { Kernel, failed } from './kernel.js';
export type { Runtime } from './boot.js';
export { PluginLoadError } from './loader.js';
export type * from './config/types.js';
export { validateConfig } from './config/validate.js';
export { childSettings, firstLeaf, inherit } from './config/inherit.js';
export { ConfigKeys, type ConfigContribution, type HeaderField } from './config/keys.js';
export { fieldKindOf, type ConfigFieldKind } from './config/fields.js';
export { beneathConfig, headerConfigFields, HeaderConfigs } from './config/headers.js';
export { BoundedMap } from './bounded-map.js';
export { asBuffer } from './bytes.js';
export { systemClock, wallNow, type Clock } from './clock.js';
export { sha256Hex } from './digest.js';
export { signedAwsPost, type AwsCredentials, type AwsSignInput } from './cloud-auth/aws-sigv4.js';
export {
  ASSERTION_LIFETIME_S, assertionClaims, CLOUD_PLATFORM_SCOPE, DEFAULT_TOKEN_URI, signAssertion, type AssertionClaims, type ServiceAccount,
} from './cloud-auth/google-service-account.js';
export { ServiceAccountTokens, type TokenCacheOptions } from './cloud-auth/google-tokens.js';
