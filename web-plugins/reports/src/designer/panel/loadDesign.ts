/** A draft as the designer edits it, and back (panelData and panelStyle travel as JSON text). */
import { parseJson } from '../../charts/common';
import type { PanelComponent, PanelStyle } from '../../model/types';
import type { DraftBody } from './api';
import type { DesignState, Draft } from './types';

export function designOf(draft: Pick<Draft, 'name' | 'panelData' | 'panelStyle'>): DesignState {
  const list = parseJson<PanelComponent[]>(draft.panelData, []);
  const style = parseJson<PanelStyle>(draft.panelStyle, {});
  return {
    name: draft.name || '',
    components: Array.isArray(list) ? list.filter((c) => c && typeof c === 'object' && c.id && c.style) : [],
    style: style && typeof style === 'object' ? style : {},
  };
}

export function draftBody(panelId: string, state: DesignState): DraftBody {
  return { id: panelId, name: state.name.trim(), panelData: JSON.stringify(state.components), panelStyle: JSON.stringify(state.style) };
}
