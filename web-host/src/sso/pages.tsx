import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, Result, Typography } from 'antd';
import { session } from '@atrium/sdk';
import {
  cloudRefresh, cloudTokenByCode, cloudUrl, dingtalkConsole, dingtalkInApp, dingtalkInfo, dingtalkScan, finishSignIn,
  startSignIn, wecomCallback, wecomLoginUrl, whereFrom, type SignInAnswer,
} from './api';
import { workChatKind } from './browser';
import { OtherLoginMode, QrLoginMode } from './modes';
import { LinkAccount, Screen, SignInFailed, Working, failure, useFinish, useSsoT, type LinkNeeded } from './parts';

type Step = { phase: 'working' } | { phase: 'failed'; message: string } | { phase: 'link'; link: LinkNeeded } | { phase: 'idle' };

/** Runs a sign-in step once (React may mount twice in development; a code is single-use). */
function useStep(run: () => Promise<SignInAnswer | void>, fallback: string): [Step, (s: Step) => void] {
  const [step, setStep] = useState<Step>({ phase: 'working' });
  const finish = useFinish();
  const started = useRef(false);
  const start = useEffectEvent(() => {
    run()
      .then((data) => (data ? finish(data) : undefined))
      .catch((err) => {
        const f = failure(err, fallback);
        setStep(f.link ? { phase: 'link', link: f.link } : { phase: 'failed', message: f.message });
      });
  });
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    start();
  }, []);
  return [step, setStep];
}

function StepView({ step, testId, working }: { step: Step; testId: string; working: string }) {
  const finish = useFinish();
  return (
    <Screen testId={testId}>
      {step.phase === 'working' && <Working text={working} />}
      {step.phase === 'failed' && <SignInFailed message={step.message} />}
      {step.phase === 'link' && <LinkAccount link={step.link} onDone={finish} />}
    </Screen>
  );
}

function queryObject(query: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  query.forEach((v, k) => {
    out[k] = v;
  });
  return out;
}

/** /sso/login: back from an OpenID Connect, OAuth2 or plugin provider (`code`, `state`), or the start of
 * a sign-in with one provider (`provider`, as urlLogin and the login types link), or a hand-over of
 * stored sso tokens (`domainName`, `ssoToken`, `ssoRefreshToken`). */
export function SsoLoginPage() {
  const t = useSsoT();
  const [query] = useSearchParams();
  const [step] = useStep(async () => {
    const q = queryObject(query);
    if (q.state || q.code || q.error) return finishSignIn(q);
    if (q.ssoRefreshToken && q.domainName) return cloudRefresh(q.domainName, q.ssoToken || '', q.ssoRefreshToken);
    if (q.provider) {
      const started = await startSignIn(q.provider, whereFrom(query), 'redirect', session.takeRedirect() || '');
      window.location.assign(started.url);
      return undefined;
    }
    throw new Error(t('web.noProvider'));
  }, t('web.failedTitle'));
  return <StepView step={step} testId="sso-login" working={t('web.working')} />;
}

/** /authorize: the redirect-based (cloud identity) sign-in: sends the browser to the provider, and
 * exchanges the code it comes back with for a session and the sso tokens. */
export function AuthorizePage() {
  const t = useSsoT();
  const [query] = useSearchParams();
  const [step] = useStep(async () => {
    const q = queryObject(query);
    if (q.code || q.state || q.error) return cloudTokenByCode(q);
    const started = await cloudUrl(whereFrom(query), q.provider || '', session.takeRedirect() || '');
    window.location.assign(started.url);
    return undefined;
  }, t('web.failedTitle'));
  return <StepView step={step} testId="sso-authorize" working={t('web.working')} />;
}

/** /sso/multi-login: choose among the tenant's providers. */
export function MultiLoginPage() {
  const t = useSsoT();
  const [query] = useSearchParams();
  const navigate = useNavigate();
  return (
    <Screen testId="sso-multi-login">
      <Typography.Title level={3}>{t('web.chooseTitle')}</Typography.Title>
      <OtherLoginMode where={whereFrom(query)} />
      <div style={{ marginTop: 24 }}>
        <QrLoginMode where={whereFrom(query)} compact />
      </div>
      <Button type="link" onClick={() => navigate('/login')} style={{ marginTop: 16, padding: 0 }}>{t('web.accountLogin')}</Button>
    </Screen>
  );
}

declare global {
  interface Window {
    dd?: { ready: (cb: () => void) => void; runtime: { permission: { requestAuthCode: (o: {
      corpId: string; onSuccess: (r: { code: string }) => void; onFail: (e: unknown) => void; }) => void } } };
    $wujie?: { props?: Record<string, unknown> };
  }
}

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const el = document.createElement('script');
    el.src = src;
    el.onload = () => resolve();
    el.onerror = () => reject(new Error('script'));
    document.head.appendChild(el);
  });
}

