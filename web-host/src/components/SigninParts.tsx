import { useEffect, useRef, useState, type ReactNode } from 'react';
import { App, Button, Checkbox, Form, Input, Select, Space, type FormInstance } from 'antd';
import { currentLocale, request, useT } from '@atrium/sdk';
import { MobileIcon, SafetyIcon } from '../icons';
import type { Where } from '../sso/api';

import { PHONE_RE, fullPhone } from './phone';

export { PHONE_RE, fullPhone };
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A tenant's password rule as the server checks it (`passwordRule` of get-login-info). */
export interface PasswordRule {
  minLength: number;
  maxLength: number;
  allowSymbols: boolean;
  pattern: string;
  pwdTips: string;
}

/** The password rule of the sign-in page's tenant; null until it has arrived (the server checks anyway). */
export function usePasswordRule(where: Where): PasswordRule | null {
  const [rule, setRule] = useState<PasswordRule | null>(null);
  const { tenantId, domainName } = where;
  useEffect(() => {
    let live = true;
    request<{ passwordRule?: PasswordRule }>('base/base-login-config/get-login-info', { params: { tenantId, domainName }, silent: true })
      .then((info) => live && setRule(info?.passwordRule ?? null))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [tenantId, domainName]);
  return rule;
}

/** Seconds left before a code may be sent again (60 after each send). */
export function useCountdown(): [number, () => void] {
  const [left, setLeft] = useState(0);
  const timer = useRef<ReturnType<typeof setInterval>>(undefined);
  useEffect(() => () => clearInterval(timer.current), []);
  const start = () => {
    setLeft(60);
    clearInterval(timer.current);
    timer.current = setInterval(() => {
      setLeft((v) => {
        if (v <= 1) clearInterval(timer.current);
        return v - 1;
      });
    }, 1000);
  };
  return [left, start];
}

/** A country's dial code (GET base-user/dial-codes): `sms` tells whether codes can be sent there. */
export interface DialCode {
  code: string;
  value: string;
  names: Record<string, string>;
  sms: boolean;
}

let dialCodes: Promise<DialCode[]> | null = null;

function loadDialCodes(): Promise<DialCode[]> {
  dialCodes ??= request<DialCode[]>('base/base-user/dial-codes', { silent: true }).catch(() => {
    dialCodes = null;
    return [];
  });
  return dialCodes;
}

/** The phone field with its country dial-code picker (mainland China first). */
export function PhoneField() {
  const t = useT();
  const [codes, setCodes] = useState<DialCode[]>([]);
  useEffect(() => {
    let live = true;
    void loadDialCodes().then((list) => live && setCodes(list));
    return () => {
      live = false;
    };
  }, []);
  const locale = currentLocale();
  const options = (codes.length ? codes : [{ code: '+86', value: 'CN', names: {}, sms: true }]).map((c) => ({
    value: `${c.value}`,
    label: c.code,
    search: `${c.names[locale] || c.names['en-us'] || c.value} ${c.code} ${c.value}`,
    name: c.names[locale] || c.names['en-us'] || c.value,
  }));
  const form = Form.useFormInstance();
  return (
    <Space.Compact block style={{ alignItems: 'flex-start' }}>
        <Form.Item name="dialRegion" noStyle initialValue="CN">
          <Select
            showSearch={{ filterOption: (input, o) => String(o?.search || '').toLowerCase().includes(input.toLowerCase()) }}
            aria-label={t('login.dialCode')}
            data-testid="dial-code"
            style={{ width: 104 }}
            popupMatchSelectWidth={280}
            options={options}
            optionRender={(o) => `${o.data.name} ${o.data.label}`}
            onChange={(region: string) => {
              const found = codes.find((c) => c.value === region);
              form.setFieldValue('dialCode', found?.code || '+86');
            }}
          />
        </Form.Item>
        <Form.Item name="dialCode" noStyle initialValue="+86" hidden>
          <Input />
        </Form.Item>
        <Form.Item
          name="phone"
          style={{ flex: 1 }}
          rules={[
            { required: true, whitespace: true, message: t('login.phoneEmpty') },
            ({ getFieldValue }) => ({
              validator: (_, v) => {
                const value = String(v || '').trim();
                if (!value) return Promise.resolve();
                const ok = (getFieldValue('dialCode') || '+86') === '+86' ? PHONE_RE.test(value) : /^\+?\d{4,15}$/.test(value);
                return ok ? Promise.resolve() : Promise.reject(new Error(t('login.phoneInvalid')));
              },
            }),
          ]}
        >
          <Input prefix={<MobileIcon />} placeholder={t('login.phone')} maxLength={16} autoComplete="tel" />
        </Form.Item>
    </Space.Compact>
  );
}

/** The verification-code field with its send button and countdown; `path` is the send-code call
 * (`.../pre-captcha` for a phone, `.../pre-email-captcha` for an e-mail address). */
export function CodeField({ form, channel, base }: { form: FormInstance; channel: 'phone' | 'email'; base: string }) {
  const t = useT();
  const { message } = App.useApp();
  const [left, start] = useCountdown();
  const send = async () => {
    try {
      await form.validateFields([channel]);
    } catch {
      return;
    }
    const value = channel === 'phone' ? fullPhone(form) : String(form.getFieldValue(channel) || '').trim();
    try {
      await request(`${base}/${channel === 'phone' ? 'pre-captcha' : 'pre-email-captcha'}`, { params: { [channel]: value } });
      message.success(t('login.codeSent'));
      start();
    } catch {
      /* the request client showed the server's message */
    }
  };
  return (
    <Form.Item name="code" rules={[{ required: true, whitespace: true, message: t('login.codeEmpty') }]}>
      <Input
        prefix={<SafetyIcon />}
        placeholder={t('login.code')}
        maxLength={8}
        autoComplete="one-time-code"
        suffix={
          <Button type="link" size="small" disabled={left > 0} onClick={send} style={{ padding: 0 }} data-testid="send-code">
            {left > 0 ? t('login.resendIn', { seconds: left }) : t('login.sendCode')}
          </Button>
        }
      />
    </Form.Item>
  );
}

/** New password and its confirmation, by the tenant's rule (its words shown under the field), both the same. */
export function PasswordPair({ label, rule }: { label: string; rule: PasswordRule | null }) {
  const t = useT();
  return (
    <>
      <Form.Item
        name="password"
        extra={<span data-testid="password-rule">{rule?.pwdTips}</span>}
        rules={[
          { required: true, message: t('login.passwordEmpty') },
          ...(rule ? [{ pattern: new RegExp(rule.pattern), message: rule.pwdTips }] : []),
        ]}
      >
        <Input.Password placeholder={label} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirm"
        dependencies={['password']}
        rules={[
          { required: true, message: t('login.confirmEmpty') },
          ({ getFieldValue }) => ({
            validator: (_, v) => (!v || v === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(t('login.passwordNotMatch')))),
          }),
        ]}
      >
        <Input.Password placeholder={t('login.confirmPassword')} autoComplete="new-password" />
      </Form.Item>
    </>
  );
}

