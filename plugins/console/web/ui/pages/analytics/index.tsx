/**
 * Analytics: the request logs' figures over a chosen range, as charts (GET
 * /v1/analytics/graphs/overview) and per group (GET /v1/analytics/groups/:groupBy). The range and
 * the grouping are kept in the URL's fragment.
 */
import { useState } from 'preact/hooks';
import { useConsole } from '../../context';
import { ErrorNote, Loading } from '../../parts/notes';
import { timeText } from '../../parts/list-page';
import { rangeQuery } from '../../parts/time-range';
import { useLoad } from '../../parts/use-load';
import { navigate, useLocation } from '../../router';
import { OverviewCharts } from './charts';
import { count, millis, money, percent } from './format';
import { GroupsTable } from './groups';
import { RangeControl } from './range';
import type { Overview } from './types';

const DEFAULT_RANGE = '1d';

export function Analytics() {
  const { api } = useConsole();
  const { params } = useLocation();
  const key = params.toString();
  // A relative range is computed at each load; `stamp` moves on Refresh so both parts load again together.
  const [stamp, setStamp] = useState(0);
  const [range, setRange] = useState<Record<string, string | undefined>>({});
  const loaded = useLoad(() => {
    const query = rangeQuery(params, DEFAULT_RANGE, Date.now());
    setRange(query);
    return api.get<Overview>('/v1/analytics/graphs/overview', query);
  }, [api, key, stamp]);
  const go = (next: Record<string, string>) => navigate('analytics', { ...Object.fromEntries(params), ...next });
  const change = (next: Record<string, string>) => {
    const kept = Object.fromEntries(params);
    delete kept['from'];
    delete kept['to'];
    navigate('analytics', { ...kept, ...next });
  };
  const overview = loaded.value;
  const s = overview?.summary;
  return (
    <section aria-labelledby="analytics-title">
      <h1 id="analytics-title">Analytics</h1>
      <RangeControl range={params.get('range') ?? DEFAULT_RANGE} from={params.get('from')} to={params.get('to')} onChange={change} onRefresh={() => setStamp(stamp + 1)} />
      <ErrorNote error={loaded.error} />
      <Loading when={loaded.loading && !overview} />
      {overview && s && (
        <>
          <p class="muted">
            From {timeText(overview.time_of_generation_min)} to {timeText(overview.time_of_generation_max)}, by {overview.bucket} buckets.
          </p>
          <dl class="tiles" aria-label="Over the range">
            <div><dt>Requests</dt><dd>{count(s.requests)}</dd></div>
            <div><dt>Errors</dt><dd>{count(s.errors)}</dd></div>
            <div><dt>p95 latency</dt><dd>{millis(s.p95_latency)}</dd></div>
            <div><dt>Tokens</dt><dd>{count(s.total_tokens)}</dd></div>
            <div><dt>Cost</dt><dd>{money(s.cost)}</dd></div>
            <div><dt>Cache hit rate</dt><dd>{percent(s.cache_hit_rate)}</dd></div>
          </dl>
          <OverviewCharts overview={overview} />
        </>
      )}
      {overview && <GroupsTable groupBy={params.get('group') ?? 'provider'} range={range} onGroupBy={(group) => go({ group })} />}
    </section>
  );
}

