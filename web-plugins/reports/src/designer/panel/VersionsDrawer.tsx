/** Published versions of the panel, newest first; rolling back (after a confirmation) makes one the draft and the live version. */
import { App, Button, Drawer, Empty, List, Popconfirm, Spin, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { designerApi } from './api';
import type { PanelVersion } from './types';
import { useDsT } from './i18n';

export function VersionsDrawer({ panelId, open, current, onClose, onRolledBack }: { panelId: string; open: boolean; current: number | null; onClose: () => void; onRolledBack: () => void }) {
  const { t } = useDsT();
  const { message } = App.useApp();
  const [versions, setVersions] = useState<PanelVersion[] | null>(null);
  useEffect(() => {
    if (!open) return;
    setVersions(null);
    designerApi.versions(panelId).then((v) => setVersions([...(v || [])].sort((a, b) => b.version - a.version))).catch((e: Error) => {
      setVersions([]);
      message.error(e.message);
    });
  }, [open, panelId, message]);
  const rollback = async (version: number) => {
    try {
      await designerApi.rollback(panelId, version);
      message.success(t('versions.rolledBack', { version }));
      onRolledBack();
    } catch (e) {
      message.error((e as Error).message);
    }
  };
  return (
    <Drawer open={open} onClose={onClose} title={t('versions.title')} size={420} destroyOnHidden>
      {!versions ? <Spin /> : !versions.length ? <Empty description={t('versions.none')} /> : (
        <List
          data-testid="versions-list"
          dataSource={versions}
          renderItem={(v) => (
            <List.Item
              data-testid={`version-${v.version}`}
              actions={[
                <Popconfirm key="rb" title={t('versions.confirm', { version: v.version })} okText={t('versions.rollback')} cancelText={t('common.cancel')} okButtonProps={{ 'data-testid': 'version-rollback-confirm' }} onConfirm={() => rollback(v.version)}>
                  <Button size="small" data-testid={`version-rollback-${v.version}`}>{t('versions.rollback')}</Button>
                </Popconfirm>,
              ]}
            >
              <List.Item.Meta
                title={<span>{t('versions.version', { version: v.version })}{current === v.version && <Typography.Text type="success"> · {t('versions.live')}</Typography.Text>}</span>}
                description={<>
                  <div>{dayjs(v.publishTime).format('YYYY-MM-DD HH:mm')} · {v.publishedByName || v.publishedBy || ''}</div>
                  {v.note && <div data-testid={`version-note-${v.version}`}>{v.note}</div>}
                </>}
              />
            </List.Item>
          )}
        />
      )}
    </Drawer>
  );
}
