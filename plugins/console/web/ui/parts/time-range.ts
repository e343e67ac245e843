/**
 * A time range as the console keeps it in the URL's fragment: `range` is a span back from now
 * (`1h` ...), computed again at each load so live pages move with the clock, or `custom` with
 * `from`/`to` as ISO 8601 (so a link means the same instant in every time zone).
 */
export interface RangeChoice {
  value: string;
  label: string;
  ms?: number;
}

const MINUTE = 60_000;
export const RANGE_CHOICES: readonly RangeChoice[] = [
  { value: '15m', label: 'Last 15 minutes', ms: 15 * MINUTE },
  { value: '1h', label: 'Last hour', ms: 60 * MINUTE },
  { value: '1d', label: 'Last day', ms: 1440 * MINUTE },
  { value: '7d', label: 'Last week', ms: 7 * 1440 * MINUTE },
  { value: 'custom', label: 'Custom (from, to)' },
];

/** The gateway's range filters for a fragment's `range`, `from` and `to` (none for an unknown or empty range). */
export function rangeQuery(params: URLSearchParams, fallback: string, now: number): Record<string, string | undefined> {
  const range = params.get('range') ?? fallback;
  if (range === 'custom') return { time_of_generation_min: params.get('from') || undefined, time_of_generation_max: params.get('to') || undefined };
  const span = RANGE_CHOICES.find((c) => c.value === range)?.ms;
  if (!span) return {};
  return { time_of_generation_min: new Date(now - span).toISOString(), time_of_generation_max: new Date(now).toISOString() };
}

/** ISO 8601 → the `YYYY-MM-DDTHH:mm` of a datetime-local input, in the person's time zone. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const local = new Date(date.getTime() - date.getTimezoneOffset() * MINUTE);
  return local.toISOString().slice(0, 16);
}

/** A datetime-local input's value → ISO 8601 ('' stays ''). */
export function fromLocalInput(value: string): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}
