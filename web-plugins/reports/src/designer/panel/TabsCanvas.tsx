/** A tabs component on the canvas: its panes, each a nested 24-column grid (spec 2.3: rows 30, margins 10). */
import { Empty, Tabs } from 'antd';
import ReactGridLayout, { noCompactor, type Layout } from 'react-grid-layout';
import { useState } from 'react';
import { TAB_GRID, tabContent, type Box } from '../../model/layout';
import type { PanelComponent } from '../../model/types';
import { applyTabLayout, tabItemOf } from './gridLayout';
import { ItemBar, ItemBody, type ItemActions } from './CanvasItem';
import { useDsT } from './i18n';

const TAB_BAR = 40;

export interface TabsCanvasProps {
  component: PanelComponent;
  box: Box;
  actions: ItemActions;
  activeTab: string | undefined;
  onActiveTab: (name: string) => void;
  onPaneChange: (tabName: string, content: PanelComponent[]) => void;
}

function Pane({ items, width, height, actions, onChange }: { items: PanelComponent[]; width: number; height: number; actions: ItemActions; onChange: (content: PanelComponent[]) => void }) {
  const { t } = useDsT();
  const layout = items.map((c, i) => tabItemOf(c, i));
  const { columns, rowHeight, margin } = TAB_GRID;
  const colWidth = (width - margin * (columns + 1)) / columns;
  const commit = (next: Layout) => {
    const placed = applyTabLayout(items, next);
    if (placed !== items) onChange(placed);
  };
  if (!items.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('tabs.emptyPane')} style={{ margin: '12px 0' }} />;
  return (
    <div className="dsg-nested" style={{ position: 'relative', width, minHeight: height }}>
      <ReactGridLayout
        width={width}
        layout={layout}
        gridConfig={{ cols: columns, rowHeight, margin: [margin, margin] }}
        compactor={noCompactor}
        onDragStop={(l) => commit(l)}
        onResizeStop={(l) => commit(l)}
      >
        {items.map((c, i) => {
          const item = layout[i];
          const box: Box = { left: 0, top: 0, width: Math.round(item.w * colWidth + (item.w - 1) * margin), height: item.h * rowHeight + (item.h - 1) * margin };
          return (
            <div
              key={c.id}
              data-testid={`canvas-item-${c.id}`}
              className={`dsg-item${actions.selectedId === c.id ? ' dsg-selected' : ''}`}
              onMouseDown={(e) => e.stopPropagation()}
              onClick={(e) => {
                e.stopPropagation();
                actions.onSelect(c.id);
              }}
            >
              <ItemBar id={c.id} actions={actions} />
              <ItemBody component={c} box={box} />
            </div>
          );
        })}
      </ReactGridLayout>
    </div>
  );
}

export function TabsCanvas({ component, box, actions, activeTab, onActiveTab, onPaneChange }: TabsCanvasProps) {
  const tabs = component.options?.tabList || [];
  const [fallback] = useState(tabs[0]?.name);
  const active = tabs.some((tab) => tab.name === activeTab) ? activeTab : tabs[0]?.name ?? fallback;
  const height = Math.max(40, box.height - TAB_BAR - 8);
  return (
    <Tabs
      className="rpt-tabs dsg-nested"
      type="card"
      size="small"
      activeKey={active}
      onChange={onActiveTab}
      style={{ width: '100%', height: '100%', overflow: 'auto' }}
      items={tabs.map((tab) => ({
        key: tab.name,
        label: <span data-testid={`canvas-tab-${tab.name}`}>{tab.title}</span>,
        children: <Pane items={tabContent(tab.content)} width={box.width} height={height} actions={actions} onChange={(content) => onPaneChange(tab.name, content)} />,
      }))}
    />
  );
}
