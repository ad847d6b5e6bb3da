import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, QRCode, Result, Space, Spin, Typography } from 'antd';
import { RequestError, request, resetNotLoggedIn, session, socketUrl, useT } from '@atrium/sdk';
import { SigninCard } from '../components/SigninParts';
import { store } from '../store';
import { whereFrom } from '../sso/api';

interface Made {
  qrCode: string;
  secret: string;
  expiresIn: number;
}

type Shown = 'loading' | 'waiting' | 'scanned' | 'declined' | 'expired' | 'signing' | 'failed';

function qrSocketUrl(made: Made): string {
  const q = new URLSearchParams({ code: made.qrCode, secret: made.secret });
  return socketUrl(`/ws/qrcode?${q.toString()}`);
}

/** The desktop's QR code: a one-time code (two minutes) that a signed-in phone confirms; the answer
 * arrives through the WebSocket hub and the desktop signs in at once. */
export function PlatformQr({ onSignedIn }: { onSignedIn: (data: Record<string, any>) => void | Promise<void> }) {
  const t = useT();
  const [made, setMade] = useState<Made | null>(null);
  const [shown, setShown] = useState<Shown>('loading');
  const [error, setError] = useState('');
  const socket = useRef<WebSocket | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const done = useRef(onSignedIn);
  done.current = onSignedIn;

  const stop = () => {
    clearTimeout(timer.current);
    const ws = socket.current;
    socket.current = null;
    if (ws) ws.close();
  };

  const collect = useCallback(async (m: Made) => {
    setShown('signing');
    stop();
    try {
      const data = await request<Record<string, any>>('base/qrcode/login', { method: 'POST', data: { qrCode: m.qrCode, secret: m.secret }, silent: true });
      await done.current(data);
    } catch (err) {
      setError((err as RequestError).message);
      setShown('failed');
    }
  }, []);

  const renew = useCallback(async () => {
    stop();
    setShown('loading');
    setError('');
    let m: Made;
    try {
      m = await request<Made>('base/qrcode/create', { method: 'POST', data: {}, silent: true });
    } catch (err) {
      setError((err as RequestError).message);
      setShown('failed');
      return;
    }
    setMade(m);
    setShown('waiting');
    timer.current = setTimeout(() => {
      stop();
      setShown('expired');
    }, m.expiresIn * 1000);
    const ws = new WebSocket(qrSocketUrl(m));
    socket.current = ws;
    ws.onmessage = (ev) => {
      let msg: { type?: string; state?: string };
      try {
        msg = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      if (msg.type !== 'qrcode') return;
      if (msg.state === 'scanned') setShown('scanned');
      else if (msg.state === 'confirmed') void collect(m);
      else if (msg.state === 'declined') {
        stop();
        setShown('declined');
      }
    };
    ws.onclose = (ev) => {
      if (socket.current !== ws) return;
      socket.current = null;
      if (ev.code === 4410 || ev.code === 4408) setShown('expired');
    };
  }, [collect]);

  useEffect(() => {
    void renew();
    return stop;
  }, [renew]);

  const url = made ? `${window.location.origin}/qrcode-success?qrCode=${encodeURIComponent(made.qrCode)}` : '';
  const status = shown === 'loading' || shown === 'signing' ? 'loading' : shown === 'expired' || shown === 'declined' || shown === 'failed' ? 'expired' : 'active';
  const text: Record<Shown, string> = {
    loading: t('login.qrHint'),
    waiting: t('login.qrHint'),
    scanned: t('login.qrScanned'),
    declined: t('login.qrDeclined'),
    expired: t('login.qrExpired'),
    signing: t('login.qrScanned'),
    failed: error,
  };
  return (
    <div data-testid="platform-qr" data-qr-url={url} data-qr-state={shown} style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 12, padding: '8px 0 16px' }}>
      <QRCode value={url || '-'} size={188} status={status} onRefresh={() => void renew()} />
      <Typography.Text type={shown === 'declined' || shown === 'failed' ? 'danger' : 'secondary'} data-testid="platform-qr-text">
        {text[shown]}
      </Typography.Text>
    </div>
  );
}

