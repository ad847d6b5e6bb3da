import { Suspense, lazy, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { App, Button, Checkbox, Dropdown, Form, Input, Select, Tabs, Typography } from 'antd';
import { GlobalIcon, LockIcon, MailIcon, SafetyIcon, UserIcon } from '../icons';
import { RequestError, local, request, resetNotLoggedIn, session, useT, type Locale } from '@atrium/sdk';
import { fetchSetting } from '../api';
import { encryptPassword } from '../crypto';
import { useLanguageOptions } from '../languages';
import { languageMenuItems, switchLanguage } from '../components/languageMenu';
import { store, useStore, type PasswordInfo } from '../store';
import { Logo } from '../components/Logo';
import { loadLayout } from '../layout/load';
import { OtherLoginMode, QrLoginMode, isWorkChatBrowser, whereFrom, type Where } from '../sso';
import { fullPhone } from '../components/phone';
import { EMAIL_RE, useCountdown } from '../components/SigninParts';

// The QR code and the dial-code picker are downloaded when their tab opens.
const PlatformQr = lazy(() => import(/* webpackChunkName: "signin-modes" */ './QrCode').then((m) => ({ default: m.PlatformQr })));
const PhoneField = lazy(() => import(/* webpackChunkName: "signin-modes" */ '../components/SigninParts').then((m) => ({ default: m.PhoneField })));

type Mode = 'account' | 'phone' | 'email' | 'ldap' | 'qr' | 'form' | 'other';

/** Form login: account and password in a plain form, for people who expect the classic sign-in form. It
 * signs in through the same call as the account mode (the password is encrypted in the browser: the
 * server accepts no other), and is offered wherever the account mode is. */
function usesPasswordForm(mode: Mode): boolean {
  return mode === 'account' || mode === 'form';
}

/** The platform's own modes, each of which a tenant may switch off. */
type OwnMode = 'account' | 'phone' | 'email';
const OWN_MODES: OwnMode[] = ['account', 'phone', 'email'];
/** The tenant's sign-in options: which own modes it offers, single sign-on QR and redirect providers,
 * domains, the platform's QR code and free registration. */
type SsoModes = { own: OwnMode[]; qr: boolean; other: boolean; ldap: string[]; platformQr: boolean; register: boolean };

/** Which single sign-on tabs the tenant's sign-in page offers (providers with a QR or redirect mode). */
function useSsoModes(where: Where): SsoModes {
  const [modes, setModes] = useState<SsoModes>({ own: OWN_MODES, qr: false, other: false, ldap: [], platformQr: false, register: false });
  // asked again for another tenant or domain only (the caller makes a new `where` on every render)
  const { tenantId, domainName } = where;
  useEffect(() => {
    let live = true;
    type Info = { loginTypes?: { type: string; modes?: string[]; domains?: string[] }[]; allowRegister?: boolean };
    request<Info>('base/base-login-config/get-login-info', { params: { tenantId, domainName }, silent: true })
      .then((info) => {
        const all = Array.isArray(info?.loginTypes) ? info.loginTypes : [];
        const has = (m: string) => all.some((x) => Array.isArray(x.modes) && x.modes.includes(m));
        const ldap = all.find((x) => x.type === 'ldap')?.domains ?? [];
        const platformQr = all.some((x) => x.type === 'qrcode');
        const offered = OWN_MODES.filter((m) => all.some((x) => x.type === m));
        const own = Array.isArray(info?.loginTypes) && offered.length ? offered : OWN_MODES;
        if (live) setModes({ own, qr: has('qr'), other: has('redirect'), ldap, platformQr, register: Boolean(info?.allowRegister) });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [tenantId, domainName]);
  return modes;
}


export function Login() {
  const t = useT();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const [query] = useSearchParams();
  const setting = useStore((s) => s.setting);
  const [mode, setMode] = useState<Mode>('account');
  const where = whereFrom(query);
  const ssoModes = useSsoModes(where);
  const languages = useLanguageOptions();
  const [loading, setLoading] = useState(false);
  const [captcha, setCaptcha] = useState<{ captchaId: string; image: string } | null>(null);
  const [left, startCountdown] = useCountdown();
  const [form] = Form.useForm();
  const agreed = Boolean(Form.useWatch('agree', form));
  const ownLabels: Record<OwnMode, string> = { account: t('login.modeAccount'), phone: t('login.modePhone'), email: t('login.modeEmail') };

  // A mode the tenant switched off is not offered: the first one it offers is shown instead.
  useEffect(() => {
    const offered = mode === 'form' ? ssoModes.own.includes('account') : !(OWN_MODES as string[]).includes(mode) || ssoModes.own.includes(mode as OwnMode);
    if (!offered) setMode(ssoModes.own[0]);
  }, [ssoModes.own, mode]);

  // In a workplace chat app's browser the person signs in through the app.
  useEffect(() => {
    if (isWorkChatBrowser()) navigate(`/third-login${window.location.search}`, { replace: true });
  }, [navigate]);

  useEffect(() => {
    // Going to the login page clears tracking and chat flags (spec 4).
    store.set({ chatOpen: false, helpOpen: false });
    local.remove('atrium.tracking');
    const tenantId = query.get('tenantId') || session.profile.tenantId;
    fetchSetting(session.getSystemCode(), tenantId ?? undefined)
      .then((s) => {
        if (!s) return;
        store.set((st) => ({ setting: s, flags: { ...st.flags, configuredColor: s.themeColor || st.flags.configuredColor } }));
      })
      .catch(() => undefined);
  }, [query]);

  const loadCaptcha = async () => {
    try {
      setCaptcha(await request<{ captchaId: string; image: string }>('base/base-user/captcha', { silent: true }));
      form.setFieldValue('captchaCode', '');
    } catch {
      message.error(t('login.captchaFailed'));
    }
  };

  const sendCode = async () => {
    const field = mode === 'phone' ? 'phone' : 'email';
    try {
      await form.validateFields([field]);
    } catch {
      return;
    }
    const value = mode === 'phone' ? fullPhone(form) : String(form.getFieldValue(field) || '').trim();
    try {
      if (mode === 'phone') await request('base/base-user/pre-captcha', { params: { ...where, phone: value } });
      else await request('base/base-user/pre-email-captcha', { params: { ...where, email: value } });
      message.success(t('login.codeSent'));
      startCountdown();
    } catch {
      /* the request client showed the server's message */
    }
  };

  const afterLogin = async (data: Record<string, any>) => {
    void loadLayout();
    session.signIn(data);
    resetNotLoggedIn();
    store.set({ ready: false });
    const target = session.takeRedirect() || '/home';
    let pwd: PasswordInfo | undefined;
    try {
      pwd = await request<PasswordInfo>('base/base-user/check-pwd-login', { silent: true });
    } catch {
      pwd = undefined;
    }
    if (pwd?.pop && pwd.optType === 2) {
      modal.confirm({
        title: t('password.expiryTitle'),
        content: pwd.reason || pwd.pwdTips || t('password.expiryText'),
        okText: t('password.changeNow'),
        cancelText: t('password.later'),
        onOk: () => {
          navigate(target);
          setTimeout(() => store.set({ changePasswordOpen: true }), 0);
        },
        onCancel: () => {
          store.set({ passwordDialog: false });
          navigate(target);
        },
      });
      return;
    }
    navigate(target);
  };

  const submit = async (values: Record<string, string>) => {
    setLoading(true);
    try {
      let body: Record<string, unknown>;
      if (usesPasswordForm(mode)) {
        const password = await encryptPassword(values.password.trim());
        body = { ...where, account: values.account.trim(), password };
        if (captcha) Object.assign(body, { captchaId: captcha.captchaId, captchaCode: (values.captchaCode || '').trim() });
      } else if (mode === 'ldap') {
        const password = await encryptPassword(values.password.trim());
        const data = await request<Record<string, any>>('base/base-user/ldap-login', {
          method: 'POST',
          data: { ...where, domain: values.domain, account: values.account.trim(), password },
          silent: true,
        });
        await afterLogin(data);
        return;
      } else if (mode === 'phone') {
        body = { ...where, loginType: 'phone', phone: fullPhone(form), code: values.code.trim() };
      } else {
        body = { ...where, loginType: 'email', email: values.email.trim(), code: values.code.trim() };
      }
      const data = await request<Record<string, any>>('base/base-user/login', { method: 'POST', data: body, silent: true });
      await afterLogin(data);
    } catch (err) {
      const e = err as RequestError;
      if (e.code === 1002) {
        await loadCaptcha();
        message.warning(e.message || t('login.captchaRequired'));
      } else {
        if (captcha) void loadCaptcha();
        message.error(e.message || t('error.system'));
      }
    } finally {
      setLoading(false);
    }
  };

  const required = (msg: string) => [{ required: true, whitespace: true, message: msg }];
  const title = setting.systemTitle || setting.systemName || t('app.title');

  const codeField = (
    <Form.Item name="code" rules={required(t('login.codeEmpty'))}>
      <Input
        size="large"
        prefix={<SafetyIcon />}
        placeholder={t('login.code')}
        maxLength={8}
        autoComplete="one-time-code"
        suffix={
          <Button type="link" size="small" disabled={left > 0} onClick={sendCode} style={{ padding: 0 }}>
            {left > 0 ? t('login.resendIn', { seconds: left }) : t('login.sendCode')}
          </Button>
        }
      />
    </Form.Item>
  );

  const consentText = (
    <>
      {t('login.agreePrefix')}{' '}
      <a className="at-inline-link" href="platform-protocol?type=agreement" target="_blank" rel="noreferrer">{t('login.agreement')}</a>{' '}
      {t('login.and')}{' '}
      <a className="at-inline-link" href="platform-protocol?type=privacy" target="_blank" rel="noreferrer">{t('login.privacy')}</a>
    </>
  );

  return (
    <div className="at-login">
      <div className="at-login-brand">
        <span className="at-orb" style={{ width: 420, height: 420, right: -120, top: -140 }} />
        <span className="at-orb" style={{ width: 260, height: 260, left: -80, bottom: -60 }} />
        <div style={{ display: 'flex', alignItems: 'center', gap: 12, position: 'relative' }}>
          <Logo src={setting.systemLogo} size={40} light />
          <span style={{ fontSize: 20, fontWeight: 600 }}>{title}</span>
        </div>
        <div style={{ position: 'relative' }}>
          <h1>{t('login.headline')}</h1>
          <p>{t('login.slogan')}</p>
        </div>
        <div style={{ opacity: 0.6, fontSize: 13, position: 'relative' }}>© {new Date().getFullYear()} {title}</div>
      </div>
      <div className="at-login-panel">
        <div className="at-login-card">
          <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
            <h2>{t('login.welcome')}</h2>
            <Dropdown
              menu={{
                selectedKeys: [t.locale],
                items: languageMenuItems(languages),
                onClick: ({ key }) => switchLanguage(key as Locale),
              }}
            >
              <Button type="text" icon={<GlobalIcon />} aria-label={t('navbar.language')} data-testid="login-language" />
            </Dropdown>
          </div>
          <Typography.Paragraph type="secondary">{t('login.subtitle')}</Typography.Paragraph>
          {mode === 'form' ? (
            <div className="at-login-form-mode" data-testid="login-form-mode">
              <Typography.Text strong>{t('login.modeForm')}</Typography.Text>
              <Typography.Link onClick={() => setMode('account')}>{t('login.backToLogin')}</Typography.Link>
            </div>
          ) : (
            <Tabs
              activeKey={mode}
              onChange={(k) => {
                setMode(k as Mode);
                form.resetFields(['code']);
              }}
              items={[
                ...ssoModes.own.map((m) => ({ key: m, label: ownLabels[m] })),
                ...(ssoModes.ldap.length ? [{ key: 'ldap', label: t('login.modeLdap') }] : []),
                ...(ssoModes.qr || ssoModes.platformQr ? [{ key: 'qr', label: t('login.modeQr', { defaultValue: 'QR code' }) }] : []),
                ...(ssoModes.other ? [{ key: 'other', label: t('login.modeOther', { defaultValue: 'Other login' }) }] : []),
              ]}
            />
          )}
          {(mode === 'qr' || mode === 'other') && (
            <Checkbox
              data-testid="qr-consent"
              checked={agreed}
              onChange={(e) => form.setFieldValue('agree', e.target.checked)}
              style={{ marginBottom: 12 }}
            >
              {consentText}
            </Checkbox>
          )}
          {(mode === 'qr' || mode === 'other') && !agreed && (
            <Typography.Paragraph type="secondary" data-testid="consent-first" style={{ textAlign: 'center', padding: '32px 0' }}>
              {t(mode === 'qr' ? 'login.agreeBeforeQr' : 'login.agreeBeforeOther')}
            </Typography.Paragraph>
          )}
          {agreed && mode === 'qr' && ssoModes.platformQr && <Suspense fallback={null}><PlatformQr onSignedIn={afterLogin} /></Suspense>}
          {agreed && mode === 'qr' && ssoModes.qr && <QrLoginMode where={where} compact={ssoModes.platformQr} />}
          {agreed && mode === 'other' && <OtherLoginMode where={where} />}
          <Form
            form={form}
            onFinish={submit}
            size="large"
            validateTrigger="onSubmit"
            initialValues={{ agree: false }}
            hidden={mode === 'qr' || mode === 'other'}
          >
            {usesPasswordForm(mode) && (
              <>
                <Form.Item name="account" rules={required(t('login.accountEmpty'))}>
                  <Input prefix={<UserIcon />} placeholder={t('login.account')} autoComplete="username" />
                </Form.Item>
                <Form.Item name="password" rules={required(t('login.passwordEmpty'))}>
                  <Input.Password prefix={<LockIcon />} placeholder={t('login.password')} autoComplete="current-password" />
                </Form.Item>
                {captcha && (
                  <div style={{ display: 'flex', gap: 8, alignItems: 'flex-start' }}>
                    <Form.Item name="captchaCode" rules={required(t('login.captchaRequired'))} style={{ flex: 1 }}>
                      <Input prefix={<SafetyIcon />} placeholder={t('login.captcha')} maxLength={8} />
                    </Form.Item>
                    <img className="at-captcha" src={captcha.image} alt={t('login.captchaRefresh')} title={t('login.captchaRefresh')} onClick={loadCaptcha} />
                  </div>
                )}
              </>
            )}
            {mode === 'ldap' && (
              <>
                <Form.Item name="domain" initialValue={ssoModes.ldap[0]} rules={[{ required: true, message: t('login.domainEmpty') }]}>
                  <Select
                    aria-label={t('login.domain')}
                    placeholder={t('login.domain')}
                    options={ssoModes.ldap.map((d) => ({ value: d, label: d }))}
                  />
                </Form.Item>
                <Form.Item name="account" rules={required(t('login.accountEmpty'))}>
                  <Input prefix={<UserIcon />} placeholder={t('login.domainAccount')} autoComplete="username" />
                </Form.Item>
                <Form.Item name="password" rules={required(t('login.passwordEmpty'))}>
                  <Input.Password prefix={<LockIcon />} placeholder={t('login.password')} autoComplete="current-password" />
                </Form.Item>
              </>
            )}
            {mode === 'phone' && (
              <>
                <Suspense fallback={<Input placeholder={t('login.phone')} disabled />}>
                  <PhoneField />
                </Suspense>
                {codeField}
              </>
            )}
            {mode === 'email' && (
              <>
                <Form.Item
                  name="email"
                  rules={[
                    { required: true, whitespace: true, message: t('login.emailEmpty') },
                    { pattern: EMAIL_RE, message: t('login.emailInvalid') },
                  ]}
                >
                  <Input prefix={<MailIcon />} placeholder={t('login.email')} autoComplete="email" />
                </Form.Item>
                {codeField}
              </>
            )}
            <Form.Item
              name="agree"
              valuePropName="checked"
              rules={[{ validator: (_, v) => (v ? Promise.resolve() : Promise.reject(new Error(t('login.agreeRequired')))) }]}
              style={{ marginBottom: 12 }}
            >
              <Checkbox>{consentText}</Checkbox>
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={loading} size="large">
              {t('login.submit')}
            </Button>
            <div style={{ display: 'flex', justifyContent: 'space-between', marginTop: 16 }}>
              <Typography.Link onClick={() => navigate(`/forgot-password${window.location.search}`)}>{t('login.forgot')}</Typography.Link>
              {mode === 'account' && ssoModes.own.includes('account') && (
                <Typography.Link data-testid="login-form-link" onClick={() => setMode('form')}>
                  {t('login.modeForm')}
                </Typography.Link>
              )}
              {ssoModes.register && (
                <Typography.Link onClick={() => navigate(`/register${window.location.search}`)}>
                  {t('login.register')}
                </Typography.Link>
              )}
            </div>
          </Form>
        </div>
      </div>
    </div>
  );
}
