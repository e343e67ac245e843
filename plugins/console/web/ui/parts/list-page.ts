/** The gateway's list answers: `{ object: 'list', total_count, current_page?, page_size?, data }`. */
export interface ListAnswer<T> {
  object: 'list';
  total_count?: number;
  current_page?: number;
  page_size?: number;
  data: T[];
}

/** ISO or epoch-ms time as the person's local date and time. */
export function timeText(value: string | number | undefined | null): string {
  if (value === undefined || value === null || value === '') return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString();
}
