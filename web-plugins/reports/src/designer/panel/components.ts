/**
 * The component types an author places (spec 2.3, 3.2), how a new one of each looks, and edits of the
 * component tree (components inside tab panes included), pure.
 */
import { tabContent } from '../../model/layout';
import type { PanelComponent, TabItem } from '../../model/types';
import { GRID_COLUMNS } from './gridLayout';

export const PALETTE_GROUPS = {
  chart: ['view'],
  filter: ['select', 'date', 'number-range', 'input'],
  button: ['search', 'reset', 'export'],
  media: ['v-text', 'picture', 'video', 'clock', 'rect', 'de-tabs'],
} as const;

export type PaletteType = (typeof PALETTE_GROUPS)[keyof typeof PALETTE_GROUPS][number];

export const PALETTE_TYPES: PaletteType[] = Object.values(PALETTE_GROUPS).flat();

/** Size of a new component in grid columns and rows (rows of ROW_UNITS design units). */
export const DEFAULT_SIZE: Record<PaletteType, { w: number; h: number }> = {
  view: { w: 12, h: 30 },
  // tall enough for the title above the control at the canvas's fitted scale
  select: { w: 5, h: 8 },
  date: { w: 6, h: 8 },
  'number-range': { w: 5, h: 8 },
  input: { w: 5, h: 8 },
  search: { w: 2, h: 4 },
  reset: { w: 2, h: 4 },
  export: { w: 2, h: 4 },
  'v-text': { w: 8, h: 6 },
  picture: { w: 4, h: 12 },
  video: { w: 8, h: 24 },
  clock: { w: 3, h: 6 },
  rect: { w: 8, h: 10 },
  'de-tabs': { w: 24, h: 40 },
};

