import { useEffect, useState } from 'react';
import { Badge, Empty, List, Popover, Typography } from 'antd';
import { useShell, useT, type NavbarItemProps } from '@atrium/sdk';
import { plainText, sendTime } from '../format';
import { live } from '../live';
import { inbox, useInbox } from '../store';
import { BellIcon } from './icons';

/** Badge and popover limits of spec 2.5 and 9. */
const BADGE_MAX = 999;
const POPOVER_WIDTH = 480;
const POPOVER_HEIGHT = 300;

/** The navbar bell: unread count (max 999) and a popover of unread letters with a link to /letters. */
export function Bell({ compact }: NavbarItemProps) {
  const t = useT('message');
  const shell = useShell();
  const { unread, latest, loaded } = useInbox();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const release = live.acquire();
    void inbox.reload();
    return release;
  }, []);

  // the button's name says what its badge shows (the count, or 999+)
  const label = unread > 0 ? t('web.bell.unread', { unread: unread > BADGE_MAX ? `${BADGE_MAX}+` : unread }) : t('web.bell.title');

  const goLetters = () => {
    setOpen(false);
    shell.openPage('/letters', t('web.letters.title'));
  };

  const content = (
    <div style={{ width: POPOVER_WIDTH, height: POPOVER_HEIGHT, display: 'flex', flexDirection: 'column' }} data-testid="msg-popover">
      <div style={{ flex: 1, overflow: 'auto' }}>
        {latest.length ? (
          <List
            size="small"
            dataSource={latest}
            renderItem={(m) => (
              <List.Item key={m.msgInstanceId} style={{ cursor: 'pointer' }} onClick={goLetters} data-testid="msg-popover-item">
                <Typography.Text ellipsis style={{ maxWidth: 330 }}>{plainText(m.messageContent)}</Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>{sendTime(m.sendTime)}</Typography.Text>
              </List.Item>
            )}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={loaded ? t('web.bell.none') : t('web.bell.loading')} />
        )}
      </div>
      <div style={{ textAlign: 'right', paddingTop: 8, borderTop: '1px solid rgba(127,140,170,.25)' }}>
        <Typography.Link onClick={goLetters} data-testid="msg-more">{t('web.bell.more')}</Typography.Link>
      </div>
    </div>
  );

  // no nameless button while the plugin's texts are still on their way
  if (!t.ready) return null;

  return (
    <Popover
      content={content}
      title={t('web.bell.title')}
      trigger="click"
      placement={compact ? 'left' : 'bottomRight'}
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) void inbox.reload();
      }}
    >
      <button type="button" className="at-nav-item" data-testid="msg-bell" data-unread={unread} aria-label={label}>
        <Badge count={unread} overflowCount={BADGE_MAX} size="small" offset={[4, -2]}>
          <span style={{ color: 'inherit', display: 'inline-flex' }}><BellIcon /></span>
        </Badge>
      </button>
    </Popover>
  );
}
