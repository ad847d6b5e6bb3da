import { Button, Drawer, Empty, Input, Typography } from 'antd';
import { CloseIcon, RobotIcon } from '../icons';
import { useT } from '@atrium/sdk';
import { store, useStore } from '../store';
import { useSlot, SlotOutlet } from '../plugins/Slots';

/** Help drawer: a plugin's `drawer` slot, titled with the page title plus the introduction suffix. */
export function HelpDrawer({ pageTitle }: { pageTitle: string }) {
  const t = useT();
  const open = useStore((s) => s.helpOpen);
  const chatOpen = useStore((s) => s.chatOpen);
  const manifest = useStore((s) => s.manifest);
  const drawers = useSlot(manifest, 'drawer');
  const onClose = () => store.set({ helpOpen: false });
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={`${pageTitle}${t('help.introSuffix')}`}
      size={420}
      // The AI drawer shifts other drawers by 384 px when open.
      rootStyle={chatOpen ? { right: 384 } : undefined}
    >
      {drawers.length ? (
        <SlotOutlet items={drawers} props={{ open, onClose, pageTitle }} />
      ) : (
        <Empty description={t('help.unavailable')} />
      )}
    </Drawer>
  );
}

/** The chat side panel (6 of 24 columns): the same `drawer` slot, drawn as a panel. */
export function ChatPanel({ mobile }: { mobile: boolean }) {
  const t = useT();
  const manifest = useStore((s) => s.manifest);
  const drawers = useSlot(manifest, 'drawer');
  const onClose = () => store.set({ chatOpen: false });
  return (
    <aside style={{ flex: mobile ? '0 0 100%' : '0 0 25%', borderLeft: '1px solid var(--at-border)', background: 'var(--at-panel)', display: 'flex', flexDirection: 'column', position: mobile ? 'absolute' : 'relative', inset: mobile ? 0 : undefined, zIndex: 40 }} data-testid="chat-panel">
      <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', padding: '12px 16px', borderBottom: '1px solid var(--at-border)' }}>
        <Typography.Text strong><RobotIcon /> {t('chat.title')}</Typography.Text>
        <Button type="text" size="small" icon={<CloseIcon />} onClick={onClose} aria-label={t('common.close')} />
      </div>
      {drawers.length ? (
        <div style={{ flex: 1, display: 'flex', flexDirection: 'column', minHeight: 0, padding: 12 }}>
          <SlotOutlet items={drawers} props={{ open: true, onClose, pageTitle: '', variant: 'panel' }} />
        </div>
      ) : (
        <>
          <div style={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', padding: 16 }}>
            <Empty description={t('chat.welcome')} />
          </div>
          <div style={{ padding: 12, borderTop: '1px solid var(--at-border)' }}>
            <Input.Search placeholder={t('chat.placeholder')} enterButton={t('chat.send')} disabled />
          </div>
        </>
      )}
    </aside>
  );
}
