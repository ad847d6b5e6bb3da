/**
 * A panel's first calls, started as soon as its definition is known: each view's first getData, all in
 * parallel, while React is still laying the panel out. A view takes its answer once when it asks with the same
 * body; anything else (a later page, a filter, a table's own page size) calls again. The answer carries the
 * view's definition too: the definition is asked on its own only when the data call fails. An answer starts
 * the chunks its view draws with (g2plot, the map) at once, while the other calls are still under way.
 */
import { api, type Access } from '../api';
import { preloadFor } from '../charts/loaders';
import { tabContent } from '../model/layout';
import type { ChartView, PanelComponent } from '../model/types';
import { dataBody, dataKey, FIRST_QUERY } from './dataBody';
import type { PanelState } from './store';

/** The views drawn when the panel opens: those on it and those on each tabs widget's first tab (the
 * other tabs stay lazy). */
export function firstShownViews(components: PanelComponent[]): string[] {
  const out: string[] = [];
  const walk = (list: PanelComponent[]) => {
    for (const c of list) {
      if (!c || typeof c !== 'object') continue;
      if (c.type === 'view' && c.propValue?.viewId) out.push(String(c.propValue.viewId));
      const first = c.type === 'de-tabs' ? c.options?.tabList?.[0] : undefined;
      if (first) walk(tabContent(first.content));
    }
  };
  walk(components);
  return Array.from(new Set(out));
}

const quiet = <T,>(p: Promise<T>): Promise<T> => {
  p.catch(() => undefined);
  return p;
};

const answered = (r: ChartView | undefined): boolean => r?.success === true && !!r.data;

export class ViewPrefetch {
  private defs = new Map<string, Promise<ChartView>>();
  private data = new Map<string, { key: string; answer: Promise<ChartView> }>();
  private started: Promise<unknown>[] = [];

  constructor(private panelId: string, private access: Access | undefined) {}

  start(viewIds: string[], state: PanelState): void {
    const fresh = viewIds.filter((id) => !this.data.has(id) && !this.defs.has(id));
    for (const viewId of fresh) {
      const body = dataBody(viewId, state, [], FIRST_QUERY, this.access);
      const answer = quiet(api.data(viewId, this.panelId, body, this.access));
      answer.then((r) => answered(r) && preloadFor(r), () => undefined);
      this.data.set(viewId, { key: dataKey(body), answer });
      this.defs.set(viewId, quiet(answer.then((r) => (answered(r) ? r : api.view(viewId, this.panelId, this.access)), () => api.view(viewId, this.panelId, this.access))));
      this.started.push(answer);
    }
  }

  /** Settles once every data call started with the panel is answered (or failed). */
  settled(): Promise<unknown> {
    return Promise.allSettled(this.started);
  }

  /** The view's definition: the answer started with the panel, or when that failed a call of its own (once);
   * else a new call. */
  view(viewId: string): Promise<ChartView> {
    const started = this.defs.get(viewId);
    this.defs.delete(viewId);
    return started || api.view(viewId, this.panelId, this.access);
  }

  /** The answer started with the panel when `key` is the body it was asked with (once), else undefined. */
  takeData(viewId: string, key: string): Promise<ChartView> | undefined {
    const started = this.data.get(viewId);
    this.data.delete(viewId);
    return started && started.key === key ? started.answer : undefined;
  }
}
