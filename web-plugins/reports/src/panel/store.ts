/**
 * The state of one open panel: widget values, the filters applied to views, linkage, drill and the jump's
 * track filters. A small external store so a widget change re-renders only what reads it.
 */
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { Access } from '../api';
import { filtersForView, initialValue, emptyValue, widgetFilters, widgetKind } from '../model/filters';
import type { JumpMap, LinkageInfo } from '../model/jump';
import type { DrillItem, FilterItem, PanelComponent, PanelStyle } from '../model/types';
import { ViewPrefetch } from './prefetch';

export interface PanelState {
  values: Record<string, unknown>;
  /** Filters applied per widget (the search button or auto-trigger moves values here). */
  applied: Record<string, FilterItem[]>;
  /** Linkage filters per target view, with the view that set them. */
  linkage: Record<string, { source: string; filters: FilterItem[] }>;
  drill: Record<string, DrillItem[]>;
  /** Filters a jump brought (spec 4: the track filter). */
  track: FilterItem[];
  linkageInfo: LinkageInfo;
  jumps: JumpMap;
  /** Bumped to make every view query again (search with unchanged values). */
  epoch: number;
}

export interface PanelEnv {
  panelId: string;
  panelName: string;
  style: PanelStyle;
  components: PanelComponent[];
  widgets: PanelComponent[];
  viewIds: string[];
  access?: Access;
  /** Signed in (export needs a session, or a shared link's token in `access`). */
  signedIn: boolean;
  privileges: string;
  /** Whether a search button exists: widgets then wait for it unless they auto-trigger. */
  hasSearchButton: boolean;
}

type Listener = () => void;

export class PanelStore {
  state: PanelState;
  env: PanelEnv;
  /** The views' first calls, started with the panel (see `ViewPrefetch`). */
  readonly calls: ViewPrefetch;
  private listeners = new Set<Listener>();

  constructor(env: PanelEnv, track: FilterItem[] = []) {
    this.env = env;
    this.calls = new ViewPrefetch(env.panelId, env.access);
    const values: Record<string, unknown> = {};
    const applied: Record<string, FilterItem[]> = {};
    for (const w of env.widgets) {
      values[w.id] = initialValue(w);
      applied[w.id] = widgetFilters(w, values[w.id]);
    }
    this.state = { values, applied, linkage: {}, drill: {}, track, linkageInfo: {}, jumps: {}, epoch: 0 };
  }

  subscribe = (l: Listener): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  getState = (): PanelState => this.state;

  set(patch: Partial<PanelState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of Array.from(this.listeners)) l();
  }

  widget(id: string): PanelComponent | undefined {
    return this.env.widgets.find((w) => w.id === id);
  }

  /** A widget's value changed: applied at once when it auto-triggers or no search button exists. */
  setValue(id: string, value: unknown): void {
    const values = { ...this.state.values, [id]: value };
    const w = this.widget(id);
    const auto = !this.env.hasSearchButton || w?.options?.attrs?.autoTrigger === true;
    if (w && auto) this.set({ values, applied: { ...this.state.applied, [id]: widgetFilters(w, value) } });
    else this.set({ values });
  }

  /** Search: applies the widgets' values (all, or those listed) to their views. */
  search(widgetIds?: string[]): void {
    const applied = { ...this.state.applied };
    for (const w of this.env.widgets) {
      if (widgetIds && widgetIds.length && !widgetIds.includes(w.id)) continue;
      applied[w.id] = widgetFilters(w, this.state.values[w.id]);
    }
    this.set({ applied, epoch: this.state.epoch + 1 });
  }

  /** Reset: clears the widgets, then applies. */
  reset(widgetIds?: string[]): void {
    const values = { ...this.state.values };
    for (const w of this.env.widgets) {
      if (widgetIds && widgetIds.length && !widgetIds.includes(w.id)) continue;
      values[w.id] = emptyValue(w);
    }
    this.state = { ...this.state, values };
    this.search(widgetIds);
  }

  filtersFor(viewId: string): FilterItem[] {
    return filtersForView(Object.values(this.state.applied).flat(), viewId);
  }

  setDrill(viewId: string, drill: DrillItem[]): void {
    this.set({ drill: { ...this.state.drill, [viewId]: drill } });
  }

  /** Linkage from a click on `source`: replaces what that view set before. */
  setLinkage(source: string, byTarget: Record<string, FilterItem[]>): void {
    const linkage: PanelState['linkage'] = {};
    for (const [target, entry] of Object.entries(this.state.linkage)) if (entry.source !== source) linkage[target] = entry;
    for (const [target, filters] of Object.entries(byTarget)) linkage[target] = { source, filters };
    this.set({ linkage });
  }

  clearLinkage(source: string): void {
    const linkage: PanelState['linkage'] = {};
    for (const [target, entry] of Object.entries(this.state.linkage)) if (entry.source !== source) linkage[target] = entry;
    this.set({ linkage });
  }
}

export const PanelContext = createContext<PanelStore | null>(null);

export function usePanelStore(): PanelStore {
  const store = useContext(PanelContext);
  if (!store) throw new Error('usePanelStore outside a panel');
  return store;
}

export function usePanel<T>(select: (s: PanelState) => T): T {
  const store = usePanelStore();
  return useSyncExternalStore(store.subscribe, () => select(store.getState()));
}

export function isWidget(c: PanelComponent): boolean {
  return (c.type === 'custom' || c.type === 'custom-button') && widgetKind(c) !== 'none';
}

/** Every component of a panel, tabs' content included. */
export function flatten(components: PanelComponent[]): PanelComponent[] {
  const out: PanelComponent[] = [];
  const walk = (list: PanelComponent[]) => {
    for (const c of list) {
      if (!c || typeof c !== 'object') continue;
      out.push(c);
      for (const tab of c.options?.tabList || []) {
        const content = tab?.content;
        if (Array.isArray(content)) walk(content);
        else if (content && typeof content === 'object') walk([content as PanelComponent]);
      }
    }
  };
  walk(components);
  return out;
}
