import { useEffect, useState } from 'react';
import { App, Button, Empty, Space, Spin, Tabs } from 'antd';
import { ReloadIcon } from '../icons';
import { RequestError, session } from '@atrium/sdk';
import { loginTypes, startSignIn, type LoginType, type Where } from './api';
import { useSsoT } from './parts';

/** The tenant's sign-in modes from this plugin (loaded once per tenant). */
export function useLoginTypes(where: Where): { types: LoginType[]; loading: boolean } {
  const [types, setTypes] = useState<LoginType[]>([]);
  const [loading, setLoading] = useState(true);
  const { tenantId, domainName } = where;
  useEffect(() => {
    let live = true;
    setLoading(true);
    loginTypes({ tenantId, domainName })
      .then((list) => live && setTypes(Array.isArray(list) ? list : []))
      .catch(() => live && setTypes([]))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [tenantId, domainName]);
  return { types, loading };
}

function QrFrame({ type, where }: { type: LoginType; where: Where }) {
  const t = useSsoT();
  const [url, setUrl] = useState<string>();
  const [error, setError] = useState<string>();
  const [round, setRound] = useState(0);
  const { tenantId, domainName } = where;
  useEffect(() => {
    let live = true;
    const call = startSignIn(type.provider, { tenantId, domainName }, 'qr', session.takeRedirect() || '');
    setUrl(undefined);
    setError(undefined);
    call.then((s) => live && setUrl(s.url)).catch((e: RequestError) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [type.provider, tenantId, domainName, round]);
  return (
    <div style={{ textAlign: 'center' }}>
      {error && <Empty description={<span data-testid="sso-error">{error}</span>} />}
      {!error && !url && <Spin />}
      {url && (
        <iframe
          title={type.name}
          src={url}
          data-testid={`sso-qr-${type.type}`}
          style={{ width: 300, height: 360, border: 0 }}
          sandbox="allow-scripts allow-same-origin allow-top-navigation allow-forms"
        />
      )}
      <div>
        <Button type="link" icon={<ReloadIcon />} onClick={() => setRound((r) => r + 1)}>{t('web.qrRefresh')}</Button>
      </div>
    </div>
  );
}

/** The sign-in page's QR mode: one QR code (the platform's own page, framed) per workplace chat
 * platform the tenant offers; the state inside is bound to this browser. */
export function QrLoginMode({ where, compact = false }: { where: Where; compact?: boolean }) {
  const t = useSsoT();
  const { types, loading } = useLoginTypes(where);
  const qr = types.filter((x) => x.modes?.includes('qr'));
  if (loading) return <Spin />;
  if (!qr.length) return compact ? null : <Empty description={t('web.noQr')} />;
  return (
    <div data-testid="sso-qr-mode">
      <Tabs centered items={qr.map((x) => ({ key: x.provider, label: x.name, children: <QrFrame type={x} where={where} /> }))} />
    </div>
  );
}

/** The sign-in page's "other login" mode: a button per redirect provider (OpenID Connect, OAuth2,
 * cloud identity and providers other plugins add). */
export function OtherLoginMode({ where }: { where: Where }) {
  const t = useSsoT();
  const { message } = App.useApp();
  const { types, loading } = useLoginTypes(where);
  const [busy, setBusy] = useState<string>();
  const others = types.filter((x) => x.modes?.includes('redirect'));
  const go = async (x: LoginType) => {
    setBusy(x.provider);
    try {
      const started = await startSignIn(x.provider, where, 'redirect', session.takeRedirect() || '');
      window.location.assign(started.url);
    } catch (err) {
      message.error((err as RequestError).message);
      setBusy(undefined);
    }
  };
  if (loading) return <Spin />;
  if (!others.length) return <Empty description={t('web.noOther')} />;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="sso-other-mode">
      {others.map((x) => (
        <Button key={x.provider} block size="large" loading={busy === x.provider} onClick={() => go(x)}
          data-testid={`sso-provider-${x.provider}`}>
          {t('web.signInWith', { name: x.name })}
        </Button>
      ))}
    </Space>
  );
}
