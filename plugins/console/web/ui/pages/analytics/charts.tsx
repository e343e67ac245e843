/** The overview's charts: which figures are drawn together, and each one's summary line. */
import { useMemo } from 'preact/hooks';
import { TimeChart, type ChartProps } from './chart';
import { count, millis, money, percent, plural } from './format';
import type { Overview } from './types';

const COLORS = { blue: '#2456d3', red: '#b42318', green: '#067647', amber: '#b54708', grey: '#5b6475' };

function chartsOf(o: Overview): ChartProps[] {
  const times = o.data_points.map((p) => Date.parse(p.timestamp));
  const pick = (f: (p: Overview['data_points'][number]) => number | null) => o.data_points.map(f);
  const s = o.summary;
  return [
    {
      id: 'chart-requests', title: 'Requests and errors', times, format: count,
      lines: [{ label: 'Requests', values: pick((p) => p.requests), color: COLORS.blue }, { label: 'Errors', values: pick((p) => p.errors), color: COLORS.red }],
      summary: `${plural(s.requests, 'request')}, ${plural(s.errors, 'error')} (${percent(s.error_rate)})`,
    },
    {
      id: 'chart-latency', title: 'Latency', times, format: millis,
      lines: [
        { label: 'p50', values: pick((p) => p.p50_latency), color: COLORS.green },
        { label: 'p95', values: pick((p) => p.p95_latency), color: COLORS.amber },
        { label: 'p99', values: pick((p) => p.p99_latency), color: COLORS.red },
      ],
      summary: `p50 ${millis(s.p50_latency)}, p95 ${millis(s.p95_latency)}, p99 ${millis(s.p99_latency)}`,
    },
    {
      id: 'chart-tokens', title: 'Tokens', times, format: count,
      lines: [{ label: 'Prompt', values: pick((p) => p.prompt_tokens), color: COLORS.blue }, { label: 'Completion', values: pick((p) => p.completion_tokens), color: COLORS.green }],
      summary: `${plural(s.total_tokens, 'token')} (${count(s.prompt_tokens)} prompt, ${count(s.completion_tokens)} completion)`,
    },
    {
      id: 'chart-cost', title: 'Cost', times, format: money,
      lines: [{ label: 'Cost', values: pick((p) => p.cost), color: COLORS.amber }],
      summary: s.cost === null ? 'No known cost in this range' : `${money(s.cost)} in total`,
    },
    {
      id: 'chart-cache', title: 'Cache hit rate', times, format: percent, range: [0, 1],
      lines: [{ label: 'Hit rate', values: pick((p) => p.cache_hit_rate), color: COLORS.grey }],
      summary: `${percent(s.cache_hit_rate)} (${count(s.cache_hits)} of ${plural(s.requests, 'request')})`,
    },
  ];
}

export function OverviewCharts({ overview }: { overview: Overview }) {
  const charts = useMemo(() => chartsOf(overview), [overview]);
  return <div class="charts">{charts.map((c) => <TimeChart key={c.id} {...c} />)}</div>;
}
