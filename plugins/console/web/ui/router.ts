/**
 * Pages are addressed by the URL's fragment (`#/logs?status=500`): the gateway serves one page,
 * deep links and the back button work, and no path under /console needs a route of its own.
 */
import { useEffect, useState } from 'preact/hooks';

export interface Location {
  page: string;
  params: URLSearchParams;
}

export function currentLocation(): Location {
  const hash = window.location.hash.replace(/^#\/?/, '');
  const [page = '', query = ''] = hash.split('?', 2);
  return { page, params: new URLSearchParams(query) };
}

export function useLocation(): Location {
  const [location, setLocation] = useState(currentLocation);
  useEffect(() => {
    const changed = () => setLocation(currentLocation());
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return location;
}

export function href(page: string, params?: Record<string, string>): string {
  const query = params ? new URLSearchParams(params).toString() : '';
  return `#/${page}${query ? `?${query}` : ''}`;
}

export function navigate(page: string, params?: Record<string, string>): void {
  window.location.hash = href(page, params);
}
