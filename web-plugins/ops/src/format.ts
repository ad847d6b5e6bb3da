import { useCallback, useEffect, useRef, useState } from 'react';
import type { TFunction } from 'i18next';

export const REFRESH_MS = 10_000;

type T = TFunction | ((key: string, options?: Record<string, unknown>) => string);

/** A date and time in the interface language and the browser's time zone; "—" for none. */
export function formatDate(value: string | null | undefined, locale: string, withDate = true): string {
  if (!value) return '—';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return new Intl.DateTimeFormat(locale, {
    ...(withDate ? { year: 'numeric', month: '2-digit', day: '2-digit' } : {}),
    hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false,
  }).format(d);
}

const UNITS: [string, number][] = [['d', 86_400_000], ['h', 3_600_000], ['min', 60_000], ['s', 1000]];

/** A duration as people say it: "850 ms", "4.2 s", "5 min 3 s", "2 h 10 min", "3 d 4 h" (two units at most). */
export function humanDuration(ms: number | null | undefined, t: T): string {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return '—';
  const units = (key: string, count: number | string) => (t as (k: string, o: Record<string, unknown>) => string)(`web.units.${key}`, { count });
  if (ms < 1000) return units('ms', Math.round(ms));
  if (ms < 10_000) return units('s', (Math.round(ms / 100) / 10).toString());
  const parts: string[] = [];
  let rest = Math.round(ms / 1000) * 1000;
  for (const [key, size] of UNITS) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) parts.push(units(key, n));
    if (parts.length > 0 && (n === 0 || parts.length === 2)) break;
  }
  return parts.join(' ') || units('s', 0);
}

/** Loads now and every `REFRESH_MS` while the page is visible; answers the data, the error and a reload. */
export function usePolling<D>(load: () => Promise<D>): { data: D | undefined; error: string; updatedAt: Date | undefined; reload: () => Promise<void>; loading: boolean } {
  const [data, setData] = useState<D>();
  const [error, setError] = useState('');
  const [updatedAt, setUpdatedAt] = useState<Date>();
  const [loading, setLoading] = useState(false);
  const loader = useRef(load);
  loader.current = load;
  const alive = useRef(true);

  const reload = useCallback(async () => {
    setLoading(true);
    try {
      const next = await loader.current();
      if (!alive.current) return;
      setData(next);
      setError('');
      setUpdatedAt(new Date());
    } catch (e) {
      if (alive.current) setError(e instanceof Error ? e.message : String(e));
    } finally {
      if (alive.current) setLoading(false);
    }
  }, []);

  useEffect(() => {
    alive.current = true;
    reload().catch(() => undefined);
    const timer = setInterval(() => {
      if (!document.hidden) reload().catch(() => undefined);
    }, REFRESH_MS);
    return () => {
      alive.current = false;
      clearInterval(timer);
    };
  }, [reload]);

  return { data, error, updatedAt, reload, loading };
}
