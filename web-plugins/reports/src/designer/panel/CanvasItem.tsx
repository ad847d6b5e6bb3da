/** One component on the canvas: what the viewer would draw, not interactive; a click selects it. */
import { Button, Tooltip } from 'antd';
import type { CSSProperties } from 'react';
import { ComponentBody } from '../../panel/ComponentBox';
import { commonBackground, type Box } from '../../model/layout';
import type { PanelComponent } from '../../model/types';
import { Icon } from './icons';
import { useDsT } from './i18n';

export interface ItemActions {
  selectedId: string | null;
  onSelect: (id: string) => void;
  onRemove: (id: string) => void;
  onDuplicate?: (id: string) => void;
}

export function ItemBar({ id, actions }: { id: string; actions: ItemActions }) {
  const { t } = useDsT();
  return (
    <div className="dsg-item-bar" onMouseDown={(e) => e.stopPropagation()}>
      {actions.onDuplicate && (
        <Tooltip title={t('canvas.duplicate')}>
          <Button size="small" type="text" aria-label={t('canvas.duplicate')} data-testid={`canvas-duplicate-${id}`} onClick={() => actions.onDuplicate!(id)} icon={<Icon name="copy" />} />
        </Tooltip>
      )}
      <Tooltip title={t('canvas.remove')}>
        <Button size="small" type="text" aria-label={t('canvas.remove')} data-testid={`canvas-remove-${id}`} onClick={() => actions.onRemove(id)} icon={<Icon name="close" />} />
      </Tooltip>
    </div>
  );
}

/** The drawn body of a component inside a box of the given size (with its common background). */
export function ItemBody({ component, box }: { component: PanelComponent; box: Box }) {
  const bg = commonBackground(component.commonBackground, 1);
  const pad = Number(String(bg.inner.padding || '0').replace('px', '')) || 0;
  const rotate = Number(component.style?.rotate) || 0;
  const outer: CSSProperties = { width: '100%', height: '100%', transform: rotate ? `rotate(${rotate}deg)` : undefined, ...(bg.outer as CSSProperties) };
  return (
    <div className="dsg-item-body" style={outer}>
      <div style={{ width: '100%', height: '100%', boxSizing: 'border-box', ...(bg.inner as CSSProperties) }}>
        <ComponentBody component={component} box={{ ...box, width: box.width - 2 * pad, height: box.height - 2 * pad }} />
      </div>
    </div>
  );
}
