/**
 * A panel opened from the report list: its definition is asked for with the click, and as soon as it arrives
 * its store starts the views' data calls and the chart chunks, while the page around it is still rendering.
 */
import { api } from '../api';
import type { PanelDetail } from '../model/types';
import type { PanelStore } from './store';
import { startPanel } from './PanelView';

export interface OpenedPanel {
  panel: PanelDetail;
  store: PanelStore;
}

const opening = new Map<string, Promise<OpenedPanel>>();

function open(id: string): Promise<OpenedPanel> {
  return api.panel(id).then((panel) => ({ panel, store: startPanel(panel, undefined, true, undefined) }));
}

/** Starts opening a panel for the page about to show it; only the last click's is kept (a later click asks
 * again: its data may have changed). */
export function prefetchPanel(id: string): void {
  const opened = open(id);
  opened.catch(() => undefined);
  opening.clear();
  opening.set(id, opened);
}

/** The panel as `prefetchPanel` started it (taken once), else opened now. */
export function openPanel(id: string): Promise<OpenedPanel> {
  const started = opening.get(id);
  opening.delete(id);
  return started || open(id);
}
