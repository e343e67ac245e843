/**
 * One request in full (GET /v1/logs/:id): a side panel that takes the focus when it opens and
 * gives it back to its row when it closes (Close or Escape).
 */
import { useEffect, useRef } from 'preact/hooks';
import { useConsole } from '../../context';
import { ErrorNote, JsonBlock, Loading } from '../../parts/notes';
import { timeText } from '../../parts/list-page';
import { useLoad } from '../../parts/use-load';
import type { HookResult, LogDetailItem } from './types';

export function LogDetail(props: { id: string; onClose(): void }) {
  const { api } = useConsole();
  const loaded = useLoad(() => api.get<LogDetailItem>(`/v1/logs/${encodeURIComponent(props.id)}`), [api, props.id]);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [props.id]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && props.onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [props.onClose]);
  const log = loaded.value;
  return (
    <div class="detail-panel" role="dialog" aria-labelledby="log-detail-title">
      <div class="detail-head">
        <h2 id="log-detail-title" tabIndex={-1} ref={heading}>Request details</h2>
        <button type="button" class="secondary" onClick={props.onClose}>Close</button>
      </div>
      <ErrorNote error={loaded.error} />
      <Loading when={loaded.loading && !log} />
      {log && <Facts log={log} />}
    </div>
  );
}

function Facts({ log }: { log: LogDetailItem }) {
  const usage = log.usage;
  return (
    <>
      <dl class="facts" aria-label="Request facts">
        <dt>Status</dt><dd class={`status-${String(log.status)[0]}`}>{log.status}{log.error_code ? ` (${log.error_code})` : ''}</dd>
        {log.reason && <><dt>Reason</dt><dd>{log.reason}</dd></>}
        <dt>Time</dt><dd><time dateTime={log.created_at}>{timeText(log.created_at)}</time></dd>
        <dt>Endpoint</dt><dd>{log.method} {log.path}</dd>
        <dt>Provider</dt><dd>{log.provider ?? '—'}{log.ai_service && log.ai_service !== log.provider ? ` (${log.ai_service})` : ''}</dd>
        <dt>Model</dt><dd>{log.model ?? '—'}</dd>
        <dt>Route</dt><dd>{log.target ?? 'none (no config)'}</dd>
        <dt>Retries</dt><dd>{log.retry_count}</dd>
        <dt>Cache status</dt><dd>{log.cache_status ?? 'not cached'}</dd>
        <dt>Latency</dt><dd>{ms(log.latency_ms)} total{log.upstream_latency_ms !== null ? `, ${ms(log.upstream_latency_ms)} upstream` : ''}</dd>
        <dt>Stream</dt><dd>{log.stream ? 'yes' : 'no'}</dd>
        <dt>Usage</dt>
        <dd>{usage.prompt_tokens ?? '?'} prompt + {usage.completion_tokens ?? '?'} completion = {usage.total_tokens ?? '?'} tokens</dd>
        <dt>Cost</dt><dd>{log.cost === null ? 'unknown' : log.cost.toLocaleString(undefined, { maximumSignificantDigits: 4 })}</dd>
        <dt>Trace id</dt><dd class="mono">{log.trace_id ?? '—'}</dd>
        <dt>API key id</dt><dd class="mono">{log.api_key_id ?? '—'}</dd>
        {log.workspace_id && <><dt>Workspace</dt><dd>{log.workspace_id}</dd></>}
        {log.config_id && <><dt>Config</dt><dd>{log.config_id}</dd></>}
        {log.prompt_id && <><dt>Prompt</dt><dd>{log.prompt_id}</dd></>}
        <dt>Log id</dt><dd class="mono">{log.id}</dd>
      </dl>
      <h3>Hook results</h3>
      <Hooks hooks={log.hook_results} />
      {log.metadata && <><h3>Metadata</h3><JsonBlock label="Metadata" value={log.metadata} /></>}
      <h3>Request body</h3>
      {log.request.body === null ? <p class="muted">Not recorded.</p> : <JsonBlock label="Request body" value={log.request.body} />}
      <h3>Response body</h3>
      {log.response.body === null ? <p class="muted">Not recorded.</p> : <JsonBlock label="Response body" value={log.response.body} />}
    </>
  );
}

function Hooks({ hooks }: { hooks: HookResult[] | null }) {
  if (!hooks || hooks.length === 0) return <p class="muted">None ran.</p>;
  return (
    <table aria-label="Hook results">
      <thead><tr><th scope="col">Hook</th><th scope="col">Type</th><th scope="col">Verdict</th><th scope="col">Denied</th><th scope="col">Checks</th><th scope="col">Time</th></tr></thead>
      <tbody>
        {hooks.map((h, i) => (
          <tr key={`${h.id ?? ''}-${i}`}>
            <td>{h.id ?? '—'}{h.in_response ? ' (response)' : ''}</td>
            <td>{h.type ?? '—'}</td>
            <td>{h.verdict ? 'passed' : 'failed'}</td>
            <td>{h.deny ? 'yes' : 'no'}</td>
            <td>{(h.checks ?? []).map((c) => `${c.id}: ${c.verdict ? 'passed' : 'failed'}`).join(', ') || '—'}</td>
            <td>{h.execution_time === undefined ? '—' : ms(h.execution_time)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ms(value: number): string {
  return `${Math.round(value)} ms`;
}
