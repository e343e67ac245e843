/**
 * Loads something from the gateway for a page: the value, the gateway's refusal as a message, and
 * a way to load again (after a change, or on a timer for live pages).
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Loaded<T> {
  value?: T;
  error?: string;
  loading: boolean;
  reload(): void;
}

export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[], refreshMs?: number): Loaded<T> {
  const [state, setState] = useState<{ value?: T; error?: string; loading: boolean }>({ loading: true });
  const generation = useRef(0);
  const run = useCallback(() => {
    const mine = ++generation.current;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (value) => mine === generation.current && setState({ value, loading: false }),
      (e: Error) => mine === generation.current && setState((s) => ({ value: s.value, error: e.message, loading: false })),
    );
  }, deps);
  useEffect(() => {
    run();
    if (!refreshMs) return undefined;
    const timer = setInterval(run, refreshMs);
    return () => clearInterval(timer);
  }, [run, refreshMs]);
  return { ...state, reload: run };
}
