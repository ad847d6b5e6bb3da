/**
 * The shared link page (spec 2.2, 4, 5): 0 error (invalid link or no permission), 1 password prompt,
 * 2 report view, 3 expired. Works without a session: the link's token authorises the calls.
 */
import { App, Button, Input, Result, Spin } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useLocation } from 'react-router';
import { session } from '@atrium/sdk';
import { api, type Access } from '../api';
import { checkPassword, LINK_STATE, linkIdFrom, linkState, PASSWORD_MAX_LENGTH, type LinkOutcome } from '../model/link';
import type { LinkValidation, PanelDetail } from '../model/types';
import { useRT } from '../i18n';
import { PanelView } from '../panel/PanelView';
import { useJumpTrack } from './usePanelTrack';

const CACHE_PREFIX = 'atrium.reports.link.';
const TOKEN_PREFIX = 'atrium.reports.linkToken.';

function cachedValidation(link: string): LinkValidation | null {
  try {
    const raw = localStorage.getItem(CACHE_PREFIX + link);
    return raw ? (JSON.parse(raw) as LinkValidation) : null;
  } catch {
    return null;
  }
}

function cacheValidation(link: string, v: LinkValidation): void {
  try {
    const { linkToken: _t, ...rest } = v;
    localStorage.setItem(CACHE_PREFIX + link, JSON.stringify(rest));
  } catch {
    /* storage full or off */
  }
}

function storedToken(link: string): string | undefined {
  try {
    return sessionStorage.getItem(TOKEN_PREFIX + link) || undefined;
  } catch {
    return undefined;
  }
}

function storeToken(link: string, token: string | undefined): void {
  try {
    if (token) sessionStorage.setItem(TOKEN_PREFIX + link, token);
    else sessionStorage.removeItem(TOKEN_PREFIX + link);
  } catch {
    /* storage off */
  }
}

interface Resolved {
  link: string;
  user: number | null;
  systemCode?: string;
}

function PasswordPrompt({ onSubmit }: { onSubmit: (pwd: string) => Promise<string | null> }) {
  const { t } = useRT();
  const [pwd, setPwd] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const problem = checkPassword(pwd);
    if (problem) {
      setError(t(problem === 'required' ? 'link.passwordRequired' : 'link.passwordMistake'));
      return;
    }
    setBusy(true);
    setError(null);
    const msg = await onSubmit(pwd);
    setBusy(false);
    if (msg) setError(msg);
  };
  return (
    <div className="rpt-link-password" data-testid="link-password" style={{ maxWidth: 360, margin: '15vh auto 0', padding: 32, background: 'var(--at-panel, #fff)', borderRadius: 12, boxShadow: '0 8px 24px rgba(0,0,0,.08)' }}>
      <h3 style={{ marginTop: 0 }}>{t('link.passwordTitle')}</h3>
      <Input.Password
        autoFocus
        data-testid="link-password-input"
        maxLength={PASSWORD_MAX_LENGTH}
        inputMode="numeric"
        placeholder={t('link.passwordPlaceholder')}
        value={pwd}
        status={error ? 'error' : undefined}
        onChange={(e) => setPwd(e.target.value)}
        onPressEnter={() => void submit()}
      />
      <div data-testid="link-password-error" style={{ minHeight: 22, color: '#d4380d', fontSize: 13, marginTop: 4 }}>{error}</div>
      <Button type="primary" block loading={busy} data-testid="link-password-submit" onClick={() => void submit()}>{t('link.confirm')}</Button>
    </div>
  );
}

