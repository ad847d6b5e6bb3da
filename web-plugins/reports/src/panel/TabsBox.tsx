/** The tabs widget (spec 2.3): card style, lazy panes, content on a 24-column grid (rows 30, margins 10). */
import { Tabs } from 'antd';
import { useState } from 'react';
import { gridBox, tabContent, type Box } from '../model/layout';
import type { PanelComponent } from '../model/types';
import { ComponentBox } from './ComponentBox';

const TAB_BAR = 40;

function Pane({ items, width, height }: { items: PanelComponent[]; width: number; height: number }) {
  return (
    <div className="rpt-tab-pane" style={{ position: 'relative', width, height }}>
      {items.map((c, i) => {
        const gridded = c.x !== undefined || c.w !== undefined;
        const box: Box = gridded
          ? gridBox(c, width)
          : items.length === 1
            ? { left: 0, top: 0, width, height }
            : gridBox({ x: 0, y: i * 10, w: 24, h: 9 }, width);
        return <ComponentBox key={c.id || `${i}`} component={{ ...c, id: c.id || `tab-item-${i}`, style: c.style || { left: 0, top: 0, width, height } }} scale={1} box={box} />;
      })}
    </div>
  );
}

export default function TabsBox({ component, box }: { component: PanelComponent; box: Box }) {
  const tabs = component.options?.tabList || [];
  const [active, setActive] = useState(tabs[0]?.name);
  const height = Math.max(40, box.height - TAB_BAR - 8);
  return (
    <Tabs
      className="rpt-tabs"
      type="card"
      size="small"
      activeKey={active}
      onChange={setActive}
      style={{ width: '100%', height: '100%', background: 'transparent' }}
      items={tabs.map((tab) => ({
        key: tab.name,
        label: tab.title,
        // lazy: a pane renders the first time it is shown (antd renders inactive panes only once visited)
        children: <Pane items={tabContent(tab.content)} width={box.width} height={height} />,
      }))}
    />
  );
}
