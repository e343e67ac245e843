/**
 * Logs: the gateway's requests, newest first, live (asked again every second while the tab is
 * visible, keeping the filters, the page, the focus and the scroll), filtered by the fragment's
 * parameters, with a request's detail beside the list.
 */
import { useCallback, useRef, useState } from 'preact/hooks';
import { useConsole } from '../../context';
import type { ListAnswer } from '../../parts/list-page';
import { ErrorNote, Loading } from '../../parts/notes';
import { rangeQuery } from '../../parts/time-range';
import { useLoad } from '../../parts/use-load';
import { navigate, useLocation } from '../../router';
import { LogDetail } from './detail';
import { LogFilters, TEXT_FILTERS } from './filters';
import { useWhileVisible } from './live';
import { LogTable } from './table';
import type { LogItem } from './types';

const PAGE_SIZE = 50;
const LIVE_MS = 1_000;

/** The /v1/logs query of the fragment's parameters (relative ranges computed now). */
function logsQuery(params: URLSearchParams): Record<string, string | undefined> {
  const query: Record<string, string | undefined> = { page_size: String(PAGE_SIZE), current_page: params.get('current_page') ?? undefined };
  for (const f of TEXT_FILTERS) query[f.name] = params.get(f.name) ?? undefined;
  return { ...query, ...rangeQuery(params, '', Date.now()) };
}

export function Logs() {
  const { api } = useConsole();
  const { params } = useLocation();
  const key = params.toString();
  const loaded = useLoad(() => api.get<ListAnswer<LogItem>>('/v1/logs', logsQuery(params)), [api, key]);
  useWhileVisible(loaded.reload, LIVE_MS);
  const [selected, setSelected] = useState<string>();
  const opener = useRef<HTMLElement | null>(null);
  const open = (id: string, row: HTMLElement) => {
    opener.current = row;
    setSelected(id);
  };
  const close = useCallback(() => {
    setSelected(undefined);
    if (opener.current?.isConnected) opener.current.focus();
  }, []);
  const go = (next: Record<string, string>) => navigate('logs', next);

  const list = loaded.value;
  const page = Number(params.get('current_page') ?? 0) || 0;
  const pages = list ? Math.max(1, Math.ceil((list.total_count ?? 0) / PAGE_SIZE)) : 1;
  const toPage = (n: number) => {
    const next = Object.fromEntries(params);
    if (n > 0) next['current_page'] = String(n);
    else delete next['current_page'];
    go(next);
  };

  return (
    <section aria-labelledby="logs-title" class={selected ? 'with-detail' : undefined}>
      <h1 id="logs-title">Logs</h1>
      <LogFilters params={params} onApply={go} />
      <ErrorNote error={loaded.error} />
      <Loading when={loaded.loading && !list} />
      {list && (
        <>
          <p class="muted" role="status" aria-live="off">
            {list.total_count ?? list.data.length} requests · live, updated every second
          </p>
          <LogTable logs={list.data} selected={selected} onOpen={open} />
          <nav class="pager" aria-label="Pages of requests">
            <button type="button" class="secondary" disabled={page <= 0} onClick={() => toPage(page - 1)}>Previous page</button>
            <span>Page {page + 1} of {pages}</span>
            <button type="button" class="secondary" disabled={page + 1 >= pages} onClick={() => toPage(page + 1)}>Next page</button>
          </nav>
        </>
      )}
      {selected && <LogDetail id={selected} onClose={close} />}
    </section>
  );
}
