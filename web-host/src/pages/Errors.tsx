import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, Result, Typography } from 'antd';
import { AppstoreAddIcon } from '../icons';
import { useT } from '@atrium/sdk';

/** How long a back-to-home action waits before it leaves the page (spec: back to index after 1,000 ms). */
export const BACK_HOME_DELAY_MS = 1000;

/** The back-to-home button: it shows that it is on its way, then goes to /home after the delay. */
function BackHomeButton() {
  const t = useT();
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const goHome = () => {
    if (leaving) return;
    setLeaving(true);
    timer.current = setTimeout(() => navigate('/home'), BACK_HOME_DELAY_MS);
  };
  return (
    <Button type="primary" loading={leaving} onClick={goHome} data-testid="back-home">
      {t('common.backHome')}
    </Button>
  );
}

function Page({ standalone, children }: { standalone?: boolean; children: React.ReactNode }) {
  return <div className={standalone ? 'at-center' : 'at-page at-center'} style={standalone ? { height: '100vh' } : undefined}>{children}</div>;
}

export function NotFound({ standalone }: { standalone?: boolean }) {
  const t = useT();
  return (
    <Page standalone={standalone}>
      <Result status="404" title="404" subTitle={t('error.pageNotFound')} extra={<BackHomeButton />} />
    </Page>
  );
}

/** 'The webmaster says you cannot access this page' with a back-to-home button. */
export function NoPermission() {
  const t = useT();
  return (
    <Page>
      <Result status="403" title={t('error.noPermissionTitle')} subTitle={t('error.webmaster')} extra={<BackHomeButton />} />
    </Page>
  );
}

/** A prefix whose application is not installed or not enabled for this tenant; `error`, the reason its
 * plugin did not load (shown to administrators, from the manifest). */
export function NotInstalled({ app, error }: { app?: string; error?: string }) {
  const t = useT();
  return (
    <Page>
      <Result
        icon={<AppstoreAddIcon style={{ color: 'var(--at-primary)' }} />}
        title={t('plugin.notInstalledTitle')}
        subTitle={t('plugin.notInstalledText', { app: app ? t(`apps.${app}`, { defaultValue: app }) : '' })}
        extra={<BackHomeButton />}
      >
        {error ? <Typography.Text type="danger" data-testid="plugin-load-error">{error}</Typography.Text> : null}
      </Result>
    </Page>
  );
}

/** The session could not be restored (the server did not answer the first calls). */
export function BootError({ message, onRetry }: { message: string; onRetry: () => void }) {
  const t = useT();
  return (
    <Result
      status="error"
      title={t('error.bootFailed')}
      subTitle={message}
      extra={<Button type="primary" onClick={onRetry}>{t('common.retry')}</Button>}
    />
  );
}
