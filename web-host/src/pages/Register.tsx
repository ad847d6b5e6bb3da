import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { App, Button, Form, Input, Result, Segmented, Typography, type FormInstance } from 'antd';
import { RequestError, request, useT } from '@atrium/sdk';
import { MailIcon, UserIcon } from '../icons';
import { encryptPassword } from '../crypto';
import { whereFrom } from '../sso';
import { AgreeField, CodeField, EMAIL_RE, PasswordPair, PhoneField, SigninCard, fullPhone, usePasswordRule } from '../components/SigninParts';

type Channel = 'phone' | 'email';

/** The phone or e-mail field of the register and forgot-password forms. */
export function ContactField({ channel }: { channel: Channel }) {
  const t = useT();
  return channel === 'phone' ? (
    <PhoneField />
  ) : (
    <Form.Item
      name="email"
      rules={[
        { required: true, whitespace: true, message: t('login.emailEmpty') },
        { pattern: EMAIL_RE, message: t('login.emailInvalid') },
      ]}
    >
      <Input prefix={<MailIcon />} placeholder={t('login.email')} autoComplete="email" />
    </Form.Item>
  );
}

/** Phone or e-mail (the user picks), then the code sent to it through the calls under `base`. */
function VerifiedContact({ form, channel, onChannel, base }: { form: FormInstance; channel: Channel; onChannel: (c: Channel) => void; base: string }) {
  const t = useT();
  return (
    <>
      <Form.Item>
        <Segmented
          block
          value={channel}
          onChange={(v) => onChannel(v as Channel)}
          options={[
            { value: 'phone', label: t('login.byPhone') },
            { value: 'email', label: t('login.byEmail') },
          ]}
        />
      </Form.Item>
      <ContactField channel={channel} />
      <CodeField form={form} channel={channel} base={base} />
    </>
  );
}

/** /register: free registration in the tenant of the sign-in page. */
export function Register() {
  const t = useT();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [query] = useSearchParams();
  const rule = usePasswordRule(whereFrom(query));
  const [form] = Form.useForm();
  const [channel, setChannel] = useState<Channel>('phone');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<'none' | 'pending' | null>(null);
  const back = () => navigate(`/login${window.location.search}`);

  const submit = async (v: Record<string, string>) => {
    setBusy(true);
    try {
      const body = {
        ...whereFrom(query),
        registerType: channel,
        account: v.account.trim(),
        userFullName: v.name.trim(),
        phone: channel === 'phone' ? fullPhone(form) : '',
        email: (v.email || '').trim(),
        code: v.code.trim(),
        password: await encryptPassword(v.password.trim()),
        confirmPassword: await encryptPassword(v.confirm.trim()),
        agree: true,
      };
      const answer = await request<{ approval: string }>('base/base-user/register', { method: 'POST', data: body, silent: true });
      setDone(answer.approval === 'pending' ? 'pending' : 'none');
    } catch (err) {
      message.error((err as RequestError).message || t('error.system'));
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <SigninCard title={t('login.registerTitle')} testId="register-page">
        <Result
          status="success"
          title={done === 'pending' ? t('login.registerPending') : t('login.registered')}
          extra={<Button type="primary" onClick={back}>{t('login.backToLogin')}</Button>}
        />
      </SigninCard>
    );
  }
  return (
    <SigninCard title={t('login.registerTitle')} testId="register-page">
      <Form form={form} onFinish={submit} size="large" validateTrigger="onSubmit" initialValues={{ agree: false }}>
        <Form.Item name="account" rules={[{ required: true, whitespace: true, message: t('login.accountEmpty') }]}>
          <Input prefix={<UserIcon />} placeholder={t('login.account')} autoComplete="username" maxLength={64} />
        </Form.Item>
        <Form.Item name="name" rules={[{ required: true, whitespace: true, message: t('login.nameEmpty') }]}>
          <Input placeholder={t('login.name')} autoComplete="name" maxLength={64} />
        </Form.Item>
        <VerifiedContact form={form} channel={channel} onChannel={setChannel} base="base/base-user/register" />
        <PasswordPair label={t('login.password')} rule={rule} />
        <AgreeField />
        <Button type="primary" htmlType="submit" block loading={busy}>{t('login.registerSubmit')}</Button>
      </Form>
      <Typography.Link onClick={back} style={{ display: 'block', marginTop: 16 }}>{t('login.backToLogin')}</Typography.Link>
    </SigninCard>
  );
}

/** /forgot-password: a new password with a code sent to the account's phone or e-mail. */
export function ForgotPassword() {
  const t = useT();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [query] = useSearchParams();
  const where = whereFrom(query);
  const rule = usePasswordRule(where);
  const [form] = Form.useForm();
  const [channel, setChannel] = useState<Channel>('phone');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const back = () => navigate(`/login${window.location.search}`);

  const submit = async (v: Record<string, string>) => {
    setBusy(true);
    try {
      const body = {
        ...where,
        resetType: channel,
        phone: channel === 'phone' ? fullPhone(form) : '',
        email: (v.email || '').trim(),
        account: (v.account || '').trim(),
        code: v.code.trim(),
        password: await encryptPassword(v.password.trim()),
        confirmPassword: await encryptPassword(v.confirm.trim()),
      };
      await request('base/base-user/reset-pwd', { method: 'POST', data: body, silent: true });
      setDone(true);
    } catch (err) {
      message.error((err as RequestError).message || t('error.system'));
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <SigninCard title={t('login.forgotTitle')} testId="forgot-page">
        <Result status="success" title={t('login.resetDone')} extra={<Button type="primary" onClick={back}>{t('login.backToLogin')}</Button>} />
      </SigninCard>
    );
  }
  return (
    <SigninCard title={t('login.forgotTitle')} testId="forgot-page">
      <Form form={form} onFinish={submit} size="large" validateTrigger="onSubmit">
        <VerifiedContact form={form} channel={channel} onChannel={setChannel} base="base/base-user/reset-pwd" />
        <PasswordPair label={t('login.newPassword')} rule={rule} />
        <Button type="primary" htmlType="submit" block loading={busy}>{t('login.resetSubmit')}</Button>
      </Form>
      <Typography.Link onClick={back} style={{ display: 'block', marginTop: 16 }}>{t('login.backToLogin')}</Typography.Link>
    </SigninCard>
  );
}