/** /qrcode: the platform's QR code, and the work-chat QR codes the tenant has (`ssoPage`). */
export function QrCodeRoute({ ssoPage }: { ssoPage: ReactNode }) {
  const t = useT();
  const navigate = useNavigate();
  const [ssoQr, setSsoQr] = useState(false);
  const [query] = useSearchParams();
  useEffect(() => {
    request<{ type: string; modes?: string[] }[]>('base/base-sso-oauth-config/get-login-type', {
      params: { ...whereFrom(query) },
      silent: true,
    })
      .then((list) => setSsoQr((Array.isArray(list) ? list : []).some((x) => Array.isArray(x.modes) && x.modes.includes('qr'))))
      .catch(() => undefined);
  }, [query]);
  const signedIn = (data: Record<string, any>) => {
    session.signIn(data);
    resetNotLoggedIn();
    store.set({ ready: false });
    navigate(session.takeRedirect() || '/home');
  };
  return (
    <div data-testid="qrcode-page">
      <SigninCard title={t('login.qrTitle')} testId="qrcode-card">
        <PlatformQr onSignedIn={signedIn} />
        <Typography.Link onClick={() => navigate('/login')}>{t('login.backToLogin')}</Typography.Link>
      </SigninCard>
      {ssoQr && ssoPage}
    </div>
  );
}

type PhoneStep = 'opening' | 'ask' | 'confirmed' | 'declined' | 'error';

/** /qrcode-success with `qrCode`: the signed-in phone confirms or declines the desktop's sign-in;
 * without it, the work-chat scan's return page (`ssoPage`). */
export function QrSuccessRoute({ ssoPage }: { ssoPage: ReactNode }) {
  const [query] = useSearchParams();
  const code = query.get('qrCode');
  if (!code) return <>{ssoPage}</>;
  return <PhoneConfirm code={code} />;
}

function PhoneConfirm({ code }: { code: string }) {
  const t = useT();
  const navigate = useNavigate();
  const [step, setStep] = useState<PhoneStep>('opening');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const loggedIn = session.isLoggedIn();

  useEffect(() => {
    if (!loggedIn) return;
    request('base/qrcode/scan', { method: 'POST', data: { qrCode: code }, silent: true })
      .then(() => setStep('ask'))
      .catch((err) => {
        setError((err as RequestError).message);
        setStep('error');
      });
  }, [code, loggedIn]);

  const decide = async (approve: boolean) => {
    setBusy(true);
    try {
      await request(`base/qrcode/${approve ? 'confirm' : 'decline'}`, { method: 'POST', data: { qrCode: code }, silent: true });
      setStep(approve ? 'confirmed' : 'declined');
    } catch (err) {
      setError((err as RequestError).message);
      setStep('error');
    } finally {
      setBusy(false);
    }
  };

  let body: ReactNode;
  if (!loggedIn) {
    body = (
      <Result
        status="info"
        title={t('login.qrNeedLogin')}
        extra={
          <Button
            type="primary"
            onClick={() => {
              session.rememberRedirect(`/qrcode-success?qrCode=${encodeURIComponent(code)}`);
              navigate('/login');
            }}
          >
            {t('login.submit')}
          </Button>
        }
      />
    );
  } else if (step === 'opening') body = <div className="at-center" style={{ minHeight: 120 }}><Spin /></div>;
  else if (step === 'ask') {
    const name = session.profile.userFullName || '';
    body = (
      <Result
        status="warning"
        title={t('login.qrConfirmTitle')}
        subTitle={t('login.qrConfirmText', { name })}
        extra={
          <Space direction="vertical" style={{ width: '100%' }}>
            <Button type="primary" block size="large" loading={busy} onClick={() => void decide(true)}>{t('login.qrConfirm')}</Button>
            <Button block size="large" disabled={busy} onClick={() => void decide(false)}>{t('login.qrDecline')}</Button>
          </Space>
        }
      />
    );
  } else if (step === 'confirmed') body = <Result status="success" title={t('login.qrConfirmed')} />;
  else if (step === 'declined') body = <Result status="info" title={t('login.qrDeclinedDone')} />;
  else body = <Result status="error" title={error} />;
  return (
    <SigninCard title={t('login.qrTitle')} testId="qrcode-confirm">
      {body}
    </SigninCard>
  );
}