function LinkReport({ resourceId, access }: { resourceId: string; access: Access }) {
  const { t } = useRT();
  const [panel, setPanel] = useState<PanelDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const track = useJumpTrack(resourceId, access);
  useEffect(() => {
    let alive = true;
    api.resourceDetail(resourceId, access).then((p) => alive && setPanel(p)).catch((e: Error) => alive && setError(e.message));
    return () => {
      alive = false;
    };
  }, [resourceId, access]);
  useEffect(() => {
    if (panel?.name) document.title = panel.name;
  }, [panel?.name]);
  if (error) return <Result status="error" title={t('link.errorTitle')} subTitle={error} />;
  if (!panel || track === null) return <div style={{ padding: 80, textAlign: 'center' }}><Spin /></div>;
  return (
    <>
      {/* the dashboard's name above it: a shared link opens the panel alone, without the reports page around it */}
      {panel.name && (
        <header className="rpt-link-head" style={{ padding: '14px 16px 6px' }}>
          <h1
            data-testid="link-title"
            title={panel.name}
            style={{ margin: 0, fontSize: 20, lineHeight: '28px', fontWeight: 600, color: 'var(--at-text, #1f2533)', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
          >
            {panel.name}
          </h1>
        </header>
      )}
      <PanelView panel={panel} access={access} signedIn={!!session.getToken()} track={track} />
    </>
  );
}

export default function LinkPage() {
  const { t, ready } = useRT();
  const { message } = App.useApp();
  const location = useLocation();
  const id = linkIdFrom(location.pathname, location.search);
  const [resolved, setResolved] = useState<Resolved | null>(null);
  const [validation, setValidation] = useState<LinkValidation | null>(null);
  const [outcome, setOutcome] = useState<LinkOutcome | null>(null);
  const [token, setToken] = useState<string | undefined>(() => storedToken(id));

  const apply = useCallback((link: string, v: LinkValidation) => {
    cacheValidation(link, v);
    if (v.linkToken) {
      storeToken(link, v.linkToken);
      setToken(v.linkToken);
    } else if (v.enablePwd && !v.passPwd) {
      storeToken(link, undefined);
      setToken(undefined);
    }
    setValidation(v);
    setOutcome(linkState(v));
  }, []);

  const validate = useCallback(
    async (r: Resolved, tok?: string) => {
      const v = await api.validate({ link: r.link, systemCode: r.systemCode || undefined, user: r.user ?? undefined }, tok);
      apply(r.link, v);
      return v;
    },
    [apply],
  );

  useEffect(() => {
    let alive = true;
    setOutcome(null);
    if (!id) {
      setOutcome({ state: LINK_STATE.error, reason: 'invalid' });
      return undefined;
    }
    api
      .resolveLink(id)
      .then(async (r) => {
        if (!alive) return;
        setResolved(r);
        // the last answer shows at once; the server's answer replaces it (spec 7.1)
        const cached = cachedValidation(r.link);
        const tok = storedToken(r.link);
        if (cached && (!cached.enablePwd || tok)) {
          setValidation(cached);
          setOutcome(linkState(tok ? { ...cached, passPwd: cached.passPwd || !!tok } : cached));
        }
        await validate(r, tok).catch(() => alive && setOutcome({ state: LINK_STATE.error, reason: 'invalid' }));
      })
      .catch(() => alive && setOutcome({ state: LINK_STATE.error, reason: 'invalid' }));
    return () => {
      alive = false;
    };
  }, [id, validate]);

  const submitPassword = async (pwd: string): Promise<string | null> => {
    if (!resolved || !validation) return t('link.invalid');
    try {
      const answer = await api.validatePwd({ password: pwd, resourceId: validation.resourceId, user: resolved.user ?? undefined, link: resolved.link });
      if (!answer || !answer.linkToken) return t('link.passwordMistake');
      storeToken(resolved.link, answer.linkToken);
      setToken(answer.linkToken);
      // spec 4: a successful check triggers a re-validation
      await validate(resolved, answer.linkToken);
      return null;
    } catch (e) {
      const msg = (e as Error)?.message || t('link.passwordMistake');
      return msg;
    }
  };

  const access = useMemo<Access | undefined>(() => (token ? { linkToken: token, user: resolved?.user ?? null } : undefined), [token, resolved?.user]);

  if (!ready || !outcome) return <div style={{ padding: 80, textAlign: 'center' }} data-testid="link-loading"><Spin /></div>;
  void message;
  return (
    <div className="rpt-link-page" data-testid="link-page" data-state={outcome.state} style={{ minHeight: '100vh', background: 'var(--at-bg, #f3f5f9)' }}>
      {outcome.state === LINK_STATE.error && (
        <Result
          status="warning"
          title={t('link.errorTitle')}
          subTitle={<span data-testid="link-error-reason">{t(outcome.reason === 'noPermission' ? 'link.noPermission' : outcome.reason === 'locked' ? 'link.locked' : 'link.invalid')}</span>}
        />
      )}
      {outcome.state === LINK_STATE.expired && <Result status="info" title={t('link.expiredTitle')} subTitle={t('link.expired')} />}
      {outcome.state === LINK_STATE.password && <PasswordPrompt onSubmit={submitPassword} />}
      {outcome.state === LINK_STATE.view && validation?.resourceId && access && <LinkReport resourceId={validation.resourceId} access={access} />}
      {outcome.state === LINK_STATE.view && !access && <div style={{ padding: 80, textAlign: 'center' }}><Spin /></div>}
    </div>
  );
}
