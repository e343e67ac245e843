/** The log rows, newest first: each row focusable, opening its detail on click or Enter. */
import { timeText } from '../../parts/list-page';
import type { LogItem } from './types';

export function LogTable(props: { logs: LogItem[]; selected?: string; onOpen(id: string, row: HTMLElement): void }) {
  if (props.logs.length === 0) return <p class="muted">No request matches.</p>;
  return (
    <table aria-label="Requests">
      <thead>
        <tr><th scope="col">Time</th><th scope="col">Status</th><th scope="col">Provider</th><th scope="col">Model</th><th scope="col">Latency</th><th scope="col">Trace id</th></tr>
      </thead>
      <tbody>
        {props.logs.map((log) => (
          <tr
            key={log.id}
            tabIndex={0}
            aria-current={log.id === props.selected ? "true" : undefined}
            onClick={(e) => props.onOpen(log.id, e.currentTarget)}
            onKeyDown={(e) => {
              if (e.key !== 'Enter' && e.key !== ' ') return;
              e.preventDefault();
              props.onOpen(log.id, e.currentTarget);
            }}
          >
            <td><time dateTime={log.created_at}>{timeText(log.created_at)}</time></td>
            <td class={`status-${String(log.status)[0]}`}>{log.status}</td>
            <td>{log.provider ?? '—'}</td>
            <td>{log.model ?? '—'}</td>
            <td>{Math.round(log.latency_ms)} ms</td>
            <td class="mono">{log.trace_id ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