/** Agreement and privacy-policy consent, required. */
export function AgreeField() {
  const t = useT();
  return (
    <Form.Item
      name="agree"
      valuePropName="checked"
      rules={[{ validator: (_, v) => (v ? Promise.resolve() : Promise.reject(new Error(t('login.agreeRequired')))) }]}
      style={{ marginBottom: 12 }}
    >
      <Checkbox>
        {t('login.agreePrefix')}{' '}
        <a className="at-inline-link" href="platform-protocol?type=agreement" target="_blank" rel="noreferrer">{t('login.agreement')}</a>{' '}
        {t('login.and')}{' '}
        <a className="at-inline-link" href="platform-protocol?type=privacy" target="_blank" rel="noreferrer">{t('login.privacy')}</a>
      </Checkbox>
    </Form.Item>
  );
}

/** The centred card the register, forgot-password and QR pages share. */
export function SigninCard({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <div className="at-center" style={{ minHeight: '100vh', padding: 24, background: 'var(--at-bg)' }}>
      <div className="at-login-card" data-testid={testId} style={{ width: 420, maxWidth: '100%', background: 'var(--at-panel)', padding: 32, borderRadius: 12 }}>
        <h2 style={{ marginTop: 0 }}>{title}</h2>
        {children}
      </div>
    </div>
  );
}