export function newId(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

const BUTTON_SERVICE = { search: 'buttonSureWidget', reset: 'buttonResetWidget', export: 'buttonExportWidget' } as const;

/** Default texts are chosen by the caller (translated). */
export interface NewComponentTexts {
  title: string;
  text?: string;
  tabTitle?: string;
}

/** A new component of a palette type, without a place (the canvas sets the style). */
export function createComponent(type: PaletteType, texts: NewComponentTexts, viewId?: string): PanelComponent {
  const base = { id: newId(), style: { left: 0, top: 0, width: 0, height: 0 } };
  switch (type) {
    case 'view':
      return { ...base, type: 'view', component: 'user-view', propValue: { viewId: viewId || '' } };
    case 'select':
      return {
        ...base, type: 'custom', component: 'de-select', serviceName: 'textSelectWidget',
        options: { attrs: { title: texts.title, type: 'select', multiple: true, fieldId: '', filterIds: [], key: 'id', label: 'text', value: 'id' }, value: [] },
      };
    case 'date':
      return {
        ...base, type: 'custom', component: 'de-date', serviceName: 'timeDateRangeWidget',
        options: { attrs: { title: texts.title, type: 'daterange', fieldId: '', filterIds: [], default: { isDynamic: false, dkey: 'thisMonth', dynamicPrefix: 1, dynamicInfill: 'day', dynamicSuffix: 'before' } }, value: [] },
      };
    case 'number-range':
      return { ...base, type: 'custom', component: 'de-number-range', serviceName: 'numberRangeWidget', options: { attrs: { title: texts.title, fieldId: '', filterIds: [] }, value: [] } };
    case 'input':
      return { ...base, type: 'custom', component: 'de-input-search', serviceName: 'textInputWidget', options: { attrs: { title: texts.title, type: 'text', fieldId: '', filterIds: [] }, value: '' } };
    case 'search':
    case 'reset':
    case 'export':
      return {
        ...base, type: 'custom-button', component: 'de-button', serviceName: BUTTON_SERVICE[type], propValue: texts.title,
        options: { attrs: { customRange: false, filterIds: [] } },
      };
    case 'v-text':
      return { ...base, type: 'v-text', component: 'v-text', propValue: texts.text || texts.title, style: { ...base.style, fontSize: 16, color: '#1f2329', textAlign: 'left' } };
    case 'picture':
      return { ...base, type: 'picture', component: 'Picture', propValue: '' };
    case 'video':
      return { ...base, type: 'video', component: 'de-video', videoLinks: { videoType: 'web', web: { src: '', autoplay: false, loop: false, muted: true } } };
    case 'clock':
      return { ...base, type: 'de-show-date', component: 'de-show-date', formatInfo: { timeFormat: 'hh:mm:ss', showDate: true, showWeek: true, dateFormat: 'yyyy-MM-dd', openMode: '0' } };
    case 'rect':
      return { ...base, type: 'rect-shape', component: 'rect-shape', style: { ...base.style, borderWidth: 1, borderStyle: 'solid', borderColor: '#c9d1e0', borderRadius: 4 } };
    case 'de-tabs':
      return { ...base, type: 'de-tabs', component: 'de-tabs', options: { tabList: [newTab(texts.tabTitle || texts.title)] } };
    default:
      throw new Error(`unknown component type ${String(type)}`);
  }
}

export function newTab(title: string): TabItem {
  return { name: `tab-${newId().slice(0, 8)}`, title, layout: 'grid', content: [] };
}

/** Which palette type a stored component is (for its label and property sections). */
export function paletteTypeOf(c: PanelComponent): PaletteType | null {
  if (c.type === 'view') return 'view';
  if (c.type === 'de-tabs') return 'de-tabs';
  if (c.type === 'v-text' || /text|label/.test(c.type) && c.type !== 'custom') return 'v-text';
  if (c.type === 'picture' || c.component === 'Picture') return 'picture';
  if (c.type === 'video' || c.component === 'de-video') return 'video';
  if (/show-date|clock|date-time/.test(c.type)) return 'clock';
  if (/rect/.test(c.type)) return 'rect';
  const names = [c.component, c.serviceName].filter(Boolean) as string[];
  if (c.type === 'custom-button') {
    if (names.includes('buttonResetWidget')) return 'reset';
    if (names.includes('buttonExportWidget')) return 'export';
    return 'search';
  }
  if (c.type === 'custom') {
    if (names.some((n) => /select/i.test(n))) return 'select';
    if (names.some((n) => /date|time|month|year/i.test(n))) return 'date';
    if (names.some((n) => /number/i.test(n))) return 'number-range';
    return 'input';
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------
// the component tree
// ---------------------------------------------------------------------------------------------------------

/** Every component, those inside tab panes too. */
export function allComponents(list: PanelComponent[]): PanelComponent[] {
  const out: PanelComponent[] = [];
  for (const c of list) {
    out.push(c);
    if (c.type === 'de-tabs') for (const tab of c.options?.tabList || []) out.push(...allComponents(tabContent(tab.content)));
  }
  return out;
}

export function findComponent(list: PanelComponent[], id: string): PanelComponent | undefined {
  return allComponents(list).find((c) => c.id === id);
}

function mapTree(list: PanelComponent[], fn: (c: PanelComponent) => PanelComponent | null): PanelComponent[] {
  let changed = false;
  const out: PanelComponent[] = [];
  for (const c of list) {
    let next = fn(c);
    if (next && next.type === 'de-tabs' && next.options?.tabList) {
      const tabs = next.options.tabList.map((tab) => {
        const content = tabContent(tab.content);
        const mapped = mapTree(content, fn);
        return mapped === content && Array.isArray(tab.content) ? tab : { ...tab, content: mapped };
      });
      if (tabs.some((t, i) => t !== next!.options!.tabList![i])) next = { ...next, options: { ...next.options, tabList: tabs } };
    }
    if (next !== c) changed = true;
    if (next) out.push(next);
  }
  return changed ? out : list;
}

export function updateComponent(list: PanelComponent[], id: string, update: (c: PanelComponent) => PanelComponent): PanelComponent[] {
  return mapTree(list, (c) => (c.id === id ? update(c) : c));
}

export function removeComponent(list: PanelComponent[], id: string): PanelComponent[] {
  return mapTree(list, (c) => (c.id === id ? null : c));
}

/** Adds a component to a pane of a tabs component, below what the pane holds. */
export function addToTab(list: PanelComponent[], tabsId: string, tabName: string, item: PanelComponent, size: { w: number; h: number }): PanelComponent[] {
  return updateComponent(list, tabsId, (tabs) => ({
    ...tabs,
    options: {
      ...tabs.options,
      tabList: (tabs.options?.tabList || []).map((tab) => {
        if (tab.name !== tabName) return tab;
        const content = tabContent(tab.content);
        const y = content.reduce((m, c) => Math.max(m, (Number(c.y) || 0) + (Number(c.h) || 0)), 0);
        return { ...tab, content: [...content, { ...item, x: 0, y, w: Math.min(GRID_COLUMNS, size.w), h: Math.max(3, Math.round(size.h / 3.5)) }] };
      }),
    },
  }));
}

/** The view ids a panel shows (inside tabs too). */
export function viewIdsOf(list: PanelComponent[]): string[] {
  return allComponents(list).filter((c) => c.type === 'view' && c.propValue?.viewId).map((c) => String(c.propValue.viewId));
}
