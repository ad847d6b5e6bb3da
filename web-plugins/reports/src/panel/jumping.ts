/** The jump flow (spec 4): parameters stored locally, then the target opened in the configured window. */
import { appUrl } from '@atrium/sdk';
import type { ChartClick } from '../charts/EchartsChart';
import { JUMP_STORAGE_KEY, jumpFor, jumpProblem, outerJumpUrl, type JumpParams } from '../model/jump';
import type { ChartData, ChartView } from '../model/types';
import type { PanelStore } from './store';

export function openWindow(url: string, mode: string | undefined): void {
  const href = appUrl(url);
  if (mode === '_self') window.location.assign(href);
  else window.open(href, '_blank', 'noopener');
}

export function runJump({ store, view, click, data, warn }: { store: PanelStore; view: ChartView; click: ChartClick; data?: ChartData; warn: (key: string) => void }): void {
  const jump = jumpFor(view.id, click.dimensionList, store.getState().jumps);
  const problem = jumpProblem(jump);
  if (problem) {
    warn(`jump.${problem}`);
    return;
  }
  if (jump!.linkType === 'inner') {
    const params: JumpParams = {
      sourcePanelId: store.env.panelId,
      sourceViewId: view.id,
      sourceFieldId: jump!.sourceFieldId || click.dimensionList[0]?.id || '',
      targetPanelId: String(jump!.targetPanelId),
      dimensionList: click.dimensionList,
      quotaList: click.quotaList,
      at: Date.now(),
    };
    localStorage.setItem(JUMP_STORAGE_KEY, JSON.stringify(params));
    openWindow(`/dynamic-report/link/${encodeURIComponent(String(jump!.publicJumpId))}`, jump!.jumpType);
    return;
  }
  const names: Record<string, string> = {};
  for (const f of data?.fields || []) names[f.id] = f.name;
  openWindow(outerJumpUrl(jump!, click.dimensionList, names), jump!.jumpType);
}

/** On the target: reads and removes the stored parameters (only those meant for this panel, and fresh). */
export function takeJumpParams(panelId: string, maxAgeMs = 10 * 60 * 1000): JumpParams | null {
  let raw: string | null;
  try {
    raw = localStorage.getItem(JUMP_STORAGE_KEY);
  } catch {
    return null;
  }
  if (!raw) return null;
  try {
    const p = JSON.parse(raw) as JumpParams;
    if (p.targetPanelId !== panelId) return null;
    localStorage.removeItem(JUMP_STORAGE_KEY);
    if (p.at && Date.now() - p.at > maxAgeMs) return null;
    return p;
  } catch {
    localStorage.removeItem(JUMP_STORAGE_KEY);
    return null;
  }
}
