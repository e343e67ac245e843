/** Previous / next over a list answer's pages (`current_page` counts from 0). */
export function Pager(props: { page: number; size: number; total?: number; label: string; onPage(page: number): void }) {
  const total = props.total ?? 0;
  const last = Math.max(0, Math.ceil(total / props.size) - 1);
  if (last === 0 && props.page === 0) return null;
  return (
    <nav class="pager" aria-label={props.label}>
      <button type="button" class="secondary" disabled={props.page === 0} onClick={() => props.onPage(props.page - 1)}>Previous</button>
      <span>Page {props.page + 1} of {last + 1}</span>
      <button type="button" class="secondary" disabled={props.page >= last} onClick={() => props.onPage(props.page + 1)}>Next</button>
    </nav>
  );
}

/** "1 key", "3 keys": a list's size for its caption. */
export function countText(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
