import { Drawer } from 'antd';
import { store, useStore } from '../store';
import { Sidebar } from './Sidebar';

/** The sidebar in a drawer from the left, on phones. */
export function MobileSidebar() {
  const opened = useStore((s) => s.sidebarOpened);
  return (
    <Drawer
      placement="left"
      open={opened}
      onClose={() => store.set({ sidebarOpened: false })}
      size={260}
      styles={{ body: { padding: 0 } }}
      closable={false}
    >
      <Sidebar inDrawer />
    </Drawer>
  );
}
