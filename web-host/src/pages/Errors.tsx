import { useNavigate } from 'react-router';
import { Button, Result, Typography } from 'antd';
import { AppstoreAddIcon } from '../icons';
import { useT } from '@atrium/sdk';

function Page({ standalone, children }: { standalone?: boolean; children: React.ReactNode }) {
  return <div className={standalone ? 'at-center' : 'at-page at-center'} style={standalone ? { height: '100vh' } : undefined}>{children}</div>;
}

export function NotFound({ standalone }: { standalone?: boolean }) {
  const t = useT();
  const navigate = useNavigate();
  return (
    <Page standalone={standalone}>
      <Result status="404" title="404" subTitle={t('error.pageNotFound')} extra={<Button type="primary" onClick={() => navigate('/home')}>{t('common.backHome')}</Button>} />
    </Page>
  );
}

/** 'The webmaster says you cannot access this page' with a back-to-home button. */
export function NoPermission() {
  const t = useT();
  const navigate = useNavigate();
  return (
    <Page>
      <Result status="403" title={t('error.noPermissionTitle')} subTitle={t('error.webmaster')} extra={<Button type="primary" onClick={() => navigate('/home')}>{t('common.backHome')}</Button>} />
    </Page>
  );
}

/** A prefix whose application is not installed or not enabled for this tenant; `error`, the reason its
 * plugin did not load (shown to administrators, from the manifest). */
export function NotInstalled({ app, error }: { app?: string; error?: string }) {
  const t = useT();
  const navigate = useNavigate();
  return (
    <Page>
      <Result
        icon={<AppstoreAddIcon style={{ color: 'var(--at-primary)' }} />}
        title={t('plugin.notInstalledTitle')}
        subTitle={t('plugin.notInstalledText', { app: app ? t(`apps.${app}`, { defaultValue: app }) : '' })}
        extra={<Button type="primary" onClick={() => navigate('/home')}>{t('common.backHome')}</Button>}
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
