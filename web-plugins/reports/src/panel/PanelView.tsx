/**
 * A panel in a scaled layout (spec 2.3, 9): widths scale by the container over the panel's design width,
 * heights by 115 percent of that; the panel background; every component type.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { api, type Access } from '../api';
import { parseJson } from '../charts/common';
import { panelBackground, panelHeight, panelScale, VERTICAL_FACTOR, type Box } from '../model/layout';
import type { FilterItem, PanelComponent, PanelDetail, PanelStyle } from '../model/types';
import { widgetKind } from '../model/filters';
import { ComponentBox } from './ComponentBox';
import { PanelContext, PanelStore, flatten, isWidget } from './store';
import { firstShownViews } from './prefetch';
import { loadChart } from '../charts/loaders';
import { holdIdleDraws, pageIdle } from '../charts/drawQueue';

export interface PanelViewProps {
  panel: PanelDetail;
  access?: Access;
  signedIn: boolean;
  /** Filters a jump brought (spec 4). */
  track?: FilterItem[];
  /** The panel's store, started before the page rendered (see `openPanel`); made here otherwise. */
  started?: PanelStore;
}

/** The calls' access on a panel: with a proxy user (spec 6), data and option calls ask for the proxy's data
 * scope; otherwise as given (a shared link's user, or nobody). */
export function panelAccess(panel: Pick<PanelDetail, 'proxy'>, access: Access | undefined): Access | undefined {
  if (panel.proxy === undefined || panel.proxy === null) return access;
  return { ...(access || {}), user: panel.proxy };
}

export function buildEnv(panel: PanelDetail, given: Access | undefined, signedIn: boolean) {
  const access = panelAccess(panel, given);
  const components = parseJson<PanelComponent[]>(panel.panelData, []);
  const list = Array.isArray(components) ? components.filter((c) => c && typeof c === 'object' && c.style) : [];
  const style = parseJson<PanelStyle>(panel.panelStyle, {});
  const all = flatten(list);
  const widgets = all.filter(isWidget);
  const viewIds = all.filter((c) => c.type === 'view' && c.propValue?.viewId).map((c) => String(c.propValue.viewId));
  return {
    panelId: panel.id,
    panelName: panel.name,
    style,
    components: list,
    widgets,
    viewIds,
    access,
    signedIn,
    privileges: panel.privileges || '',
    hasSearchButton: widgets.some((w) => widgetKind(w) === 'search'),
  };
}

/** Below this width a panel stacks its components in one column: a chart a quarter of a phone wide can't be read. */
export const STACK_BELOW = 600;
const STACK_GAP = 10;

/**
 * The one-column layout of a narrow container: components in reading order (top, then left), each the full
 * width, as tall as designed (115 percent, spec 9) scaled down no further than three quarters.
 */
export function stackedBoxes(components: PanelComponent[], width: number): { boxes: Map<string, Box>; height: number } {
  const boxes = new Map<string, Box>();
  const order = components
    .map((c, i) => ({ c, i }))
    .sort((a, b) => (Number(a.c.style?.top) || 0) - (Number(b.c.style?.top) || 0) || (Number(a.c.style?.left) || 0) - (Number(b.c.style?.left) || 0) || a.i - b.i);
  let top = 0;
  for (const { c } of order) {
    const w = Number(c.style?.width) || width;
    const h = Math.max(1, Math.round((Number(c.style?.height) || 0) * VERTICAL_FACTOR * Math.max(0.75, Math.min(1, width / w))));
    boxes.set(c.id, { left: 0, top, width, height: h });
    top += h + STACK_GAP;
  }
  return { boxes, height: top + 16 };
}

/** A panel's store with its first calls under way: the chart chunks, then every shown view's data call, and the
 * charts below the window held back until that data is there. */
export function startPanel(panel: PanelDetail, access: Access | undefined, signedIn: boolean, track: FilterItem[] | undefined): PanelStore {
  const s = new PanelStore(buildEnv(panel, access, signedIn), track || []);
  // the chunks first: their scripts load while the data calls are sent
  loadChart('echarts').catch(() => undefined);
  s.calls.start(firstShownViews(s.env.components), s.state);
  holdIdleDraws(s.calls.settled());
  return s;
}

export function PanelView({ panel, access, signedIn, track, started }: PanelViewProps) {
  // the data calls and the chart chunks start now, not after the layout is measured and the views mounted
  const store = useMemo(() => started || startPanel(panel, access, signedIn, track), [started, panel, access, signedIn, track]);
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);

  // the views near the window wait, like those below it, until the first data is there and the page has drawn
  // the views in the window (it is idle then): the data may be there before the views are even laid out
  useLayoutEffect(() => holdIdleDraws(store.calls.settled().then(pageIdle)), [store]);

  useLayoutEffect(() => {
    const node = ref.current;
    if (!node) return undefined;
    setWidth(node.clientWidth);
    if (typeof ResizeObserver === 'undefined') return undefined;
    const ro = new ResizeObserver(() => setWidth(node.clientWidth));
    ro.observe(node);
    return () => ro.disconnect();
  }, []);

  useEffect(() => {
    let alive = true;
    api.linkage(panel.id, access).then((info) => alive && store.set({ linkageInfo: info || {} })).catch(() => undefined);
    api.jumps(panel.id, access).then((j) => alive && store.set({ jumps: j?.baseJumpInfoMap || {} })).catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [panel.id, access, store]);

  const stacked = width > 0 && width < STACK_BELOW ? stackedBoxes(store.env.components, width) : null;
  const scale = panelScale(width, store.env.style.width);
  const height = stacked ? stacked.height : panelHeight(store.env.components, scale);
  return (
    <PanelContext.Provider value={store}>
      <div
        ref={ref}
        className="rpt-panel"
        data-testid="report-panel"
        data-panel-id={panel.id}
        data-layout={stacked ? 'stacked' : 'scaled'}
        style={{ position: 'relative', width: '100%', minHeight: height, ...panelBackground(store.env.style) }}
      >
        {width > 0 && store.env.components.map((c) => <ComponentBox key={c.id} component={c} scale={scale} box={stacked?.boxes.get(c.id)} />)}
      </div>
    </PanelContext.Provider>
  );
}
