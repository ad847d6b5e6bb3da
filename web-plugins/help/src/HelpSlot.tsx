import { useEffect, useState } from 'react';
import { Alert, Divider, Spin, Typography } from 'antd';
import { useShell, useT, type DrawerSlotProps } from '@atrium/sdk';
import { docsForMenu, type HelpDoc } from './api';
import { Chat } from './Chat';

/** The current page's help: its documents (or the "no help document exists yet" note), then the chat. */
function PageHelp() {
  const t = useT('help');
  const { currentMenu } = useShell();
  const [docs, setDocs] = useState<HelpDoc[] | null>(null);
  const manual = currentMenu?.userManualUrl || currentMenu?.meta?.userManualUrl || '';
  const code = currentMenu?.menuCode || '';

  useEffect(() => {
    let alive = true;
    setDocs(null);
    if (!code) {
      setDocs([]);
      return undefined;
    }
    docsForMenu(code)
      .then((found) => alive && setDocs(found))
      .catch(() => alive && setDocs([]));
    return () => {
      alive = false;
    };
  }, [code]);

  if (docs === null) return <Spin size="small" />;
  const links = manual || docs.find((d) => d.manualUrl)?.manualUrl;
  return (
    <div data-testid="help-document">
      {links && (
        <Typography.Paragraph>
          <a href={links} target="_blank" rel="noopener noreferrer" data-testid="help-manual-link">{t('web.manual')}</a>
        </Typography.Paragraph>
      )}
      {docs.map((d) => (
        <div key={d.id}>
          <Typography.Title level={5}>{d.title}</Typography.Title>
          <div className="at-help-content" dangerouslySetInnerHTML={{ __html: d.content || '' }} />
        </div>
      ))}
      {!docs.length && !links && <Alert type="info" showIcon title={t('web.noDoc')} data-testid="help-no-doc" />}
    </div>
  );
}

/** The `drawer` slot: inside the host's help drawer (page help and chat) or as the chat side panel. */
export function HelpSlot({ variant }: DrawerSlotProps) {
  const t = useT('help');
  if (variant === 'panel') return <Chat compact />;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', minHeight: '100%' }}>
      <PageHelp />
      <Divider>{t('web.assistant')}</Divider>
      <Chat />
    </div>
  );
}