async function dingtalkCode(corpId: string, jsapiUrl?: string): Promise<string> {
  if (!window.dd && jsapiUrl) await loadScript(jsapiUrl);
  const dd = window.dd;
  if (!dd) throw new Error('dd');
  return new Promise((resolve, reject) => {
    dd.ready(() => dd.runtime.permission.requestAuthCode({ corpId, onSuccess: (r) => resolve(r.code), onFail: reject }));
  });
}

/** /third-login: sign-in inside a workplace chat app (DingTalk: the app's auth code; WeCom: its OAuth
 * address); outside them the QR code is shown instead. */
export function ThirdLoginPage() {
  const t = useSsoT();
  const [query] = useSearchParams();
  const kind = workChatKind();
  const q = queryObject(query);
  const domain = q.tenantDomain || window.location.origin;
  const inApp = kind !== null || !!q.code;
  const [step] = useStep(async () => {
    if (!inApp) return undefined;
    if (q.code && q.state) return wecomCallback(q.code, q.state);
    if (q.code && q.corpId) return q.sso ? dingtalkConsole(q.code, q.corpId) : dingtalkInApp(q.code, q.corpId);
    if (kind === 'dingtalk') {
      const info = await dingtalkInfo(domain);
      const code = await dingtalkCode(String(info.corpId), info.jsapiUrl).catch(() => {
        throw new Error(t('web.chatCodeFailed'));
      });
      return dingtalkInApp(code, String(info.corpId), domain);
    }
    const started = await wecomLoginUrl(domain, 'inapp', session.takeRedirect() || '');
    window.location.assign(started.url);
    return undefined;
  }, t('web.failedTitle'));
  if (!inApp) {
    return (
      <Screen testId="sso-third-login">
        <Typography.Title level={3}>{t('web.qrTitle')}</Typography.Title>
        <QrLoginMode where={whereFrom(query)} />
      </Screen>
    );
  }
  return <StepView step={step} testId="sso-third-login" working={t('web.working')} />;
}

/** /qrcode: the QR sign-in page. */
export function QrCodePage() {
  const t = useSsoT();
  const [query] = useSearchParams();
  return (
    <Screen testId="sso-qrcode">
      <Typography.Title level={3}>{t('web.qrTitle')}</Typography.Title>
      <QrLoginMode where={whereFrom(query)} />
    </Screen>
  );
}

/** /qrcode-success: back from a QR scan (DingTalk or WeCom, `via`), inside the QR frame or not. */
export function QrSuccessPage() {
  const t = useSsoT();
  const [query] = useSearchParams();
  const framed = window.top !== window.self;
  const [step] = useStep(async () => {
    if (framed) {
      window.top!.location.href = window.location.href;
      return undefined;
    }
    const q = queryObject(query);
    if (!q.code || !q.state) throw new Error(t('web.noCode'));
    return q.via === 'wecom' ? wecomCallback(q.code, q.state) : dingtalkScan(q.code, q.state);
  }, t('web.failedTitle'));
  return <StepView step={step} testId="sso-qrcode-success" working={t('web.working')} />;
}

/** /wujie-bridge: an embedding host hands over a session (token in the address, or its wujie props). */
export function WujieBridgePage() {
  const t = useSsoT();
  const [query] = useSearchParams();
  const navigate = useNavigate();
  const props = window.$wujie?.props || {};
  const token = query.get('token') || (typeof props.token === 'string' ? props.token : '');
  const refresh = query.get('refreshToken') || (typeof props.refreshToken === 'string' ? props.refreshToken : '');
  const target = query.get('redirect') || (typeof props.redirect === 'string' ? props.redirect : '') || '/home';
  useEffect(() => {
    if (!token) return;
    session.setTokens(token, refresh || undefined);
    navigate(target.startsWith('/') && !target.startsWith('//') ? target : '/home', { replace: true });
  }, [token, refresh, target, navigate]);
  return (
    <Screen testId="sso-wujie-bridge">
      {token ? <Working text={t('web.working')} /> : <SignInFailed message={t('web.linkInvalid')} />}
    </Screen>
  );
}

/** /third-party/receiveWxMsg: the browser view of WeCom's callback address. */
export function ReceiveWxMsgPage() {
  const t = useSsoT();
  return (
    <Screen testId="sso-receive-wx-msg">
      <Result status="info" title={t('web.wxMsgTitle')} subTitle={t('web.wxMsgText', { url: `${window.location.origin}/api/third/third-party/receiveWxMsg?corpId=` })} />
    </Screen>
  );
}
