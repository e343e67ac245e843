/** Calls `tick` every `ms` while the tab is visible (a hidden tab asks the gateway nothing). */
import { useEffect, useRef } from 'preact/hooks';

export function useWhileVisible(tick: () => void, ms: number): void {
  const latest = useRef(tick);
  latest.current = tick;
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') latest.current();
    }, ms);
    const shown = () => document.visibilityState === 'visible' && latest.current();
    document.addEventListener('visibilitychange', shown);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', shown);
    };
  }, [ms]);
}
