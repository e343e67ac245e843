/** A config's versions: the gateway keeps every one, read with GET /v1/configs/:id?version=N. */
import { useMemo, useState } from 'preact/hooks';
import { useConsole } from '../../context';
import { Field, fieldId } from '../../parts/field';
import { timeText } from '../../parts/list-page';
import { ErrorNote, JsonBlock, Loading } from '../../parts/notes';
import { useLoad } from '../../parts/use-load';
import type { StoredConfig } from './records';

export function Versions(props: { config: StoredConfig }) {
  const { api } = useConsole();
  const id = useMemo(fieldId, []);
  const latest = props.config.latest_version ?? props.config.version;
  const [version, setVersion] = useState(latest);
  const shown = useLoad(
    () => api.get<StoredConfig>(`/v1/configs/${encodeURIComponent(props.config.id)}`, { version }),
    [api, props.config.id, version, props.config.last_updated_at],
  );
  const numbers = Array.from({ length: latest }, (_, i) => latest - i);
  return (
    <section aria-labelledby="versions-title">
      <h2 id="versions-title">Versions</h2>
      <div class="toolbar">
        <Field id={id} label="Version">
          <select id={id} value={String(version)} onChange={(e) => setVersion(Number(e.currentTarget.value))}>
            {numbers.map((n) => <option key={n} value={String(n)}>{n === latest ? `${n} (latest)` : String(n)}</option>)}
          </select>
        </Field>
      </div>
      <p class="muted">{latest} version{latest === 1 ? '' : 's'}; the latest was saved {timeText(props.config.last_updated_at)}.</p>
      <ErrorNote error={shown.error} />
      <Loading when={shown.loading && !shown.value} />
      {shown.value?.config && <JsonBlock label={`Config version ${shown.value.version}`} value={shown.value.config} />}
    </section>
  );
}
